import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import type { RepositoryKnowledge } from '../../core/context/repository-knowledge.js';
import { exportedSymbols } from './exported-symbols.js';
import { MAX_CONFIG_FILE_BYTES } from '../system/bounded-file-read.js';

export type ProbeRepositoryOptions = {
  /** The most files surveyed. Default 5000. */
  readonly maxFiles?: number;
  /** The most files whose exports are read. Default 40. */
  readonly maxSymbolFiles?: number;
  /** Files larger than this are not parsed for symbols. Default 256 KiB. */
  readonly maxSymbolFileBytes?: number;
};

const SKIPPED = new Set([
  'node_modules',
  '.git',
  'dist',
  'build',
  'target',
  'vendor',
  '.venv',
  '__pycache__',
  'coverage',
  '.next',
]);

const LANGUAGES: Readonly<Record<string, string>> = {
  '.ts': 'TypeScript',
  '.tsx': 'TypeScript',
  '.mts': 'TypeScript',
  '.cts': 'TypeScript',
  '.js': 'JavaScript',
  '.jsx': 'JavaScript',
  '.mjs': 'JavaScript',
  '.cjs': 'JavaScript',
  '.py': 'Python',
  '.go': 'Go',
  '.rs': 'Rust',
  '.java': 'Java',
  '.kt': 'Kotlin',
  '.rb': 'Ruby',
  '.c': 'C',
  '.h': 'C',
  '.cc': 'C++',
  '.cpp': 'C++',
  '.cs': 'C#',
  '.php': 'PHP',
  '.swift': 'Swift',
  '.sh': 'Shell',
};

const LOCKFILES: readonly [string, string][] = [
  ['pnpm-lock.yaml', 'pnpm'],
  ['yarn.lock', 'yarn'],
  ['bun.lockb', 'bun'],
  ['package-lock.json', 'npm'],
  ['poetry.lock', 'poetry'],
  ['uv.lock', 'uv'],
  ['Pipfile.lock', 'pipenv'],
  ['Cargo.lock', 'cargo'],
  ['go.sum', 'go modules'],
];

const SYMBOL_EXTENSIONS = new Set(['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs']);

/**
 * The RepositoryKnowledgeRetriever's probe: one bounded walk of the workspace (symbolic links
 * not followed, dependency and build folders skipped) for the file tree, languages, package
 * manager, scripts and test commands, entry points and the exported symbols of the entry points
 * and the first source files. Deterministic for a given tree: entries are visited sorted.
 */
export function probeRepository(
  workspace: string,
  options: ProbeRepositoryOptions = {},
): RepositoryKnowledge {
  const maxFiles = options.maxFiles ?? 5000;
  const files: string[] = [];
  let truncated = false;
  const topLevel = new Map<string, number>();
  const walk = (dir: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (files.length >= maxFiles) {
        truncated = true;
        return;
      }
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED.has(entry.name)) walk(path);
      } else if (entry.isFile()) {
        const rel = relative(workspace, path);
        files.push(rel);
        const top = rel.includes('/') ? `${rel.split('/')[0]}/` : rel;
        topLevel.set(top, (topLevel.get(top) ?? 0) + 1);
      }
    }
  };
  walk(workspace);

  const languageCounts = new Map<string, number>();
  for (const file of files) {
    const language = LANGUAGES[extname(file)];
    if (language !== undefined)
      languageCounts.set(language, (languageCounts.get(language) ?? 0) + 1);
  }
  const languages = [...languageCounts]
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
    .map(([language, count]) => ({ language, files: count }));

  const packageJson = readJson(join(workspace, 'package.json'));
  const scripts: Record<string, string> = {};
  const rawScripts = packageJson?.scripts;
  if (typeof rawScripts === 'object' && rawScripts !== null)
    for (const [name, command] of Object.entries(rawScripts).slice(0, 40))
      if (typeof command === 'string') scripts[name] = command;
  const packageManager =
    LOCKFILES.find(([file]) => existsSync(join(workspace, file)))?.[1] ??
    (packageJson !== undefined
      ? 'npm'
      : existsSync(join(workspace, 'pyproject.toml'))
        ? 'pip'
        : null);
  const runner =
    packageManager === 'pnpm' || packageManager === 'yarn' || packageManager === 'bun'
      ? packageManager
      : 'npm';
  const testCommands = Object.keys(scripts)
    .filter((name) => name === 'test' || name.startsWith('test:'))
    .map((name) => (name === 'test' ? `${runner} test` : `${runner} run ${name}`));
  if (testCommands.length === 0) {
    if (existsSync(join(workspace, 'Cargo.toml'))) testCommands.push('cargo test');
    else if (existsSync(join(workspace, 'go.mod'))) testCommands.push('go test ./...');
    else if (
      existsSync(join(workspace, 'pyproject.toml')) ||
      files.some((f) => /(^|\/)test_[^/]*\.py$/.test(f))
    )
      testCommands.push('pytest');
  }

  const entryPoints = new Set<string>();
  const declared = [packageJson?.main, packageJson?.module, ...binEntries(packageJson?.bin)];
  for (const entry of declared)
    if (typeof entry === 'string') entryPoints.add(entry.replace(/^\.\//, ''));
  for (const candidate of [
    'src/index.ts',
    'src/main.ts',
    'index.ts',
    'index.js',
    'src/index.js',
    'main.py',
    'src/main.rs',
    'main.go',
    'cmd/main.go',
  ])
    if (files.includes(candidate)) entryPoints.add(candidate);

  const maxSymbolFiles = options.maxSymbolFiles ?? 40;
  const maxBytes = options.maxSymbolFileBytes ?? 256 * 1024;
  const symbolFiles = [
    ...[...entryPoints].filter((file) => files.includes(file)),
    ...files.filter((file) => !file.includes('.test.') && !file.endsWith('.d.ts')),
  ].filter(
    (file, index, all) => SYMBOL_EXTENSIONS.has(extname(file)) && all.indexOf(file) === index,
  );
  if (symbolFiles.length > maxSymbolFiles) truncated = true;
  const symbols = symbolFiles.slice(0, maxSymbolFiles).flatMap((file) => {
    const path = join(workspace, file);
    try {
      if (lstatSync(path).size > maxBytes) return [];
      const names = exportedSymbols(file, readFileSync(path, 'utf8')).slice(0, 30);
      return names.length === 0 ? [] : [{ file, names }];
    } catch {
      return [];
    }
  });

  return {
    fileCount: files.length,
    tree: [...topLevel]
      .slice(0, 40)
      .map(([name, count]) => (name.endsWith('/') ? `${name} (${count} files)` : name)),
    languages,
    packageManager,
    scripts,
    testCommands,
    entryPoints: [...entryPoints],
    symbols,
    truncated: truncated || topLevel.size > 40,
  };
}

function readJson(path: string): Record<string, unknown> | undefined {
  try {
    // A repository's file: a special one or one past the bound is not read (as the checks' files).
    const info = lstatSync(path);
    if (!info.isFile() || info.size > MAX_CONFIG_FILE_BYTES) return undefined;
    const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return typeof value === 'object' && value !== null
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function binEntries(bin: unknown): unknown[] {
  if (typeof bin === 'string') return [bin];
  if (typeof bin === 'object' && bin !== null) return Object.values(bin);
  return [];
}

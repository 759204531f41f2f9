import { MAX_CONFIG_FILE_BYTES, readBoundedFile } from '../system/bounded-file-read.js';
import { join } from 'node:path';
import type { DetectedChecks, ProjectCheckDetector } from '../../core/kernel/index.js';
import type { ProjectCheck } from '../../core/validation/project-check.js';

type Problem = { file: string; message: string };

/** The package.json scripts that are checks, by the name the check gets. */
const PACKAGE_SCRIPTS = ['test', 'lint', 'typecheck'] as const;

// `npm init` writes this placeholder; it is no test.
const NPM_PLACEHOLDER = /no test specified/;

/**
 * Reads a workspace's project files for its checks: package.json scripts `test`, `lint`,
 * `typecheck` (run with the package manager its lock file names), pytest (pyproject.toml with a
 * `[tool.pytest…]` section or a pytest dependency, or pytest.ini), `go test ./...` (go.mod),
 * `cargo test` (Cargo.toml) and a Makefile's `test` target. Only the workspace root is read;
 * a file that is there but unreadable is a problem, never a crash.
 */
export function createDiskProjectCheckDetector(): ProjectCheckDetector {
  return {
    async detect(workspaceRoot) {
      const checks: ProjectCheck[] = [];
      const problems: Problem[] = [];
      const read = async (file: string) => {
        try {
          // A repository's file: a FIFO or a huge file there must not hang or swamp the run.
          return (
            await readBoundedFile(join(workspaceRoot, file), {
              maxBytes: MAX_CONFIG_FILE_BYTES,
              what: 'the project file',
            })
          ).toString('utf8');
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code !== 'ENOENT' && code !== 'ENOTDIR')
            problems.push({ file, message: `cannot be read: ${(error as Error).message}` });
          return null;
        }
      };
      await packageChecks(read, checks, problems);
      await pythonChecks(read, checks);
      if ((await read('go.mod')) !== null)
        checks.push({ name: 'go-test', command: 'go test ./...', source: 'go.mod' });
      if ((await read('Cargo.toml')) !== null)
        checks.push({ name: 'cargo-test', command: 'cargo test', source: 'Cargo.toml' });
      for (const file of ['GNUmakefile', 'makefile', 'Makefile']) {
        const text = await read(file);
        if (text === null) continue;
        if (/^test\s*:(?!=)/m.test(text))
          checks.push({ name: 'make-test', command: 'make test', source: 'Makefile' });
        break;
      }
      return { checks, problems } satisfies DetectedChecks;
    },
  };
}

type Read = (file: string) => Promise<string | null>;

async function packageChecks(read: Read, checks: ProjectCheck[], problems: Problem[]) {
  const text = await read('package.json');
  if (text === null) return;
  let scripts: Record<string, unknown>;
  try {
    const parsed = JSON.parse(text) as { scripts?: unknown };
    scripts =
      typeof parsed.scripts === 'object' && parsed.scripts !== null
        ? (parsed.scripts as Record<string, unknown>)
        : {};
  } catch (error) {
    problems.push({
      file: 'package.json',
      message: `is not valid JSON: ${(error as Error).message}`,
    });
    return;
  }
  const runner =
    (await read('pnpm-lock.yaml')) !== null
      ? 'pnpm run'
      : (await read('yarn.lock')) !== null
        ? 'yarn run'
        : 'npm run';
  for (const name of PACKAGE_SCRIPTS) {
    const script = scripts[name];
    if (typeof script !== 'string' || script.trim() === '' || NPM_PLACEHOLDER.test(script))
      continue;
    const command = name === 'test' && runner === 'npm run' ? 'npm test' : `${runner} ${name}`;
    checks.push({ name, command, source: 'package.json' });
  }
}

async function pythonChecks(read: Read, checks: ProjectCheck[]) {
  const pyproject = await read('pyproject.toml');
  if (pyproject !== null && /^\[tool\.pytest|["'\s]pytest\b/m.test(pyproject)) {
    checks.push({ name: 'pytest', command: 'python -m pytest', source: 'pyproject.toml' });
    return;
  }
  if ((await read('pytest.ini')) !== null)
    checks.push({ name: 'pytest', command: 'python -m pytest', source: 'pytest.ini' });
}

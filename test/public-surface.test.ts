import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The library's entries (`package.json` exports): each one exists, stays small enough to read,
 * and the root entry loads no database driver, server or model SDK, so `import { decide } from
 * 'correx'` costs what the decider costs.
 */
const root = join(import.meta.dirname, '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  exports: Record<string, { import: string; types: string }>;
};

/** `./dist/providers.js` → `src/providers.ts` (tsconfig.build.json maps src to dist). */
const sourceOf = (target: string): string =>
  join(root, target.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts'));

const entries = Object.entries(manifest.exports).map(([subpath, target]) => ({
  subpath,
  file: sourceOf(target.import),
}));

const HEAVY_PACKAGES = ['pg', 'better-sqlite3', 'fastify', 'ai', 'node-llama-cpp'];

function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
}

/**
 * Every module a file loads at run time, followed through relative imports: `import type` and
 * `export type` are erased, everything else (a dynamic `import()` too) counts.
 */
function runtimePackagesReachedFrom(entry: string): Map<string, string> {
  const reached = new Map<string, string>();
  const seen = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2023);
    const specifiers: string[] = [];
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly)
        specifiers.push((node.moduleSpecifier as ts.StringLiteral).text);
      else if (ts.isExportDeclaration(node) && !node.isTypeOnly && node.moduleSpecifier)
        specifiers.push((node.moduleSpecifier as ts.StringLiteral).text);
      else if (
        ts.isCallExpression(node) &&
        node.expression.kind === ts.SyntaxKind.ImportKeyword &&
        node.arguments[0] !== undefined &&
        ts.isStringLiteral(node.arguments[0])
      )
        specifiers.push(node.arguments[0].text);
      ts.forEachChild(node, visit);
    };
    visit(source);
    for (const specifier of specifiers) {
      if (specifier.startsWith('.')) {
        pending.push(resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
      } else if (!specifier.startsWith('node:')) {
        const name = packageOf(specifier);
        if (!reached.has(name)) reached.set(name, file.slice(root.length + 1));
      }
    }
  }
  return reached;
}

/** The names (values and types) each entry exports, from one program over all of them. */
function exportedNames(files: readonly string[]): Map<string, string[]> {
  const program = ts.createProgram([...files], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2023,
    noEmit: true,
    skipLibCheck: true,
  });
  const checker = program.getTypeChecker();
  return new Map(
    files.map((file) => {
      const symbol = checker.getSymbolAtLocation(program.getSourceFile(file)!)!;
      return [file, checker.getExportsOfModule(symbol).map((exported) => exported.name)];
    }),
  );
}

describe('the public surface', () => {
  it('offers the root and one entry per part', () => {
    expect(entries.map((entry) => entry.subpath).sort()).toEqual(
      [
        '.',
        './postgres',
        './providers',
        './runtime',
        './server',
        './sqlite',
        './stores',
        './testing',
      ].sort(),
    );
    for (const entry of entries) expect(existsSync(entry.file), entry.file).toBe(true);
  });

  it('keeps every entry small enough to read (at most about 100 names)', () => {
    const namesOf = exportedNames(entries.map((entry) => entry.file));
    for (const entry of entries) {
      const names = namesOf.get(entry.file)!;
      expect(names.length, `${entry.subpath}: ${names.length} names`).toBeLessThanOrEqual(110);
      expect(names.length, `${entry.subpath} exports nothing`).toBeGreaterThan(0);
    }
  });

  it('loads no database driver, server framework or model SDK from the root entry', () => {
    const reached = runtimePackagesReachedFrom(entries.find((e) => e.subpath === '.')!.file);
    const heavy = [...reached.keys()].filter(
      (name) => HEAVY_PACKAGES.includes(name) || name.startsWith('@ai-sdk/'),
    );
    expect(
      heavy.map((name) => `${name} (via ${reached.get(name)})`),
      'the root entry must stay free of drivers and SDKs',
    ).toEqual([]);
  });

  it('would notice a heavy package reached from an entry (the check is not vacuous)', () => {
    const sqlite = runtimePackagesReachedFrom(entries.find((e) => e.subpath === './sqlite')!.file);
    expect(sqlite.has('better-sqlite3')).toBe(true);
    const providers = runtimePackagesReachedFrom(
      entries.find((e) => e.subpath === './providers')!.file,
    );
    expect(providers.has('ai')).toBe(true);
    const server = runtimePackagesReachedFrom(entries.find((e) => e.subpath === './server')!.file);
    expect(server.has('fastify')).toBe(true);
  });
});

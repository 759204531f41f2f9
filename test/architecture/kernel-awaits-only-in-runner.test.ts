import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The kernel's runner (src/core/kernel/runner/) is the async shell that performs effects through
 * ports; everything else in the kernel decides, folds or reads, synchronously. dependency-cruiser
 * sees imports, not syntax, so this scans the kernel's sources for what waits: `await`, an
 * `async` function, a `for await`, or a `.then(` chain.
 */
const root = join(import.meta.dirname, '..', '..');
const kernel = join(root, 'src', 'core', 'kernel');
const runner = join(kernel, 'runner');

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourcesUnder(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Each place in `text` that waits, as `line: what`. */
function waitsIn(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const at = (node: ts.Node, what: string) =>
    found.push(`${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${what}`);
  const visit = (node: ts.Node): void => {
    if (ts.isAwaitExpression(node)) at(node, 'await');
    else if (ts.isForOfStatement(node) && node.awaitModifier !== undefined) at(node, 'for await');
    else if (
      ts.canHaveModifiers(node) &&
      ts.getModifiers(node)?.some((m) => m.kind === ts.SyntaxKind.AsyncKeyword)
    )
      at(node, 'async');
    else if (
      ts.isPropertyAccessExpression(node) &&
      node.name.text === 'then' &&
      ts.isCallExpression(node.parent)
    )
      at(node, '.then(');
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('only the kernel runner awaits', () => {
  it('finds every form of waiting it looks for', () => {
    const text = [
      'export async function a(): Promise<void> { await b(); }',
      'const c = async () => 1;',
      'async function* d() { for await (const x of e()) yield x; }',
      'f().then((x) => x);',
    ].join('\n');
    expect(waitsIn('fixture.ts', text).map((line) => line.split(': ')[1])).toEqual([
      'async',
      'await',
      'async',
      'async',
      'for await',
      '.then(',
    ]);
    // The step kind named 'await' is data, not waiting.
    expect(waitsIn('step.ts', "const s = { kind: 'await' as const };")).toEqual([]);
  });

  it('no kernel module outside runner/ awaits, is async or chains .then', () => {
    const offenders = sourcesUnder(kernel)
      .filter((path) => !path.startsWith(runner + '/'))
      .flatMap((path) =>
        waitsIn(path, readFileSync(path, 'utf8')).map(
          (where) => `${relative(root, path)}:${where}`,
        ),
      );
    expect(offenders).toEqual([]);
  });

  it('the runner does await (the scan reads the files it should)', () => {
    const waits = sourcesUnder(runner).flatMap((path) => waitsIn(path, readFileSync(path, 'utf8')));
    expect(waits.length).toBeGreaterThan(0);
  });
});

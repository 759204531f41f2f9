import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderRepositoryKnowledge } from '../../core/context/repository-knowledge.js';
import { probeRepository } from './probe-repository.js';

let workspace: string;
beforeEach(() => {
  workspace = realpathSync(mkdtempSync(join(tmpdir(), 'correx-knowledge-')));
});
afterEach(() => rmSync(workspace, { recursive: true, force: true }));

const write = (path: string, text: string) => {
  mkdirSync(join(workspace, path, '..'), { recursive: true });
  writeFileSync(join(workspace, path), text);
};

describe('probeRepository', () => {
  it('surveys a TypeScript project: tree, languages, package manager, scripts, entry points, symbols', () => {
    write(
      'package.json',
      JSON.stringify({
        main: './dist/index.js',
        scripts: { build: 'tsc', test: 'vitest run', 'test:e2e': 'playwright test' },
      }),
    );
    write('pnpm-lock.yaml', 'lockfileVersion: 9\n');
    write(
      'src/index.ts',
      "export function parse(text: string) { return text; }\nexport class Store {}\nexport type Id = string;\nexport { helper as assist } from './helper.js';\n",
    );
    write('src/helper.ts', 'export const helper = 1;\nconst hidden = 2;\n');
    write('scripts/run.py', 'print(1)\n');
    write('node_modules/dep/index.js', 'module.exports = 1;\n');
    symlinkSync('/etc', join(workspace, 'etc-link'));
    const knowledge = probeRepository(workspace);
    expect(knowledge).toMatchObject({
      fileCount: 5,
      packageManager: 'pnpm',
      scripts: { build: 'tsc', test: 'vitest run' },
      testCommands: ['pnpm test', 'pnpm run test:e2e'],
      entryPoints: ['dist/index.js', 'src/index.ts'],
      truncated: false,
    });
    expect(knowledge.languages).toEqual([
      { language: 'TypeScript', files: 2 },
      { language: 'Python', files: 1 },
    ]);
    expect(knowledge.tree).toEqual([
      'package.json',
      'pnpm-lock.yaml',
      'scripts/ (1 files)',
      'src/ (2 files)',
    ]);
    expect(knowledge.symbols).toEqual([
      { file: 'src/index.ts', names: ['function parse', 'class Store', 'type Id', 'assist'] },
      { file: 'src/helper.ts', names: ['const helper'] },
    ]);
    const text = renderRepositoryKnowledge(knowledge);
    expect(text).toContain('Test commands: pnpm test; pnpm run test:e2e');
    expect(text).not.toContain('node_modules');
  });

  it('stops at its bounds and says so', () => {
    for (let n = 0; n < 30; n += 1)
      write(`src/f${String(n).padStart(2, '0')}.ts`, `export const v${n} = ${n};\n`);
    const knowledge = probeRepository(workspace, { maxFiles: 10, maxSymbolFiles: 3 });
    expect(knowledge.fileCount).toBe(10);
    expect(knowledge.symbols).toHaveLength(3);
    expect(knowledge.truncated).toBe(true);
  });
});

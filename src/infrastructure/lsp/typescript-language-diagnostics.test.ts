import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { detectSandbox } from '../sandbox/sandbox-availability.js';
import {
  createTypeScriptLanguageDiagnostics,
  type ClosableLanguageDiagnostics,
} from './typescript-language-diagnostics.js';

const availability = await detectSandbox();

const made: string[] = [];
const servers: ClosableLanguageDiagnostics[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Diagnostics whose servers are stopped after the test. */
function create(
  options: Parameters<typeof createTypeScriptLanguageDiagnostics>[0],
): ClosableLanguageDiagnostics {
  const created = createTypeScriptLanguageDiagnostics(options);
  servers.push(created);
  return created;
}

function workspace(files: Record<string, string>): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'correx-lsp-')));
  made.push(dir);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

const TSCONFIG = JSON.stringify({
  compilerOptions: { strict: true, noEmit: true, target: 'es2022' },
});

describe('typescript-language-server diagnostics', () => {
  it('reports a type error in a file with its position and code, and nothing for a clean one', async () => {
    const root = workspace({
      'tsconfig.json': TSCONFIG,
      'src/greet.ts': 'export function greet(name: string): string {\n  return name.length;\n}\n',
      'src/ok.ts': "export const ok: string = 'fine';\n",
    });
    const diagnostics = create({
      homeDirectory: realpathSync(homedir()),
    });
    const run = await diagnostics.diagnose(
      { workspaceRoot: root, files: [join(root, 'src/greet.ts'), join(root, 'src/ok.ts')] },
      new AbortController().signal,
    );
    expect(run.error).toBeNull();
    expect(run.server).toMatch(/^typescript-language-server 5\./);
    expect(['pull', 'published']).toContain(run.method);
    expect(run.files).toEqual([
      {
        path: join(root, 'src/greet.ts'),
        diagnostics: [
          {
            line: 2,
            column: 3,
            severity: 'error',
            message: "Type 'number' is not assignable to type 'string'.",
            code: '2322',
          },
        ],
      },
      { path: join(root, 'src/ok.ts'), diagnostics: [] },
    ]);
  }, 60_000);

  it.runIf(availability.kind === 'bubblewrap')(
    'runs the server inside bubblewrap and gets the same diagnostics',
    async () => {
      const root = workspace({
        'tsconfig.json': TSCONFIG,
        'src/greet.ts': 'export const greet = (): string => 42;\n',
      });
      const diagnostics = create({
        homeDirectory: realpathSync(homedir()),
        sandbox: { availability },
      });
      const run = await diagnostics.diagnose(
        { workspaceRoot: root, files: [join(root, 'src/greet.ts')] },
        new AbortController().signal,
      );
      expect(run.error).toBeNull();
      expect(run.files[0]?.diagnostics).toMatchObject([
        { line: 1, severity: 'error', code: '2322' },
      ]);
    },
    60_000,
  );

  it("never runs the workspace's own TypeScript outside a sandbox (the model may have written it)", async () => {
    const outside = realpathSync(mkdtempSync(join(tmpdir(), 'correx-lsp-outside-')));
    made.push(outside);
    const marker = join(outside, 'MARKER');
    const planted = `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran');\n`;
    const root = workspace({
      'tsconfig.json': TSCONFIG,
      'src/greet.ts': 'export const greet = (): string => 42;\n',
      'node_modules/typescript/package.json': JSON.stringify({
        name: 'typescript',
        version: '5.9.3',
      }),
      'node_modules/typescript/lib/tsserver.js': planted,
      'node_modules/typescript/lib/typescript.js': planted,
    });
    const diagnostics = create({
      homeDirectory: realpathSync(homedir()),
      sandbox: { availability: { kind: 'none', reason: 'a machine without bubblewrap' } },
    });
    const run = await diagnostics.diagnose(
      { workspaceRoot: root, files: [join(root, 'src/greet.ts')] },
      new AbortController().signal,
    );
    expect(existsSync(marker)).toBe(false);
    expect(run.error).toBeNull();
    expect(run.files[0]?.diagnostics).toMatchObject([{ line: 1, severity: 'error', code: '2322' }]);
  }, 60_000);

  it('records a server that cannot answer as unavailable, with the reason', async () => {
    const root = workspace({ 'a.ts': 'export {};\n' });
    const diagnostics = create({
      homeDirectory: realpathSync(homedir()),
      timeoutMs: 1,
    });
    const run = await diagnostics.diagnose(
      { workspaceRoot: root, files: [join(root, 'a.ts')] },
      new AbortController().signal,
    );
    expect(run).toMatchObject({ method: 'unavailable', files: [] });
    expect(run.error).toMatch(/did not answer in time|no complete diagnostics/);
  }, 30_000);

  it('starts the server once per session: a later check of a changed file reuses it and sees the change', async () => {
    const root = workspace({
      'tsconfig.json': TSCONFIG,
      'src/greet.ts': "export const greet = (): string => 'hi';\n",
    });
    const lines: string[] = [];
    const diagnostics = create({
      homeDirectory: realpathSync(homedir()),
      ...(availability.kind === 'bubblewrap' ? { sandbox: { availability } } : {}),
      onProgress: (line) => lines.push(line),
    });
    const request = { workspaceRoot: root, files: [join(root, 'src/greet.ts')] };
    const first = await diagnostics.diagnose(request, new AbortController().signal);
    expect(first.error).toBeNull();
    expect(first.files[0]?.diagnostics).toEqual([]);
    // A change that leaves it clean is answered too (the server publishes no unchanged list).
    writeFileSync(join(root, 'src/greet.ts'), "export const greet = (): string => 'hello';\n");
    const clean = await diagnostics.diagnose(request, new AbortController().signal);
    expect(clean.error).toBeNull();
    expect(clean.files[0]?.diagnostics).toEqual([]);
    // The next stage's change breaks the file; the running server is told, not restarted.
    writeFileSync(join(root, 'src/greet.ts'), 'export const greet = (): string => 42;\n');
    const second = await diagnostics.diagnose(request, new AbortController().signal);
    expect(second.error).toBeNull();
    expect(second.files[0]?.diagnostics).toMatchObject([
      { line: 1, severity: 'error', code: '2322' },
    ]);
    expect(lines.filter((line) => line.includes('starting typescript-language-server'))).toEqual([
      '… language server: checking 1 file the session changed (starting typescript-language-server ' +
        /typescript-language-server (\S+)/.exec(second.server)![1] +
        ')',
    ]);
    expect(
      lines.filter((line) => line.startsWith('… language server: checking 1 file')),
    ).toHaveLength(3);
  }, 90_000);
});

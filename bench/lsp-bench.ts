import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTypeScriptLanguageDiagnostics } from '../src/infrastructure/lsp/typescript-language-diagnostics.js';
import type { SandboxSettings } from '../src/infrastructure/sandbox/confined-process.js';
import { detectSandbox } from '../src/infrastructure/sandbox/sandbox-availability.js';
import { measure, row, type BenchRow } from './bench-table.js';

/** A 50-file TypeScript project: modules importing their neighbour, one with a type error. */
function project(): { root: string; files: string[] } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'correx-lsp-bench-')));
  mkdirSync(join(root, 'src'));
  writeFileSync(
    join(root, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: 'es2022' } }),
  );
  const files: string[] = [];
  for (let index = 0; index < 50; index++) {
    const file = join(root, 'src', `module-${index}.ts`);
    const previous =
      index === 0 ? '' : `import { value${index - 1} } from './module-${index - 1}.js';\n`;
    const body =
      index === 49
        ? `export const value${index}: string = value${index - 1};\n`
        : `export const value${index}: number = ${index === 0 ? '0' : `value${index - 1} + 1`};\n`;
    writeFileSync(file, `${previous}${body}`);
    files.push(file);
  }
  return { root, files };
}

/**
 * typescript-language-server as the verify stage uses it. The baseline is one start,
 * `initialize` and the diagnostics of one file, then shutdown (what every check cost before the
 * server was kept per session); then all 50 files; then what a later check of the same session
 * costs: one changed file told to the running server; sandboxed too where bubblewrap is
 * available. Runs per minute, with the milliseconds of one run in the name.
 */
export async function runLspBench(options: { quick: boolean }): Promise<BenchRow[]> {
  const { root, files } = project();
  const home = realpathSync(homedir());
  const count = options.quick ? 1 : 3;
  const signal = new AbortController().signal;
  const plain = createTypeScriptLanguageDiagnostics({ homeDirectory: home });
  const timed = async (run: () => Promise<unknown>) => {
    const perSecond = await measure(count, run);
    return { perMinute: perSecond * 60, ms: Math.round(1000 / perSecond) };
  };
  const check = async (diagnose: typeof plain, list: string[]) => {
    const result = await diagnose.diagnose({ workspaceRoot: root, files: list }, signal);
    if (result.error !== null) throw new Error(`language server bench: ${result.error}`);
    return result;
  };
  // A fresh server per run: what each check cost when none was kept.
  const fresh = async (list: string[], sandbox?: SandboxSettings) => {
    const once = createTypeScriptLanguageDiagnostics({
      homeDirectory: home,
      ...(sandbox === undefined ? {} : { sandbox }),
    });
    try {
      return await check(once, list);
    } finally {
      await once.close();
    }
  };
  try {
    const one = await timed(() => fresh(files.slice(0, 1)));
    const baseline = row(`start + diagnostics of 1 file (${one.ms} ms)`, one.perMinute, 'runs/min');
    const all = await timed(() => fresh(files));
    await check(plain, files.slice(0, 1));
    let edits = 0;
    const again = await timed(async () => {
      // The stage changed one file; the session's server is told of it.
      writeFileSync(files[0]!, `export const value0: number = ${++edits};\n`);
      return check(plain, files.slice(0, 1));
    });
    await plain.close();
    const rows = [
      baseline,
      row(`start + diagnostics of 50 files (${all.ms} ms)`, all.perMinute, 'runs/min', baseline),
      row(
        `later check of 1 changed file, server kept (${again.ms} ms)`,
        again.perMinute,
        'runs/min',
        baseline,
      ),
    ];
    const availability = await detectSandbox();
    if (availability.kind === 'bubblewrap') {
      const boxed = await timed(() => fresh(files, { availability }));
      rows.push(
        row(
          `start in bubblewrap + diagnostics of 50 files (${boxed.ms} ms)`,
          boxed.perMinute,
          'runs/min',
          baseline,
        ),
      );
    }
    return rows;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

// A session's language-server checks, before and after the server was kept per session
// (issue #37.7): three checks of one changed file in a 50-file TypeScript project, each on a
// fresh server (`fresh`, as before) or all on one (`kept`). CPU, the servers' included:
//   /usr/bin/time -f '%U user %S sys %e wall' npx tsx bench/lsp-session-cpu.ts fresh|kept
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTypeScriptLanguageDiagnostics } from '../src/infrastructure/lsp/typescript-language-diagnostics.js';
import { detectSandbox } from '../src/infrastructure/sandbox/sandbox-availability.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'correx-lsp-cpu-')));
mkdirSync(join(root, 'src'));
writeFileSync(
  join(root, 'tsconfig.json'),
  JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: 'es2022' } }),
);
for (let index = 0; index < 50; index++)
  writeFileSync(
    join(root, 'src', `module-${index}.ts`),
    `${index === 0 ? '' : `import { value${index - 1} } from './module-${index - 1}.js';\n`}export const value${index}: number = ${index === 0 ? '0' : `value${index - 1} + 1`};\n`,
  );
const file = join(root, 'src', 'module-0.ts');
const availability = await detectSandbox();
const home = realpathSync(homedir());
const signal = new AbortController().signal;
const options = { homeDirectory: home, sandbox: { availability } };

const mode = process.argv[2] === 'kept' ? 'kept' : 'fresh';
const kept = mode === 'kept' ? createTypeScriptLanguageDiagnostics(options) : null;
const started = performance.now();
for (let edit = 1; edit <= 3; edit++) {
  writeFileSync(file, `export const value0: number = ${edit};\n`);
  const diagnostics = kept ?? createTypeScriptLanguageDiagnostics(options);
  const run = await diagnostics.diagnose({ workspaceRoot: root, files: [file] }, signal);
  if (run.error !== null) throw new Error(run.error);
  console.log(`check ${edit}: ${run.durationMs} ms`);
  if (kept === null) await diagnostics.close();
}
await kept?.close();
console.log(`${mode}: ${((performance.now() - started) / 1000).toFixed(1)} s wall for 3 checks`);
rmSync(root, { recursive: true, force: true });

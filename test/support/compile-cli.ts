import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';

/**
 * The CLI the tests run as a child process, built from the sources once per test run, twice:
 *
 * - compiled module by module (`COMPILED_CLI`), as `dist/main/` is: the build whose module
 *   layout a test can inspect (which modules a command loads) or patch (one changed module).
 *   Running `src/main/cli.ts` through tsx instead cost a child about 1.4 s more CPU, because
 *   tsx's cache lives under TMPDIR and each test gives its children a fresh TMPDIR.
 * - bundled by scripts/bundle-cli.mjs (`BUNDLED_CLI`), as `dist/cli/` is, which `bin/correx`
 *   runs: the CLI the process tests run. A child loads a few chunks instead of ~300 modules,
 *   some 0.1 to 0.3 s less CPU per process, and the suite starts a few hundred of them.
 *
 * Both sit at the depth of `src/` and `dist/` (the bundle two levels down, as `dist/cli/`), so
 * the CLI finds `package.json`, `assets/` and `dist/web/` through the same relative paths.
 */
export const COMPILED_CLI_ROOT = join(import.meta.dirname, '..', '..', '.test-cli');
export const COMPILED_CLI = join(COMPILED_CLI_ROOT, 'main', 'cli.js');
export const BUNDLED_CLI = join(COMPILED_CLI_ROOT, 'cli', 'cli.js');

/** Vitest's global setup: builds both (no type check: `npm run typecheck` does that). */
export default async function compileCli(): Promise<void> {
  const repo = join(import.meta.dirname, '..', '..');
  const src = join(repo, 'src');
  // Overwritten in place, not removed first: another test run in this checkout may be using it.
  await Promise.all([
    build({
      entryPoints: readdirSync(src, { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
        .map((file) => join(src, file)),
      outdir: COMPILED_CLI_ROOT,
      outbase: src,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      logLevel: 'error',
    }),
    promisify(execFile)(process.execPath, [
      join(repo, 'scripts', 'bundle-cli.mjs'),
      join(COMPILED_CLI_ROOT, 'cli'),
    ]),
  ]);
}

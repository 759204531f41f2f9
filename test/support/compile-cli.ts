import { build } from 'esbuild';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The CLI the tests run as a child process, compiled from the sources once per test run.
 *
 * Running `src/main/cli.ts` through tsx costs a child about 1.4 s more CPU than compiled
 * JavaScript, because tsx's cache lives under TMPDIR and each test gives its children a fresh
 * TMPDIR. The output sits at the depth of `src/` and `dist/`, so the CLI finds `package.json`,
 * `assets/` and `dist/web/` through the same relative paths.
 */
export const COMPILED_CLI_ROOT = join(import.meta.dirname, '..', '..', '.test-cli');
export const COMPILED_CLI = join(COMPILED_CLI_ROOT, 'main', 'cli.js');

/** Vitest's global setup: transpiles `src/` (no bundling, no type check: `npm run typecheck` does that). */
export default async function compileCli(): Promise<void> {
  const src = join(import.meta.dirname, '..', '..', 'src');
  // Overwritten in place, not removed first: another test run in this checkout may be using it.
  await build({
    entryPoints: readdirSync(src, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
      .map((file) => join(src, file)),
    outdir: COMPILED_CLI_ROOT,
    outbase: src,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'error',
  });
}

// Bundles the CLI (src/main/cli.ts) into dist/cli/: one module per command plus shared chunks
// instead of ~300 small modules, which is most of what a short command such as
// `correx show --summary` spent its CPU on (resolving and loading modules). Packages stay in
// node_modules. `npm run build` and `prepare` run it; `bin/correx` prefers its output.
import { build } from 'esbuild';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Bundles into `outdir`, which must lie two levels below the package root, as dist/cli does. */
export async function bundleCli(outdir = join(root, 'dist', 'cli')) {
  await build({
    entryPoints: [join(root, 'src', 'main', 'cli.ts')],
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Packages load from node_modules at run time, as they do for the unbundled build: one copy
    // of each (zod's schemas pass between correx and the SDKs that read them).
    packages: 'external',
    logLevel: 'error',
  });
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  await bundleCli(process.argv[2] === undefined ? undefined : resolve(process.argv[2]));

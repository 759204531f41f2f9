// Bundles the CLI (src/main/cli.ts) into dist/cli/: one module per command plus shared chunks
// instead of ~300 small modules, which is most of what a short command such as
// `correx show --summary` spent its CPU on (resolving and loading modules). Packages stay in
// node_modules. `npm run build` and `prepare` run it; `bin/correx` prefers its output.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Every package stays external but zod, which is bundled in: loaded from node_modules it is some
 * 90 modules (every locale among them), and loading them cost a short command such as
 * `correx sessions` more CPU than anything it does (issue #37.14; bench/cli-startup-bench.ts).
 * The SDKs that take zod schemas from correx (the MCP server's tool inputs) load their own copy
 * from node_modules; zod 4 is made for that: its schemas are recognised by their traits, not by
 * class identity, and its registry and configuration live on `globalThis`, shared by the copies.
 */
const zodInside = {
  name: 'packages-external-but-zod',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, ({ path }) =>
      path === 'zod' || path.startsWith('zod/') ? undefined : { path, external: true },
    );
    // zod's namespace carries its ~50 translations of error messages (`z.locales`), half of
    // its code. correx reads none of them: its messages are zod's default English, which zod
    // sets up from `locales/en.js` itself, and which stays.
    build.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({
      contents: 'export { default as en } from "./en.js";\n',
      loader: 'js',
    }));
  },
};

const kernelFace = join(root, 'src', 'core', 'kernel', 'index.ts');

/**
 * Outside src/core/kernel the kernel is imported through its face, `core/kernel/index.ts`
 * (a dependency-cruiser rule). esbuild's code splitting follows such an import to every module
 * the face re-exports, so each command that imports one name of it loaded the whole kernel:
 * `correx sessions` loaded 400 kB and built the policy rules, tool contracts and workflow
 * schemas of a run it never starts. The bundle (and nothing else) reads the face's re-exports
 * and points each import of it at the modules that define the names imported. A name the face
 * does not re-export by name leaves the import as written.
 */
const kernelFaceResolved = {
  name: 'kernel-face-resolved',
  setup(build) {
    const owners = new Map();
    const face = readFileSync(kernelFace, 'utf8');
    for (const [, names, from] of face.matchAll(/^export \{([^}]*)\} from '([^']+)';/gm))
      for (const specifier of names.split(',').map((name) => name.trim())) {
        if (specifier === '' || specifier.startsWith('type ')) continue;
        const [name, alias = name] = specifier.split(/\s+as\s+/);
        owners.set(alias, { name, path: join(dirname(kernelFace), from.replace(/\.js$/, '.ts')) });
      }
    const kernelDir = dirname(kernelFace);
    build.onLoad({ filter: /\.ts$/ }, ({ path }) => {
      if (path.startsWith(`${kernelDir}/`)) return undefined;
      const text = readFileSync(path, 'utf8');
      if (!text.includes('core/kernel/index.js')) return undefined;
      const contents = text.replace(
        /^import \{([^}]*)\} from '([^']*core\/kernel\/index\.js)';/gm,
        (statement, names, from) => {
          if (resolve(dirname(path), from.replace(/\.js$/, '.ts')) !== kernelFace) return statement;
          const imports = [];
          for (const specifier of names.split(',').map((name) => name.trim())) {
            if (specifier === '' || specifier.startsWith('type ')) continue;
            const [name, local = name] = specifier.split(/\s+as\s+/);
            const owner = owners.get(name);
            if (owner === undefined) return statement;
            imports.push(
              `import { ${owner.name} as ${local} } from ${JSON.stringify(owner.path)};`,
            );
          }
          return imports.join(' ');
        },
      );
      return { contents, loader: 'ts', resolveDir: dirname(path) };
    });
  },
};

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
    // Packages load from node_modules at run time, as they do for the unbundled build, except
    // zod (see `zodInside`).
    plugins: [zodInside, kernelFaceResolved],
    logLevel: 'error',
  });
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  await bundleCli(process.argv[2] === undefined ? undefined : resolve(process.argv[2]));

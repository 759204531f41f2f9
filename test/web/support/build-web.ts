import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';

const repository = join(import.meta.dirname, '..', '..', '..');

/** Builds the web page from web/ into a fresh folder, exactly as `npm run build` does into dist/web. */
export async function buildWebPage(): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), 'correx-web-'));
  // Vitest sets NODE_ENV=test, which would keep development code in the bundle.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      configFile: join(repository, 'web', 'vite.config.ts'),
      logLevel: 'silent',
      mode: 'production',
      build: { outDir, emptyOutDir: true },
    });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  return outDir;
}

export type LoadSize = {
  readonly files: { path: string; bytes: number; gzipBytes: number }[];
  readonly bytes: number;
  readonly gzipBytes: number;
};

/** What a first visit downloads: every HTML, JS and CSS file of the build, raw and gzipped. */
export function loadSize(dir: string): LoadSize {
  const files: LoadSize['files'] = [];
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(html|js|css)$/.test(name)) {
        const content = readFileSync(path);
        files.push({
          path: relative(dir, path),
          bytes: content.length,
          gzipBytes: gzipSync(content, { level: 9 }).length,
        });
      }
    }
  };
  walk(dir);
  return {
    files,
    bytes: files.reduce((sum, file) => sum + file.bytes, 0),
    gzipBytes: files.reduce((sum, file) => sum + file.gzipBytes, 0),
  };
}

import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * The web page `correx serve` serves. Built into dist/web by `npm run build`; everything it
 * needs is bundled (no CDN, nothing fetched at run time). Preact's JSX runtime through oxc.
 */
export default defineConfig({
  root,
  base: './',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
  },
  server: { proxy: { '/api': { target: 'http://127.0.0.1:7787', ws: true } } },
});

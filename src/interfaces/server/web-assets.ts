import { readFile, realpath, stat } from 'node:fs/promises';
import { extname, join, sep } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { ApiError } from './server-errors.js';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

/**
 * Serves the files of `root` (the built web UI) at `/`, read-only: no directory listings, no
 * dotfiles, nothing outside the folder even through a symlink. `/` is `index.html`.
 */
export async function registerWebAssets(app: FastifyInstance, root: string): Promise<void> {
  const realRoot = await realpath(root);
  app.get('/*', async (request, reply) => {
    const path = decodeURIComponent(request.url.split('?')[0] ?? '/');
    if (path.startsWith('/api/')) throw new ApiError(404, 'not_found', `no route ${path}`);
    const segments = path.split('/').filter((segment) => segment !== '');
    if (segments.some((segment) => segment.startsWith('.') || segment.includes('\\'))) {
      throw new ApiError(404, 'not_found', 'not found');
    }
    const file = await inside(
      realRoot,
      join(realRoot, ...(segments.length === 0 ? ['index.html'] : segments)),
    );
    if (file === null) throw new ApiError(404, 'not_found', 'not found');
    return reply
      .header('content-type', CONTENT_TYPES[extname(file)] ?? 'application/octet-stream')
      .header('x-content-type-options', 'nosniff')
      .send(await readFile(file));
  });
}

async function inside(root: string, candidate: string): Promise<string | null> {
  try {
    const real = await realpath(candidate);
    if (!real.startsWith(root + sep) || !(await stat(real)).isFile()) return null;
    return real;
  } catch {
    return null;
  }
}

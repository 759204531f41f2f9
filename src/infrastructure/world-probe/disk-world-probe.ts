import { createHash } from 'node:crypto';
import { constants, realpathSync, type Stats } from 'node:fs';
import { lstat, open, readlink, stat } from 'node:fs/promises';
import type { WorldObservation } from '../../core/toolintent/toolintent-events.js';
import type { WorldProbe } from '../../core/toolintent/world-probe.js';
import { isPathInside, normalizeAbsolute } from '../../core/tools/tool-path.js';

export type DiskWorldProbeOptions = {
  /** Files larger than this are not hashed (sha256 null); default 16 MiB. */
  readonly maxHashBytes?: number;
  /**
   * When given, only files whose real path lies under one of these roots are hashed, so a
   * probe of a file outside the workspace (before any approval to read it) records no digest.
   */
  readonly hashOnlyUnder?: readonly string[];
};

const MAX_LINK_HOPS = 40;

/**
 * The WorldProbe on disk. Resolves symlinks segment by segment itself (rather than
 * `realpath`, which fails on dangling links) so a link pointing at a not-yet-existing file
 * outside the workspace still reports where a write would land; the existing prefix is then
 * canonicalized with `realpath.native` so case-insensitive filesystems report true case.
 */
export function createDiskWorldProbe(options: DiskWorldProbeOptions = {}): WorldProbe {
  const maxHashBytes = options.maxHashBytes ?? 16 * 1024 * 1024;
  return {
    async observe(absolutePath) {
      if (!absolutePath.startsWith('/') || absolutePath.includes('\0')) {
        throw new RangeError(
          `the probe takes absolute paths without NUL, got ${JSON.stringify(absolutePath)}`,
        );
      }
      const path = normalizeAbsolute(absolutePath);
      // A path swapped while it is walked makes readlink/read fail mid-way: look once more,
      // and if it is still moving, say so in the observation instead of throwing.
      for (let attempt = 0; attempt < 2; attempt += 1) {
        try {
          return await observeOnce(path);
        } catch (error) {
          if (!isFilesystemError(error)) throw error;
        }
      }
      return {
        path,
        kind: 'other',
        realPath: path,
        linkTarget: null,
        sha256: null,
        size: null,
        mtimeMs: null,
        linkCount: null,
        changedDuringObservation: true,
      };
    },
  };

  async function observeOnce(path: string): Promise<WorldObservation> {
    const own = await lstatOrNull(path);
    const linkTarget = own?.isSymbolicLink() === true ? await readlink(path) : null;
    const resolved = await resolveSegments(path);
    const target = resolved.exists ? await statOrNull(resolved.realPath) : null;
    const kind: WorldObservation['kind'] =
      target === null
        ? 'missing'
        : target.isFile()
          ? 'file'
          : target.isDirectory()
            ? 'directory'
            : 'other';
    let sha256: string | null = null;
    const hashable =
      options.hashOnlyUnder?.some((root) => isPathInside(resolved.realPath, root)) ?? true;
    if (target !== null && target.isFile() && target.size <= maxHashBytes && hashable) {
      sha256 = await hashRegularFile(resolved.realPath, target);
    }
    return {
      path,
      kind,
      realPath: resolved.realPath,
      linkTarget,
      sha256,
      size: target === null ? null : target.size,
      mtimeMs: target === null ? null : Math.floor(target.mtimeMs),
      linkCount: target?.isFile() === true ? target.nlink : null,
    };
  }
}

function isFilesystemError(error: unknown): boolean {
  return error instanceof Error && 'code' in error && typeof error.code === 'string';
}

/**
 * Hashes the file `stat` described. Opened non-blocking and checked to be that same regular
 * file, so a FIFO swapped in after the stat cannot hang the probe.
 */
async function hashRegularFile(path: string, expected: Stats): Promise<string> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  try {
    const info = await handle.stat();
    if (!info.isFile() || info.ino !== expected.ino || info.dev !== expected.dev) {
      throw Object.assign(new Error(`${path} changed during observation`), { code: 'ECHANGED' });
    }
    return createHash('sha256')
      .update(await handle.readFile())
      .digest('hex');
  } finally {
    await handle.close();
  }
}

/** Walks `path` one segment at a time, following every symlink (dangling ones included). */
async function resolveSegments(path: string): Promise<{ realPath: string; exists: boolean }> {
  let pending = path.split('/').filter((segment) => segment !== '');
  let current = '/';
  let hops = 0;
  while (pending.length > 0) {
    const segment = pending[0]!;
    pending = pending.slice(1);
    if (segment === '.') continue;
    if (segment === '..') {
      current = normalizeAbsolute(`${current}/..`);
      continue;
    }
    const candidate = current === '/' ? `/${segment}` : `${current}/${segment}`;
    const info = await lstatOrNull(candidate);
    if (info === null) {
      return {
        realPath: normalizeAbsolute([canonical(current), segment, ...pending].join('/')),
        exists: false,
      };
    }
    if (info.isSymbolicLink()) {
      hops += 1;
      if (hops > MAX_LINK_HOPS) return { realPath: candidate, exists: false };
      const link = await readlink(candidate);
      const rest = link.split('/').filter((part) => part !== '');
      if (link.startsWith('/')) current = '/';
      pending = [...rest, ...pending];
      continue;
    }
    if (!info.isDirectory() && pending.length > 0) {
      return {
        realPath: normalizeAbsolute([canonical(candidate), ...pending].join('/')),
        exists: false,
      };
    }
    current = candidate;
  }
  return { realPath: canonical(current), exists: true };
}

function canonical(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return path;
  }
}

async function lstatOrNull(path: string) {
  try {
    return await lstat(path);
  } catch {
    return null;
  }
}

async function statOrNull(path: string) {
  try {
    return await stat(path);
  } catch {
    return null;
  }
}

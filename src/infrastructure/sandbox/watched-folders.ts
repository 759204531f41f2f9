import { lstatSync, readlinkSync } from 'node:fs';

/**
 * What a folder looked like when a cached result was built from its entries: a file, folder or
 * link created, removed, renamed or replaced in it changes its mtime and its ctime, and a
 * process cannot set a ctime back (utimes moves the ctime to now), so a folder whose stamp is
 * the same still has the entries the result was built from.
 */
export type FolderStamp = {
  readonly dev: bigint;
  readonly ino: bigint;
  readonly mtimeNs: bigint;
  readonly ctimeNs: bigint;
};

/**
 * How long after a folder's last change a result read from it is not cached: a change in the
 * same tick of the kernel's coarse clock as the reading, or within one timestamp step of a file
 * system with a coarse one (FAT keeps two seconds), could leave the stamp as it was.
 */
export const RECENT_CHANGE_MARGIN_MS = 2_000;

/** The stamp of one folder, or null when it is gone or not a folder any more. */
export function stampOf(folder: string): FolderStamp | null {
  let stat;
  try {
    stat = lstatSync(folder, { bigint: true, throwIfNoEntry: false });
  } catch {
    return null;
  }
  if (stat === undefined || !stat.isDirectory()) return null;
  return { dev: stat.dev, ino: stat.ino, mtimeNs: stat.mtimeNs, ctimeNs: stat.ctimeNs };
}

/** True while every folder still has the stamp it had. */
export function foldersUnchanged(stamps: ReadonlyMap<string, FolderStamp>): boolean {
  for (const [folder, was] of stamps) {
    const now = stampOf(folder);
    if (
      now === null ||
      now.ino !== was.ino ||
      now.dev !== was.dev ||
      now.mtimeNs !== was.mtimeNs ||
      now.ctimeNs !== was.ctimeNs
    )
      return false;
  }
  return true;
}

/** True when a folder changed less than RECENT_CHANGE_MARGIN_MS before `sinceMs`. */
export function changedRecently(stamps: ReadonlyMap<string, FolderStamp>, sinceMs: number) {
  const bound = BigInt(Math.floor(sinceMs - RECENT_CHANGE_MARGIN_MS)) * 1_000_000n;
  for (const stamp of stamps.values())
    if (stamp.ctimeNs > bound || stamp.mtimeNs > bound) return true;
  return false;
}

/** At most this many symbolic links are followed in one path (the kernel's own bound). */
const MAX_LINKS = 40;

/**
 * The real path of an absolute `path`, as realpath(3) resolves it (links followed, `..` taken
 * physically), or null where it does not exist or cannot be reached; `watch` is told every
 * folder whose entries the answer depended on, links' folders included, so that the answer
 * stays right while none of them changes (see foldersUnchanged).
 */
export function resolveWatched(path: string, watch: (folder: string) => void): string | null {
  if (!path.startsWith('/')) return null;
  let pending = path.split('/');
  let current = '/';
  let links = 0;
  while (pending.length > 0) {
    const name = pending.shift()!;
    if (name === '' || name === '.') continue;
    if (name === '..') {
      current = parentOf(current);
      continue;
    }
    watch(current);
    const next = current === '/' ? `/${name}` : `${current}/${name}`;
    let stat;
    try {
      stat = lstatSync(next, { throwIfNoEntry: false });
    } catch {
      return null;
    }
    if (stat === undefined) return null;
    if (stat.isSymbolicLink()) {
      if (++links > MAX_LINKS) return null;
      let target;
      try {
        target = readlinkSync(next);
      } catch {
        return null;
      }
      pending = [...target.split('/'), ...pending];
      if (target.startsWith('/')) current = '/';
      continue;
    }
    if (!stat.isDirectory() && pending.length > 0) return null;
    current = next;
  }
  return current;
}

/**
 * lstat of an absolute path whose last component is not followed, watching the folders its
 * answer depends on (those that resolve its parent, and the parent itself); null when absent.
 */
export function lstatWatched(path: string, watch: (folder: string) => void) {
  const cut = path.lastIndexOf('/');
  const name = path.slice(cut + 1);
  const parent = resolveWatched(cut <= 0 ? '/' : path.slice(0, cut), watch);
  if (parent === null || name === '' || name === '.' || name === '..') return null;
  watch(parent);
  try {
    return (
      lstatSync(parent === '/' ? `/${name}` : `${parent}/${name}`, { throwIfNoEntry: false }) ??
      null
    );
  } catch {
    return null;
  }
}

function parentOf(folder: string): string {
  const cut = folder.lastIndexOf('/');
  return cut <= 0 ? '/' : folder.slice(0, cut);
}

import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { changedRecently, stampOf, type FolderStamp } from './watched-folders.js';
import { lastGlobSegment, matchGlob, normalizeGlobText } from '../../core/policies/path-glob.js';

/** The most directory entries looked at; past it, deeper secrets are left to the static rules. */
export const NEVER_READABLE_SCAN_LIMIT = 50_000;

/**
 * The regular files of the workspace matching a workspace-relative never-readable glob (those
 * starting with `~/` or `/` lie outside it, where the home is hidden anyway), to be bound empty
 * inside the sandbox. Symlinks are not followed and `.git` is skipped; the scan stops after
 * NEVER_READABLE_SCAN_LIMIT entries (docs/sandbox.md states the bound).
 */
export function findNeverReadableFiles(
  workspaceRoot: string,
  patterns: readonly string[],
  limit = NEVER_READABLE_SCAN_LIMIT,
): string[] {
  const globs = patterns.filter((pattern) => !pattern.startsWith('~') && !pattern.startsWith('/'));
  if (globs.length === 0) return [];
  const key = `${workspaceRoot}\0${limit}\0${globs.join('\0')}`;
  let walk = workspaceWalks.get(key);
  if (walk === undefined) {
    const names = nameFilter(globs);
    const matches = (path: string, name: string) => {
      const candidates = names(name);
      if (candidates.length === 0) return false;
      const subject = relative(workspaceRoot, path);
      return candidates.some((glob) => matchGlob(glob, subject, { foldCase: true }));
    };
    walk = { matches, folders: new Map() };
  }
  workspaceWalks.delete(key);
  workspaceWalks.set(key, walk);
  if (workspaceWalks.size > 8) workspaceWalks.delete(workspaceWalks.keys().next().value!);
  return scanFilesReusing(workspaceRoot, limit, walk.matches, walk.folders);
}

/** One folder of a workspace walk: what its entries gave, while its stamp stays the same. */
type ScannedFolder = {
  readonly stamp: FolderStamp;
  /** False when it changed too shortly before it was read (RECENT_CHANGE_MARGIN_MS). */
  readonly settled: boolean;
  readonly entries: number;
  readonly files: readonly string[];
  readonly folders: readonly string[];
};

/** By workspace, globs and limit: the last walk's folders (a server runs a few workspaces). */
const workspaceWalks = new Map<
  string,
  {
    readonly matches: (path: string, name: string) => boolean;
    readonly folders: Map<string, ScannedFolder>;
  }
>();
let foldersRead = 0;

/** How many folders workspace walks have read so far (tests tell a reused walk by it). */
export function workspaceFoldersRead(): number {
  return foldersRead;
}

/**
 * scanFiles, reading again only the folders that changed since the last walk of the same
 * workspace: a file created, removed or renamed in a folder changes its ctime (which no process
 * can set back) and mtime, so a folder with the same stamp has the same entries and gives the
 * same matches. Each call still looks at every folder (one lstat each, instead of reading all
 * of its entries and matching each against the globs), in the same order as scanFiles, so the
 * limit cuts at the same place. A root that is not a folder of its own (a link) is walked afresh.
 */
function scanFilesReusing(
  root: string,
  limit: number,
  matches: (path: string, name: string) => boolean,
  cache: Map<string, ScannedFolder>,
): string[] {
  const found: string[] = [];
  const pending = [root];
  const visited = new Set<string>();
  let seen = 0;
  while (pending.length > 0 && seen < limit) {
    const dir = pending.pop()!;
    const stamp = stampOf(dir);
    if (stamp === null && dir === root) {
      cache.clear();
      return scanFiles(root, limit, matches);
    }
    if (stamp === null) continue; // vanished, or no folder any more
    let folder = cache.get(dir);
    if (folder === undefined || !folder.settled || !sameStamp(folder.stamp, stamp)) {
      const startedAt = Date.now();
      const read = readFolder(dir, matches);
      foldersRead += 1;
      if (read === null) {
        cache.delete(dir);
        continue; // unreadable: nothing to hide there
      }
      const settled = !changedRecently(new Map([[dir, stamp]]), startedAt);
      folder = { stamp, settled, ...read };
      cache.set(dir, folder);
    }
    visited.add(dir);
    seen += folder.entries;
    found.push(...folder.files);
    pending.push(...folder.folders);
  }
  for (const dir of cache.keys()) if (!visited.has(dir)) cache.delete(dir);
  return found.sort();
}

function readFolder(
  dir: string,
  matches: (path: string, name: string) => boolean,
): { entries: number; files: string[]; folders: string[] } | null {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return null;
  }
  const files: string[] = [];
  const folders: string[] = [];
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== '.git') folders.push(path);
    } else if (entry.isFile() && matches(path, entry.name)) {
      files.push(path);
    }
  }
  return { entries: entries.length, files, folders };
}

function sameStamp(a: FolderStamp, b: FolderStamp): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs;
}

/**
 * The patterns whose last segment a file's name matches (lastGlobSegment): only those can match
 * the file's whole path, so the full match, with its relative path, runs for almost no file.
 * The name is folded once, as matchGlob folds it, and tested against each folded last segment.
 */
function nameFilter(patterns: readonly string[]): (name: string) => readonly string[] {
  const lasts = patterns.map((pattern) => lastGlobSegment(normalizeGlobText(pattern, true)));
  const always = patterns.filter((_, index) => lasts[index] === null);
  return (name) => {
    const folded = normalizeGlobText(name, true);
    const found: string[] = [...always];
    for (const [index, last] of lasts.entries())
      if (last !== null && matchGlob(last, folded)) found.push(patterns[index]!);
    return found;
  };
}

/**
 * The regular files under `root`, a folder outside the workspace that the sandbox shows (a
 * policy grant, /etc), matching a never-readable glob wherever it lies: a relative glob
 * (`**\/*.pem`) against the path below `root`, `~/…` against the path below the home, `/…`
 * against the absolute path. Same bounds as findNeverReadableFiles.
 */
export function findNeverReadableFilesUnder(
  root: string,
  patterns: readonly string[],
  homeDirectory: string,
  limit = NEVER_READABLE_SCAN_LIMIT,
  /** Told each folder the scan read (a caller that caches the result watches them). */
  onFolder?: (folder: string) => void,
): string[] {
  if (patterns.length === 0) return [];
  const fold = { foldCase: true };
  // A file's name must match the pattern's last segment: checked first, it spares the full
  // match for almost every file (/etc holds a thousand entries).
  const names = nameFilter(patterns);
  const matchers = new Map(
    patterns.map((pattern) => {
      const full = (path: string) => {
        if (pattern.startsWith('~/')) {
          const rel = relative(homeDirectory, path);
          return !rel.startsWith('..') && matchGlob(pattern.slice(2), rel, fold);
        }
        if (pattern.startsWith('/')) return matchGlob(pattern.slice(1), path.slice(1), fold);
        return (
          matchGlob(pattern, relative(root, path), fold) || matchGlob(pattern, path.slice(1), fold)
        );
      };
      return [pattern, full] as const;
    }),
  );
  return scanFiles(
    root,
    limit,
    (path, base) => names(base).some((pattern) => matchers.get(pattern)!(path)),
    onFolder,
  );
}

function scanFiles(
  root: string,
  limit: number,
  matches: (path: string, name: string) => boolean,
  onFolder?: (folder: string) => void,
): string[] {
  const found: string[] = [];
  const pending = [root];
  let seen = 0;
  while (pending.length > 0 && seen < limit) {
    const dir = pending.pop()!;
    onFolder?.(dir);
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue; // vanished or unreadable: nothing to hide there
    }
    for (const entry of entries) {
      seen += 1;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== '.git') pending.push(path);
      } else if (entry.isFile() && matches(path, entry.name)) {
        found.push(path);
      }
    }
  }
  return found.sort();
}

import { lstatSync, readdirSync, watch, type Dirent, type FSWatcher } from 'node:fs';
import { basename, join } from 'node:path';
import { drainEvents, inotifyIsComplete, inotifyQueueLength } from './inotify-support.js';

/** A regular file's or symlink's stat key (kind, inode, size, mtime and ctime in ns) and mode. */
export type TreeEntry = { readonly key: string; readonly mode: number; readonly links: number };
/** One path whose entry differs from what the tree last knew (`undefined`: absent). */
export type TreeChange = {
  readonly path: string;
  readonly was: TreeEntry | undefined;
  readonly is: TreeEntry | undefined;
};
export type TreeSync = { readonly changes: TreeChange[]; readonly complete: boolean };

/** Keeps one workspace's file entries current; `sync` brings them up to date with the disk. */
export type WatchedTree = {
  sync(): Promise<TreeSync>;
  close(): void;
};

/**
 * Directories not compared: git's own store (its objects are git's to keep) and dependency
 * trees (re-created by their package manager; hashing them would dominate every first call).
 */
const SKIPPED = new Set(['.git', 'node_modules']);
/** Past this many watched directories the tree stops watching and walks instead. */
export const MAX_WATCHED_DIRECTORIES = 50_000;

type Directory = {
  readonly ino: bigint;
  readonly watcher: FSWatcher | null;
  files: Set<string>;
  subdirectories: Set<string>;
};

/**
 * The stat walk, narrowed by inotify (issue #17). The first `sync` walks the whole tree,
 * putting a watch on each directory *before* reading it, so nothing that changes after the
 * read goes unseen. Later syncs first let the event loop read every queued event (two turns
 * through `setImmediate`, so a poll phase runs after the caller's last write), then re-read
 * only the directories that had an event, re-stat every file with more than one link (a write
 * through another link notifies only that link's directory) and walk new directories the same
 * way (watch, then read). It falls back to a whole walk whenever the events cannot be
 * trusted:
 * - Node does not report inotify's queue overflow, but the queue holds `max_queued_events`
 *   entries and every one of them is delivered before the overflow: with the queue empty at
 *   the previous sync (it was drained), an overflow means at least that many events arrived
 *   since. So a sync that counted half that many walks the whole tree.
 * - a watch could not be added (the user's `max_user_watches`, ENOSPC), a watcher reported an
 *   error, the root was replaced, or the tree passed MAX_WATCHED_DIRECTORIES or `limit`
 *   entries: watching stops and every sync walks (a walk stops at `limit`, `complete: false`).
 * - watching only happens on Linux and on a local file system (ext4, xfs, btrfs, tmpfs,
 *   overlayfs, zfs, f2fs): elsewhere (macOS's FSEvents delivers late; NFS, 9p, virtiofs and
 *   FUSE do not report changes made on the other side) every sync walks.
 * The bound that remains: inotify does not see a write made only through a shared memory
 * mapping (mmap) to a file nothing else in its directory touched; such a change is seen by
 * the next whole walk.
 */
export function createWatchedTree(root: string, options: { readonly limit: number }): WatchedTree {
  const overflowSuspect = Math.floor(inotifyQueueLength() / 2);
  const files = new Map<string, TreeEntry>();
  const multiLinked = new Set<string>();
  let directories = new Map<string, Directory>();
  /** Directories with events since the last sync, each with the names created, deleted or moved in it. */
  let dirty = new Map<string, Set<string>>();
  let events = 0;
  let watching = inotifyIsComplete(root);
  let trusted = false;
  let complete = true;

  const noteEvent = (directory: string) => (kind: string, name: string | null) => {
    events++;
    const names = dirty.get(directory) ?? new Set<string>();
    dirty.set(directory, names);
    if (name === null)
      trusted = false; // a name the event could not carry: only a walk knows
    else if (kind === 'rename') names.add(name);
  };
  const stopWatching = () => {
    watching = false;
    trusted = false;
    for (const directory of directories.values()) directory.watcher?.close();
  };
  /** null: the directory is gone; throws nothing, but stops watching on any other failure. */
  const watchDirectory = (path: string): FSWatcher | null => {
    if (!watching) return null;
    try {
      const watcher = watch(path, { persistent: false }, noteEvent(path));
      watcher.on('error', () => {
        trusted = false;
      });
      return watcher;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') stopWatching();
      return null;
    }
  };
  const setEntry = (path: string, is: TreeEntry | undefined, changes: TreeChange[]) => {
    const was = files.get(path);
    if (was?.key === is?.key && was?.mode === is?.mode) return;
    changes.push({ path, was, is });
    if (is === undefined) files.delete(path);
    else files.set(path, is);
    if (is !== undefined && is.links > 1) multiLinked.add(path);
    else multiLinked.delete(path);
  };
  const restat = (path: string, changes: TreeChange[]) => {
    const entry = entryOf(path);
    // A file that became a directory is its parent's event to handle; until then it is absent.
    setEntry(path, entry === 'directory' ? undefined : entry, changes);
  };
  const forget = (path: string, changes: TreeChange[]) => {
    const directory = directories.get(path);
    if (directory === undefined) return;
    directory.watcher?.close();
    directories.delete(path);
    for (const file of directory.files) setEntry(file, undefined, changes);
    for (const subdirectory of directory.subdirectories) forget(subdirectory, changes);
  };
  /** Watches then reads `path` and everything under it (a directory new to the tree). */
  const adopt = (path: string, ino: bigint, changes: TreeChange[]) => {
    const watcher = watchDirectory(path);
    const directory: Directory = { ino, watcher, files: new Set(), subdirectories: new Set() };
    directories.set(path, directory);
    read(path, directory, new Set(), changes);
  };
  /**
   * Re-reads one directory's listing: new, changed and vanished children. A subdirectory
   * whose name was created, deleted or moved here is adopted afresh even when its inode
   * number is the same (file systems reuse them at once), so a watch never outlives its
   * directory unnoticed.
   */
  const read = (
    path: string,
    directory: Directory,
    renamed: ReadonlySet<string>,
    changes: TreeChange[],
  ) => {
    let listing: Dirent[];
    try {
      listing = readdirSync(path, { withFileTypes: true });
    } catch {
      listing = []; // removed while we looked, or unreadable: its files count as absent
    }
    const seenFiles = new Set<string>();
    const seenDirectories = new Set<string>();
    for (const child of listing) {
      const childPath = join(path, child.name);
      if (child.isDirectory()) {
        if (SKIPPED.has(child.name)) continue;
        const ino = inodeOf(childPath);
        if (ino === null) continue;
        seenDirectories.add(childPath);
        const known = directories.get(childPath);
        if (
          known !== undefined &&
          known.ino === ino &&
          !renamed.has(child.name) &&
          (known.watcher !== null || !watching)
        )
          continue;
        forget(childPath, changes); // replaced, or its watch was lost: adopt it afresh
        adopt(childPath, ino, changes);
      } else if (child.isFile() || child.isSymbolicLink()) {
        seenFiles.add(childPath);
        restat(childPath, changes);
      }
    }
    for (const file of directory.files)
      if (!seenFiles.has(file)) setEntry(file, undefined, changes);
    for (const subdirectory of directory.subdirectories)
      if (!seenDirectories.has(subdirectory)) forget(subdirectory, changes);
    directory.files = seenFiles;
    directory.subdirectories = seenDirectories;
  };

  /** A whole walk against what the tree knew; re-adds watches where watching goes on. */
  const walk = (): TreeSync => {
    const changes: TreeChange[] = [];
    const old = directories;
    directories = new Map();
    dirty = new Map();
    const seen = new Set<string>();
    let count = 0;
    complete = true;
    const pending: string[] = [root];
    while (pending.length > 0) {
      const path = pending.pop()!;
      const ino = inodeOf(path);
      if (ino === null) continue;
      // Always a fresh watch: an old one may belong to a directory since replaced under the same inode number.
      const watcher = watchDirectory(path);
      const directory: Directory = { ino, watcher, files: new Set(), subdirectories: new Set() };
      directories.set(path, directory);
      let listing;
      try {
        listing = readdirSync(path, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const child of listing) {
        if (++count > options.limit) {
          complete = false;
          break;
        }
        const childPath = join(path, child.name);
        if (child.isDirectory()) {
          if (SKIPPED.has(child.name)) continue;
          directory.subdirectories.add(childPath);
          pending.push(childPath);
        } else if (child.isFile() || child.isSymbolicLink()) {
          directory.files.add(childPath);
          seen.add(childPath);
          restat(childPath, changes);
        }
      }
      if (!complete) break;
    }
    for (const directory of old.values()) directory.watcher?.close();
    for (const path of [...files.keys()]) if (!seen.has(path)) setEntry(path, undefined, changes);
    if (!complete || directories.size > MAX_WATCHED_DIRECTORIES) stopWatching();
    trusted = watching;
    return { changes, complete };
  };

  return {
    async sync() {
      await drainEvents();
      const counted = events;
      events = 0;
      const rootNow = inodeOf(root);
      if (
        !trusted ||
        counted >= overflowSuspect ||
        rootNow === null ||
        rootNow !== directories.get(root)?.ino ||
        // The root's own deletion or move is reported under its name (a child of that name looks the same).
        dirty.get(root)?.has(basename(root)) === true
      )
        return walk();
      const changes: TreeChange[] = [];
      // Parents first: a directory replaced or removed is handled once, from its parent.
      const toRead = [...dirty].sort(([a], [b]) => a.length - b.length);
      dirty = new Map();
      for (const [path, renamed] of toRead) {
        const directory = directories.get(path);
        if (directory === undefined) continue;
        if (inodeOf(path) !== directory.ino) {
          trusted = false; // replaced under a parent that had no event: only a walk knows
          break;
        }
        read(path, directory, renamed, changes);
      }
      for (const path of [...multiLinked]) restat(path, changes);
      if (directories.size > MAX_WATCHED_DIRECTORIES || files.size > options.limit) stopWatching();
      if (!trusted) {
        const rest = walk();
        return { changes: [...changes, ...rest.changes], complete: rest.complete };
      }
      return { changes, complete };
    },
    close() {
      stopWatching();
    },
  };
}

function inodeOf(path: string): bigint | null {
  try {
    const stat = lstatSync(path, { bigint: true });
    return stat.isDirectory() ? stat.ino : null;
  } catch {
    return null;
  }
}

function entryOf(path: string): TreeEntry | 'directory' | undefined {
  let stat;
  try {
    stat = lstatSync(path, { bigint: true });
  } catch {
    return undefined;
  }
  if (stat.isDirectory()) return 'directory';
  if (!stat.isFile() && !stat.isSymbolicLink()) return undefined;
  const kind = stat.isFile() ? 'f' : 'l';
  return {
    key: `${kind}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`,
    mode: Number(stat.mode & 0o7777n),
    links: Number(stat.nlink),
  };
}

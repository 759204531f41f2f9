import { createHash } from 'node:crypto';
import { closeSync, lstatSync, openSync, readFileSync, readlinkSync, readSync } from 'node:fs';
import type { TouchedFile } from '../../core/tools/tool-events.js';
import { MAX_PREIMAGE_BYTES, type PreimageStore } from './preimage-store.js';
import { createWatchedTree, type TreeEntry, type WatchedTree } from './watched-tree.js';

/** The most entries one walk looks at; past it the record says it is incomplete. */
export const CHANGE_SCAN_LIMIT = 200_000;
/** Workspaces watched at once by one recorder; the least recently used one is let go. */
const MAX_WATCHED_ROOTS = 16;

/** Where the change journal stood when a command started, and whether that view was whole. */
export type ChangeBaseline = {
  readonly root: string;
  readonly position: number;
  readonly complete: boolean;
};

/** What a command changed in the workspace, and whether the comparison saw the whole tree. */
export type WorkspaceChanges = {
  readonly files: TouchedFile[];
  readonly complete: boolean;
};

export type ChangeRecorder = {
  /** Before the command: brings the workspace's entries up to date (hashing what changed). */
  before(root: string): Promise<ChangeBaseline>;
  /** After it: the same, then everything that changed since `before`, one record per file. */
  after(baseline: ChangeBaseline): Promise<WorkspaceChanges>;
  /** Stops watching every workspace. */
  close(): void;
};

type JournalEntry = {
  readonly root: string;
  readonly path: string;
  readonly before: string | null;
  readonly after: string | null;
  readonly modeBefore: number | null;
  readonly modeAfter: number | null;
  readonly present: boolean;
};

/**
 * Change records for exec (issue #17). Each workspace is a WatchedTree: a stat walk (inode,
 * size, mtime and ctime in nanoseconds, mode) narrowed by inotify to the directories that had
 * events, with a whole walk whenever the events cannot be trusted. Content is hashed only when
 * a file's stat key changed; hashes are remembered by key, so only the first command on a
 * workspace hashes it all. Every difference a sync finds goes into a journal; a command's
 * record is the journal between its `before` and its `after`, folded per file (first before,
 * last after), so two commands running at once each see everything that changed while they
 * ran, as a pair of whole walks would. A file changed and restored to its old bytes and mode
 * is no change. `.git` and `node_modules` are not compared.
 */
export function createChangeRecorder(
  options: {
    readonly limit?: number;
    /** Where the bytes of files are kept before a command may change them (pre-images). */
    readonly preimages?: PreimageStore;
  } = {},
): ChangeRecorder {
  const limit = options.limit ?? CHANGE_SCAN_LIMIT;
  const trees = new Map<string, WatchedTree>();
  const hashes = new Map<string, { key: string; sha256: string }>();
  const journal: JournalEntry[] = [];
  let journalStart = 0; // the position of journal[0]
  const open = new Map<number, number>(); // baseline position → how many commands hold it

  const hashOf = (path: string, entry: TreeEntry): string | null => {
    const cached = hashes.get(path);
    if (cached?.key === entry.key) return cached.sha256;
    // The state a sync finds is kept too: it is the next command's pre-image and the diff's "after".
    const sha256 = hashFile(path, options.preimages);
    if (sha256 !== null) hashes.set(path, { key: entry.key, sha256 });
    return sha256;
  };
  const treeOf = (root: string): WatchedTree => {
    let tree = trees.get(root);
    if (tree !== undefined)
      trees.delete(root); // re-inserted below: most recently used last
    else tree = createWatchedTree(root, { limit });
    trees.set(root, tree);
    if (trees.size > MAX_WATCHED_ROOTS) {
      const [oldest, evicted] = trees.entries().next().value!;
      evicted.close();
      trees.delete(oldest);
    }
    return tree;
  };
  const sync = async (root: string): Promise<boolean> => {
    const result = await treeOf(root).sync();
    for (const { path, was, is } of result.changes) {
      const before = was === undefined ? null : (hashes.get(path)?.sha256 ?? null);
      const after = is === undefined ? null : hashOf(path, is);
      if (is === undefined) hashes.delete(path);
      journal.push({
        root,
        path,
        before,
        after,
        modeBefore: was?.mode ?? null,
        modeAfter: is?.mode ?? null,
        present: is !== undefined,
      });
    }
    if (open.size === 0) {
      journalStart += journal.length; // nobody will read these: only their hashes were wanted
      journal.length = 0;
    }
    return result.complete;
  };
  const release = (position: number) => {
    const holders = (open.get(position) ?? 1) - 1;
    if (holders > 0) open.set(position, holders);
    else open.delete(position);
    const oldest = Math.min(...open.keys(), journalStart + journal.length);
    journal.splice(0, oldest - journalStart);
    journalStart = oldest;
  };

  return {
    async before(root) {
      const complete = await sync(root);
      const position = journalStart + journal.length;
      open.set(position, (open.get(position) ?? 0) + 1);
      return { root, position, complete };
    },
    async after(baseline) {
      let complete: boolean;
      try {
        complete = (await sync(baseline.root)) && baseline.complete;
      } catch (error) {
        release(baseline.position);
        throw error;
      }
      const folded = new Map<string, { first: JournalEntry; last: JournalEntry }>();
      for (const entry of journal.slice(baseline.position - journalStart)) {
        if (entry.root !== baseline.root) continue;
        const seen = folded.get(entry.path);
        folded.set(entry.path, { first: seen?.first ?? entry, last: entry });
      }
      release(baseline.position);
      const files: TouchedFile[] = [];
      for (const path of [...folded.keys()].sort()) {
        const { first, last } = folded.get(path)!;
        if (first.before === last.after && first.modeBefore === last.modeAfter) continue; // changed and restored, or only touched
        files.push({
          path,
          access: last.present ? 'write' : 'delete',
          before: first.before,
          after: last.after,
          modeBefore: first.modeBefore,
          modeAfter: last.modeAfter,
        });
      }
      return { files, complete };
    },
    close() {
      for (const tree of trees.values()) tree.close();
      trees.clear();
    },
  };
}

/**
 * SHA-256 of a file's bytes (of a symlink: of its target text), or null if it vanished. With a
 * pre-image store, a regular file up to MAX_PREIMAGE_BYTES is also stored there, read once.
 */
function hashFile(path: string, preimages?: PreimageStore): string | null {
  const hash = createHash('sha256');
  try {
    const stat = lstatSync(path);
    // A symlink's "content" is where it points.
    if (stat.isSymbolicLink()) return hash.update(`symlink:${readlinkSync(path)}`).digest('hex');
    if (preimages !== undefined && stat.size <= MAX_PREIMAGE_BYTES) {
      const bytes = readFileSync(path);
      return preimages.put(bytes);
    }
    const fd = openSync(path, 'r');
    try {
      const buffer = Buffer.allocUnsafe(1 << 16);
      for (;;) {
        const read = readSync(fd, buffer, 0, buffer.length, null);
        if (read === 0) break;
        hash.update(buffer.subarray(0, read));
      }
    } finally {
      closeSync(fd);
    }
    return hash.digest('hex');
  } catch {
    return null;
  }
}

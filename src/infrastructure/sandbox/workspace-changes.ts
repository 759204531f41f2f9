import { createHash } from 'node:crypto';
import {
  closeSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  readSync,
} from 'node:fs';
import { join } from 'node:path';
import type { TouchedFile } from '../../core/tools/tool-events.js';
import { MAX_PREIMAGE_BYTES, type PreimageStore } from './preimage-store.js';

/** The most entries one walk looks at; past it the record says it is incomplete. */
export const CHANGE_SCAN_LIMIT = 200_000;
/**
 * Directories not compared: git's own store (its objects are git's to keep) and dependency
 * trees (re-created by their package manager; hashing them would dominate every first call).
 */
const SKIPPED = new Set(['.git', 'node_modules']);

type Entry = { readonly key: string; readonly mode: number };
type Snapshot = { readonly entries: Map<string, Entry>; readonly complete: boolean };

/** What the tree looked like before a command, with every file's content hash. */
export type ChangeBaseline = {
  readonly root: string;
  readonly snapshot: Snapshot;
};

/** What a command changed in the workspace, and whether the comparison saw the whole tree. */
export type WorkspaceChanges = {
  readonly files: TouchedFile[];
  readonly complete: boolean;
};

export type ChangeRecorder = {
  /** Before the command: a stat walk; files whose stat changed since last seen are hashed now. */
  before(root: string): ChangeBaseline;
  /** After it: a second stat walk; only files whose stat differs are hashed and compared. */
  after(baseline: ChangeBaseline): WorkspaceChanges;
};

/**
 * Change records for exec (issue #17): the workspace's regular files and symlinks are compared
 * before and after a command by a stat pre-filter (inode, size, mtime, ctime in nanoseconds,
 * mode); content is hashed only when that key changed. Hashes are remembered between calls by
 * key, so a warm recorder hashes only what changed since the last command — the first command
 * on a workspace hashes it all. A file changed and restored to its old bytes and mode is no
 * change. `.git` and `node_modules` are not compared; a walk stops at CHANGE_SCAN_LIMIT entries (`complete: false`).
 */
export function createChangeRecorder(
  options: {
    readonly limit?: number;
    /** Where the bytes of files are kept before a command may change them (pre-images). */
    readonly preimages?: PreimageStore;
  } = {},
): ChangeRecorder {
  const limit = options.limit ?? CHANGE_SCAN_LIMIT;
  const hashes = new Map<string, { key: string; sha256: string }>();
  const hashOf = (path: string, entry: Entry, keep = false): string | null => {
    const cached = hashes.get(path);
    if (cached?.key === entry.key) return cached.sha256;
    const sha256 = hashFile(path, keep ? options.preimages : undefined);
    if (sha256 !== null) hashes.set(path, { key: entry.key, sha256 });
    return sha256;
  };
  return {
    before(root) {
      const snapshot = snapshotTree(root, limit);
      for (const [path, entry] of snapshot.entries) hashOf(path, entry, true);
      return { root, snapshot };
    },
    after(baseline) {
      const now = snapshotTree(baseline.root, limit);
      const files: TouchedFile[] = [];
      const paths = new Set([...baseline.snapshot.entries.keys(), ...now.entries.keys()]);
      for (const path of [...paths].sort()) {
        const was = baseline.snapshot.entries.get(path);
        const is = now.entries.get(path);
        if (was !== undefined && is !== undefined && was.key === is.key) continue;
        const before = was === undefined ? null : (hashes.get(path)?.sha256 ?? null);
        // The state a command left is kept too: it is the next command's pre-image and the diff's "after".
        const after = is === undefined ? null : hashOf(path, is, true);
        if (is === undefined) hashes.delete(path);
        if (was !== undefined && is !== undefined && before === after && was.mode === is.mode)
          continue; // changed and restored, or only touched
        files.push({
          path,
          access: is === undefined ? 'delete' : 'write',
          before,
          after,
          modeBefore: was?.mode ?? null,
          modeAfter: is?.mode ?? null,
        });
      }
      return { files, complete: baseline.snapshot.complete && now.complete };
    },
  };
}

function snapshotTree(root: string, limit: number): Snapshot {
  const entries = new Map<string, Entry>();
  const pending = [root];
  let seen = 0;
  while (pending.length > 0) {
    const dir = pending.pop()!;
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue; // removed while we looked, or unreadable: its files count as absent
    }
    for (const name of names) {
      if (++seen > limit) return { entries, complete: false };
      const path = join(dir, name);
      let stat;
      try {
        stat = lstatSync(path, { bigint: true });
      } catch {
        continue;
      }
      if (stat.isDirectory()) {
        if (!SKIPPED.has(name)) pending.push(path);
      } else if (stat.isFile() || stat.isSymbolicLink()) {
        const kind = stat.isFile() ? 'f' : 'l';
        entries.set(path, {
          key: `${kind}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`,
          mode: Number(stat.mode & 0o7777n),
        });
      }
    }
  }
  return { entries, complete: true };
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

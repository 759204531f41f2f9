import { readFileSync, statfsSync } from 'node:fs';

/** What the watched tree (watched-tree.ts) relies on from Linux's inotify and Node's event loop. */

/** statfs `f_type` of the local file systems whose every change passes through this kernel. */
const LOCAL_FILE_SYSTEMS = new Set([
  0xef53, // ext2/3/4
  0x58465342, // xfs
  0x9123683e, // btrfs
  0x01021994, // tmpfs
  0x794c7630, // overlayfs
  0x2fc12fc1, // zfs
  0xf2f52010, // f2fs
]);

/** Whether inotify sees every change to the tree at `root` (see createWatchedTree). */
export function inotifyIsComplete(root: string): boolean {
  if (process.platform !== 'linux') return false;
  try {
    return LOCAL_FILE_SYSTEMS.has(statfsSync(root).type);
  } catch {
    return false;
  }
}

/** Lets the event loop run a poll phase, so every inotify event already queued is delivered. */
export function drainEvents(): Promise<void> {
  // The first turn may run in the check phase of the current iteration, before its poll.
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}

export function inotifyQueueLength(): number {
  try {
    const value = Number(readFileSync('/proc/sys/fs/inotify/max_queued_events', 'utf8').trim());
    return Number.isInteger(value) && value > 0 ? value : 16_384;
  } catch {
    return 16_384;
  }
}

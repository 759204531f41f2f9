import {
  chmodSync,
  copyFileSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NEVER_READABLE_SCAN_LIMIT } from './never-readable-files.js';

/** One `etc` folder as the sandbox shows it: a host folder to bind read-only in its place. */
export type PreparedEtcView = {
  /** The prepared folder: the allowed entries of `etc`, its secrets present but empty. */
  readonly path: string;
  /** Regular files copied (not linked): a change to one of them makes the view stale. */
  readonly copies: ReadonlyMap<string, bigint>;
};

export type EtcViewRequest = {
  readonly etc: string;
  /** Secret files (absolute, under `etc`): present in the view, empty. */
  readonly emptyFiles: readonly string[];
  /** Secret folders (absolute, under `etc`): present in the view, empty. */
  readonly emptyFolders: readonly string[];
};

const preparedViews = new Set<string>();
let cleanupRegistered = false;

/**
 * Builds a host-side copy of an `etc` folder with its secrets emptied, to be bound with one
 * `--ro-bind` instead of binding `etc` and covering each secret with a mount of its own: every
 * mount costs bwrap work on every confined call (docs/sandbox.md, Cost). Files are hard links
 * where the view can lie on `etc`'s file system (the very inode: same owner, mode and content,
 * edits in place show at once), copies otherwise; symbolic links stay links; devices, sockets
 * and FIFOs are left out, as is what this user cannot read. The view lies in a fresh 0700
 * folder (no other user can enter it) and is removed when the process exits. Null when it
 * cannot be built (no space, more than NEVER_READABLE_SCAN_LIMIT entries): the caller then binds
 * `etc` and covers its secrets one by one, as before. A view a newer one replaces stays until
 * the process exits too: a call still running may have it bound as its `/etc`.
 */
export function prepareEtcView(request: EtcViewRequest): PreparedEtcView | null {
  let parent: string | null = null;
  try {
    parent = mkdtempSync(join(viewParent(request.etc), 'correx-etc-view-'));
    const path = join(parent, 'etc');
    const copies = new Map<string, bigint>();
    const emptyFiles = new Set(request.emptyFiles);
    const emptyFolders = new Set(request.emptyFolders);
    const modes: [string, number][] = [];
    let seen = 0;
    const copyFolder = (source: string, target: string, mode: number) => {
      mkdirSync(target, { mode: 0o700 });
      modes.push([target, mode]);
      if (emptyFolders.has(source)) return;
      let entries;
      try {
        entries = readdirSync(source, { withFileTypes: true });
      } catch {
        return; // unreadable here, so unreadable through a bind as well: shown empty
      }
      for (const entry of entries) {
        if (++seen > NEVER_READABLE_SCAN_LIMIT) throw new Error('etc is too large to prepare');
        const from = join(source, entry.name);
        const to = join(target, entry.name);
        const stat = lstatSync(from, { bigint: true });
        if (entry.isDirectory()) copyFolder(from, to, Number(stat.mode & 0o7777n));
        else if (entry.isSymbolicLink()) symlinkSync(readlinkSync(from), to);
        else if (entry.isFile() && emptyFiles.has(from))
          writeFileSync(to, '', { mode: Number(stat.mode & 0o666n) });
        else if (entry.isFile()) copyFile(from, to, stat.mtimeNs, copies);
      }
    };
    copyFolder(request.etc, path, Number(statSync(request.etc).mode & 0o7777));
    // Modes last: a folder read-only on the host must still take its entries while built.
    for (const [folder, mode] of modes.reverse()) chmodSync(folder, mode);
    preparedViews.add(parent);
    registerCleanup();
    return { path, copies };
  } catch {
    if (parent !== null) removeTree(parent);
    return null;
  }
}

/** True while no copied file of the view changed on the host since it was prepared. */
export function copiesUnchanged(view: PreparedEtcView): boolean {
  for (const [file, mtime] of view.copies)
    if (statSync(file, { bigint: true, throwIfNoEntry: false })?.mtimeNs !== mtime) return false;
  return true;
}

function copyFile(from: string, to: string, mtime: bigint, copies: Map<string, bigint>): void {
  try {
    linkSync(from, to);
    return;
  } catch {
    // another file system, or a file this user may not link (protected_hardlinks)
  }
  try {
    copyFileSync(from, to);
    chmodSync(to, lstatSync(from).mode & 0o7777);
    copies.set(from, mtime);
  } catch {
    rmSync(to, { force: true }); // unreadable for this user: absent, as good as unreadable
  }
}

/** The temporary folder on `etc`'s file system when there is one (hard links), else tmpdir. */
function viewParent(etc: string): string {
  const device = statSync(etc).dev;
  const candidates = [tmpdir(), '/var/tmp'];
  return (
    candidates.find((dir) => statSync(dir, { throwIfNoEntry: false })?.dev === device) ?? tmpdir()
  );
}

function registerCleanup(): void {
  if (cleanupRegistered) return;
  cleanupRegistered = true;
  process.once('exit', () => {
    for (const parent of preparedViews) removeTree(parent);
  });
}

function removeTree(path: string): void {
  try {
    // Folders copied read-only (0555) must be writable again before their entries go.
    chmodTree(path);
    rmSync(path, { recursive: true, force: true });
  } catch {
    // best effort at exit
  }
}

function chmodTree(folder: string): void {
  chmodSync(folder, 0o700);
  for (const entry of readdirSync(folder, { withFileTypes: true }))
    if (entry.isDirectory()) chmodTree(join(folder, entry.name));
}

import { createHash } from 'node:crypto';
import { constants, realpathSync, type Stats } from 'node:fs';
import { lstat, open, unlink } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { CorrexError } from '../../core/base/correx-error.js';
import type { UndoStep } from '../../core/kernel/index.js';
import type { TouchedFile } from '../../core/tools/tool-events.js';
import { isPathInside } from '../../core/tools/tool-path.js';
import {
  openVerifiedDirectory,
  replaceAtomically,
  type FolderHolding,
  type VerifiedDirectory,
} from '../tools/verified-directory.js';
import type { PreimageStore } from './preimage-store.js';

export type RestoreResult =
  | { readonly ok: true; readonly files: TouchedFile[] }
  | {
      readonly ok: false;
      /** Files that no longer hold what correx last recorded (changed outside correx since). */
      readonly changedSince: readonly string[];
      /** Files whose bytes to restore were never kept (too large, or recorded before pre-images). */
      readonly missingPreimages: readonly string[];
      /**
       * Files whose path no longer resolves inside the workspace: a folder on the way was
       * replaced by a symlink (or a file), so writing there would land somewhere else.
       */
      readonly outsideWorkspace: readonly string[];
    };

/**
 * A path to restore stopped resolving inside the workspace between the check and the write (a
 * folder swapped for a symlink meanwhile): the restore stops there and writes nothing through it.
 */
export class RestorePathOutsideWorkspaceError extends CorrexError {
  constructor(path: string, reason: string) {
    super(
      'restore_path_outside_workspace',
      `refused to restore ${path}: it no longer resolves inside the workspace (${reason}); nothing was written through it`,
    );
  }
}

type Located =
  | { readonly kind: 'outside'; readonly reason: string }
  | { readonly kind: 'absent' }
  | { readonly kind: 'present'; readonly sha256: string | null; readonly mode: number | null }
  | { readonly kind: 'not_a_file' };

/**
 * Applies an undo plan to the disk, all or nothing: first every file is checked — it must
 * still hold the bytes the last recorded change left, lie inside the workspace, and its old
 * bytes must be stored — and only if all pass is each written back (aside, then renamed; its
 * old mode restored) or deleted. Every path is reached the way the file tools reach theirs: one
 * folder at a time from the workspace's real path, never following a symlink (a folder the
 * session changed that is now a link to elsewhere is refused, by name, never written through).
 * Returns what it changed, as change records.
 */
export async function restoreWorkspace(
  steps: readonly UndoStep[],
  options: {
    readonly workspaceRoot: string;
    readonly preimages: PreimageStore;
    readonly holding?: FolderHolding;
  },
): Promise<RestoreResult> {
  const changedSince: string[] = [];
  const missingPreimages: string[] = [];
  const outsideWorkspace: string[] = [];
  const realRoot = realRootOf(options.workspaceRoot);
  const current = new Map<string, { sha256: string | null; mode: number | null }>();
  for (const step of steps) {
    const real = realRoot === null ? null : realTarget(step.path, options.workspaceRoot, realRoot);
    const located: Located =
      real === null
        ? { kind: 'outside', reason: 'not under the workspace' }
        : await locate(real, realRoot!, options.holding);
    if (located.kind === 'outside') {
      outsideWorkspace.push(step.path);
      continue;
    }
    const now =
      located.kind === 'absent'
        ? { sha256: null, mode: null }
        : located.kind === 'present'
          ? { sha256: located.sha256, mode: located.mode }
          : null;
    if (now !== null) current.set(step.path, now);
    if (now === null || now.sha256 !== step.expected) changedSince.push(step.path);
    else if (step.restore !== null && !options.preimages.has(step.restore))
      missingPreimages.push(step.path);
  }
  if (changedSince.length > 0 || missingPreimages.length > 0 || outsideWorkspace.length > 0)
    return { ok: false, changedSince, missingPreimages, outsideWorkspace };
  const files: TouchedFile[] = [];
  for (const step of steps) {
    const before = current.get(step.path)!;
    const real = realTarget(step.path, options.workspaceRoot, realRoot!)!;
    if (step.restore === null) {
      if (before.sha256 !== null) await removeInside(step.path, real, options.holding);
    } else {
      const bytes = options.preimages.get(step.restore);
      if (bytes === null) throw new Error(`the pre-image ${step.restore} vanished while restoring`);
      await writeInside(step.path, real, bytes, step.mode, options.holding);
    }
    files.push({
      path: step.path,
      access: step.restore === null ? 'delete' : 'write',
      before: before.sha256,
      after: step.restore,
      modeBefore: before.mode,
      modeAfter: step.restore === null ? null : step.mode,
    });
  }
  return { ok: true, files };
}

function realRootOf(workspaceRoot: string): string | null {
  try {
    return realpathSync(workspaceRoot);
  } catch {
    return null;
  }
}

/** The recorded in-workspace `path` under the workspace's real path; null when not inside. */
function realTarget(path: string, workspaceRoot: string, realRoot: string): string | null {
  if (!isPathInside(path, workspaceRoot) && !isPathInside(path, realRoot)) return null;
  const base = isPathInside(path, workspaceRoot) ? workspaceRoot : realRoot;
  const inside = relative(base, path);
  if (inside === '' || inside.split(sep).some((part) => part === '..')) return null;
  return join(realRoot, inside);
}

function errorCode(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error ? String(error.code) : undefined;
}

/**
 * Where `real` stands now, found by walking its folders from `realRoot` without following a
 * link: a component that is a symlink or a file means the path leads outside (or nowhere).
 */
async function locate(
  real: string,
  realRoot: string,
  holding: FolderHolding | undefined,
): Promise<Located> {
  let walked = realRoot;
  for (const component of relative(realRoot, dirname(real))
    .split(sep)
    .filter((part) => part !== '')) {
    walked = join(walked, component);
    let info: Stats;
    try {
      info = await lstat(walked);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return { kind: 'absent' };
      throw error;
    }
    if (info.isSymbolicLink()) return { kind: 'outside', reason: `${walked} is now a symlink` };
    if (!info.isDirectory()) return { kind: 'outside', reason: `${walked} is not a folder` };
  }
  let directory: VerifiedDirectory;
  try {
    directory = await openVerifiedDirectory(dirname(real), {
      create: false,
      ...(holding === undefined ? {} : { holding }),
    });
  } catch (error) {
    if (CorrexError.isInstance(error) && error.code === 'world_changed')
      return { kind: 'outside', reason: error.message };
    throw error;
  }
  try {
    const name = directory.inside(basename(real));
    let info: Stats;
    try {
      info = await lstat(name);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return { kind: 'absent' };
      throw error;
    }
    if (!info.isFile()) return { kind: 'not_a_file' };
    const handle = await open(
      name,
      constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
    );
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) return { kind: 'not_a_file' };
      return {
        kind: 'present',
        sha256: createHash('sha256')
          .update(await handle.readFile())
          .digest('hex'),
        mode: stat.mode & 0o7777,
      };
    } finally {
      await handle.close();
    }
  } finally {
    await directory.close();
  }
}

/** Opens the folder of `real` by the verified walk; a swap found now names `shown` and stops. */
async function verifiedFolder(
  shown: string,
  real: string,
  create: boolean,
  holding: FolderHolding | undefined,
): Promise<VerifiedDirectory> {
  try {
    return await openVerifiedDirectory(dirname(real), {
      create,
      ...(holding === undefined ? {} : { holding }),
    });
  } catch (error) {
    if (CorrexError.isInstance(error) && error.code === 'world_changed')
      throw new RestorePathOutsideWorkspaceError(shown, error.message);
    throw error;
  }
}

async function removeInside(shown: string, real: string, holding: FolderHolding | undefined) {
  const directory = await verifiedFolder(shown, real, false, holding);
  try {
    // unlink(2) never follows a final symlink: only the name inside this folder goes.
    await unlink(directory.inside(basename(real)));
  } finally {
    await directory.close();
  }
}

async function writeInside(
  shown: string,
  real: string,
  bytes: Buffer,
  mode: number | null,
  holding: FolderHolding | undefined,
) {
  const directory = await verifiedFolder(shown, real, true, holding);
  try {
    // Written aside, synced and renamed inside this very folder, as every file tool writes:
    // no reader ever sees the file empty or half restored, and a symlink there is never followed.
    await replaceAtomically(directory, basename(real), bytes, mode);
  } finally {
    await directory.close();
  }
}

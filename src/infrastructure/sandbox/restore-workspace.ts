import { createHash } from 'node:crypto';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname } from 'node:path';
import type { UndoStep } from '../../core/kernel/session-changes.js';
import type { TouchedFile } from '../../core/tools/tool-events.js';
import { isPathInside } from '../../core/tools/tool-path.js';
import type { PreimageStore } from './preimage-store.js';

export type RestoreResult =
  | { readonly ok: true; readonly files: TouchedFile[] }
  | {
      readonly ok: false;
      /** Files that no longer hold what correx last recorded (changed outside correx since). */
      readonly changedSince: readonly string[];
      /** Files whose bytes to restore were never kept (too large, or recorded before pre-images). */
      readonly missingPreimages: readonly string[];
    };

/**
 * Applies an undo plan to the disk, all or nothing: first every file is checked — it must
 * still hold the bytes the last recorded change left, lie inside the workspace, and its old
 * bytes must be stored — and only if all pass is each written back (aside, then renamed; its
 * old mode restored) or deleted. Returns what it changed, as change records.
 */
export function restoreWorkspace(
  steps: readonly UndoStep[],
  options: { readonly workspaceRoot: string; readonly preimages: PreimageStore },
): RestoreResult {
  const changedSince: string[] = [];
  const missingPreimages: string[] = [];
  const current = new Map<string, { sha256: string | null; mode: number | null }>();
  for (const step of steps) {
    const now = inspect(step.path);
    if (now !== null) current.set(step.path, now);
    if (
      !isPathInside(step.path, options.workspaceRoot) ||
      now === null ||
      now.sha256 !== step.expected
    )
      changedSince.push(step.path);
    else if (step.restore !== null && !options.preimages.has(step.restore))
      missingPreimages.push(step.path);
  }
  if (changedSince.length > 0 || missingPreimages.length > 0)
    return { ok: false, changedSince, missingPreimages };
  const files: TouchedFile[] = [];
  for (const step of steps) {
    const before = current.get(step.path)!;
    if (step.restore === null) {
      if (before.sha256 !== null) unlinkSync(step.path);
    } else {
      const bytes = options.preimages.get(step.restore);
      if (bytes === null) throw new Error(`the pre-image ${step.restore} vanished while restoring`);
      mkdirSync(dirname(step.path), { recursive: true });
      const partial = `${step.path}.correx-undo.${process.pid}`;
      writeFileSync(partial, bytes, { mode: step.mode ?? 0o644 });
      if (step.mode !== null) chmodSync(partial, step.mode);
      renameSync(partial, step.path);
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

/** The file's hash and mode now (null hash: absent); null when it is not a regular file. */
function inspect(path: string): { sha256: string | null; mode: number | null } | null {
  let stat;
  try {
    stat = lstatSync(path);
  } catch {
    return { sha256: null, mode: null };
  }
  if (!stat.isFile()) return null;
  return {
    sha256: createHash('sha256').update(readFileSync(path)).digest('hex'),
    mode: stat.mode & 0o7777,
  };
}

import type { ChangeDiffDto } from '../../../src/interfaces/protocol/session-changes-dto.js';
import type { Restore } from './session-outcome.js';

/** The changes an undo took back, said once under that undo. */
export type UndoneChanges = {
  readonly restore: Restore;
  readonly changes: readonly ChangeDiffDto[];
};

/**
 * The recorded changes that still stand in the workspace, and those each undo took back. A change
 * is undone by a later undo whose restore point (`toSequence`) is before it; the undo's own
 * change record (tool `undo`) is never a standing change: it is what "undone" says.
 */
export function standingChanges(
  changes: readonly ChangeDiffDto[],
  restores: readonly Restore[],
): { standing: ChangeDiffDto[]; undone: UndoneChanges[] } {
  const undoneBy = (change: ChangeDiffDto): Restore | undefined =>
    restores.find(
      (restore) => restore.toSequence < change.sequence && change.sequence < restore.sequence,
    );
  const standing: ChangeDiffDto[] = [];
  const undone = new Map<Restore, ChangeDiffDto[]>(restores.map((restore) => [restore, []]));
  for (const change of changes) {
    if (change.tool === 'undo') continue;
    const restore = undoneBy(change);
    if (restore === undefined) standing.push(change);
    else undone.get(restore)!.push(change);
  }
  return {
    standing,
    undone: restores
      .filter((restore) => restore.files.length > 0)
      .map((restore) => ({ restore, changes: undone.get(restore)! })),
  };
}

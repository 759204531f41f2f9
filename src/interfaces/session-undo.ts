import type { CorrexEvent, CorrexEventStore } from '../core/event-catalog.js';
import { replay } from '../core/events/replay.js';
import { appendToSession, type RecordingContext, planUndo } from '../core/kernel/index.js';
import { sessionProjection } from '../core/sessions/session-projection.js';
import type { TouchedFile } from '../core/tools/tool-events.js';
import type { PreimageStore } from '../infrastructure/sandbox/preimage-store.js';
import { restoreWorkspace } from '../infrastructure/sandbox/restore-workspace.js';

export type UndoRequest = {
  readonly sessionId: string;
  /** Undo every change recorded after this event; default: all of them. */
  readonly toSequence?: number;
  /** Undo every change since the stage last started. */
  readonly stageId?: string;
  /** Who undoes, as the event records it. */
  readonly by: string;
  /** Also while the session is recorded as running (after a crash). */
  readonly force?: boolean;
};

export type UndoOutcome =
  | { readonly outcome: 'unknown_session' }
  | { readonly outcome: 'running' }
  | { readonly outcome: 'invalid'; readonly message: string }
  | { readonly outcome: 'nothing'; readonly toSequence: number }
  | {
      readonly outcome: 'refused';
      readonly changedSince: readonly string[];
      readonly missingPreimages: readonly string[];
      /** Paths that no longer resolve inside the workspace (a folder on the way is now a link). */
      readonly outsideWorkspace: readonly string[];
    }
  | {
      readonly outcome: 'restored';
      readonly toSequence: number;
      readonly files: readonly TouchedFile[];
      /** The recorded `workspace_restored`. */
      readonly event: CorrexEvent;
    };

/**
 * Undoes a session's recorded changes to a recorded point: plans from the change records,
 * restores the files from the stored pre-images all or nothing (refusing files changed outside
 * correx since), and records `workspace_restored`. The one undo `correx undo` and
 * `POST /api/sessions/:id/undo` both run, so they cannot drift.
 */
export async function undoSessionChanges(
  deps: {
    readonly store: CorrexEventStore;
    readonly recording: RecordingContext;
    /** The pre-images of the recorded changes (`<correx home>/preimages`). */
    readonly preimages: PreimageStore;
  },
  request: UndoRequest,
): Promise<UndoOutcome> {
  const { store, recording } = deps;
  const { sessionId } = request;
  if (request.toSequence !== undefined && request.stageId !== undefined)
    return { outcome: 'invalid', message: 'give at most one of a sequence or a stage to undo to' };
  const read = await store.read(sessionId);
  if (read.length === 0) return { outcome: 'unknown_session' };
  const { state } = await replay(store, sessionProjection, sessionId);
  if (state.status === 'running' && request.force !== true) return { outcome: 'running' };
  const workspace = (
    read.find((event) => event.payload.type === 'session_created')?.payload as
      { workspace?: string } | undefined
  )?.workspace;
  if (workspace === undefined)
    return { outcome: 'invalid', message: `session ${sessionId} names no workspace` };
  const plan = planUndo(read, {
    ...(request.toSequence === undefined ? {} : { toSequence: request.toSequence }),
    ...(request.stageId === undefined ? {} : { stageId: request.stageId }),
  });
  if (!plan.ok) return { outcome: 'invalid', message: plan.message };
  if (plan.steps.length === 0) return { outcome: 'nothing', toSequence: plan.toSequence };
  const result = await restoreWorkspace(plan.steps, {
    workspaceRoot: workspace,
    preimages: deps.preimages,
  });
  if (!result.ok)
    return {
      outcome: 'refused',
      changedSince: result.changedSince,
      missingPreimages: result.missingPreimages,
      outsideWorkspace: result.outsideWorkspace,
    };
  const stored = await appendToSession(recording, store, sessionId, {
    type: 'workspace_restored',
    by: request.by,
    toSequence: plan.toSequence,
    stageId: plan.stageId,
    files: result.files,
  });
  return {
    outcome: 'restored',
    toSequence: plan.toSequence,
    files: result.files,
    event: stored,
  };
}

import type { CorrexEvent } from '../../../event-catalog.js';
import type { CheckpointFile } from '../../../tools/checkpoint-events.js';

/** A file as the session's recorded changes last left it (null: absent). */
export type KnownFile = { readonly sha256: string | null; readonly mode: number | null };

export type RecordedCheckpoint = {
  readonly stageId: string;
  readonly attempt: number;
  readonly sequence: number;
  readonly files: { readonly [path: string]: KnownFile };
};

/**
 * The StageCheckpointReconciler's state (flag `stage-checkpoints`): every file a recorded
 * change touched, as its last change left it (exec change records, file tools, undo's
 * restores), the checkpoints recorded so far, and whether a redirect happened since the last
 * stage start. Folded from the events alone.
 */
export type CheckpointState = {
  readonly workspace: { readonly [path: string]: KnownFile };
  readonly checkpoints: readonly RecordedCheckpoint[];
  readonly redirectedSinceStart: boolean;
  /** A follow-up turn was asked for since the last stage start (`turn_requested`). */
  readonly turnSinceStart: boolean;
};

export const INITIAL_CHECKPOINTS: CheckpointState = {
  workspace: {},
  checkpoints: [],
  redirectedSinceStart: false,
  turnSinceStart: false,
};

export function evolveCheckpoints(state: CheckpointState, event: CorrexEvent): CheckpointState {
  const payload = event.payload;
  switch (payload.type) {
    case 'tool_receipt':
    case 'workspace_restored': {
      const files = payload.files.filter((file) => file.access !== 'read');
      if (files.length === 0) return state;
      const workspace = { ...state.workspace };
      for (const file of files)
        workspace[file.path] = { sha256: file.after, mode: file.modeAfter ?? null };
      return { ...state, workspace };
    }
    case 'stage_checkpoint_recorded':
      return {
        ...state,
        checkpoints: [
          ...state.checkpoints,
          {
            stageId: payload.stageId,
            attempt: payload.attempt,
            sequence: event.sequence,
            files: Object.fromEntries(
              payload.files.map((file) => [file.path, { sha256: file.sha256, mode: file.mode }]),
            ),
          },
        ],
      };
    case 'stage_redirected':
      return { ...state, redirectedSinceStart: true };
    case 'turn_requested':
      return { ...state, turnSinceStart: true };
    case 'stage_started':
      return state.redirectedSinceStart || state.turnSinceStart
        ? { ...state, redirectedSinceStart: false, turnSinceStart: false }
        : state;
    default:
      return state;
  }
}

type Payload = CorrexEvent['payload'];

/**
 * What the kernel records just before a stage attempt starts: its checkpoint, and, when the
 * stage ran before (a rework, a retry, a redirect back to it), what it starts from — the
 * workspace as left (the default basis), with the files changed since its last checkpoint.
 */
export function checkpointBeforeStart(
  state: CheckpointState,
  next: { readonly stageId: string; readonly attempt: number },
  throughSequence: number,
): Payload[] {
  const files: CheckpointFile[] = Object.keys(state.workspace)
    .sort()
    .map((path) => ({ path, ...state.workspace[path]! }));
  const checkpoint: Payload = {
    type: 'stage_checkpoint_recorded',
    stageId: next.stageId,
    attempt: next.attempt,
    throughSequence,
    files,
  };
  const earlier = state.checkpoints.findLast((recorded) => recorded.stageId === next.stageId);
  if (earlier === undefined) return [checkpoint];
  const changedSince = files
    .filter((file) => {
      const then = earlier.files[file.path];
      return then === undefined || then.sha256 !== file.sha256 || then.mode !== file.mode;
    })
    .map((file) => file.path);
  return [
    checkpoint,
    {
      type: 'stage_start_reconciled',
      stageId: next.stageId,
      attempt: next.attempt,
      reason: state.redirectedSinceStart
        ? 'redirect'
        : state.turnSinceStart
          ? 'turn'
          : next.attempt > 1
            ? 'retry'
            : 'rework',
      basis: 'as_left',
      checkpointSequence: earlier.sequence,
      changedSince,
    },
  ];
}

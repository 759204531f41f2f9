import type { PayloadOf } from '../../events/event-definition.js';
import type { PayloadShape, StoredEvent } from '../../events/event-envelope.js';
import type { sessionForked } from '../../sessions/fork-events.js';
import type { CheckpointFile, stageCheckpointRecorded } from '../../tools/checkpoint-events.js';
import { pathOntoFork, rebaseableRoots } from '../features/fork-paths/fork-paths.js';
import type {
  TouchedFile,
  toolCallProposed,
  toolReceipt,
  workspaceRestored,
} from '../../tools/tool-events.js';

/** One call's recorded changes to the workspace, with what ran. */
export type RecordedChange = {
  readonly sequence: number;
  readonly callId: string;
  readonly stageId: string | null;
  readonly tool: string;
  /** The command line of an exec (argv as JSON), or null for other tools. */
  readonly command: string | null;
  readonly outcome: string;
  readonly files: readonly TouchedFile[];
};

/**
 * Every recorded change to the workspace of a session, in log order: exec change records and
 * file tools' writes and deletes, from `tool_receipt` events (reads are not changes), and
 * the restores of `correx undo` (`workspace_restored`). With
 * `stageId`, only the calls proposed in that stage. Pure: reads only the events.
 */
export function recordedChanges(
  events: readonly StoredEvent<PayloadShape>[],
  options: { readonly stageId?: string } = {},
): RecordedChange[] {
  const proposals = new Map<string, PayloadOf<typeof toolCallProposed>>();
  const changes: RecordedChange[] = [];
  for (const event of events) {
    if (event.payload.type === 'session_forked') {
      const forked = event.payload as PayloadOf<typeof sessionForked>;
      // What the copied prefix changed, it changed in the parent's workspace: as this session
      // reads it, in its own (the same files, rebuilt there when it was forked).
      for (const [index, change] of changes.entries())
        changes[index] = ontoFork(change, forked.parentWorkspace, forked.workspace);
      continue;
    }
    if (event.payload.type === 'tool_call_proposed') {
      const proposal = event.payload as PayloadOf<typeof toolCallProposed>;
      proposals.set(proposal.callId, proposal);
      continue;
    }
    if (event.payload.type === 'workspace_restored') {
      const restored = event.payload as PayloadOf<typeof workspaceRestored>;
      if (options.stageId === undefined && restored.files.length > 0)
        changes.push({
          sequence: event.sequence,
          callId: `undo by ${restored.by}`,
          stageId: null,
          tool: 'undo',
          command: null,
          outcome: 'succeeded',
          files: restored.files,
        });
      continue;
    }
    if (event.payload.type !== 'tool_receipt') continue;
    const receipt = event.payload as PayloadOf<typeof toolReceipt>;
    const files = receipt.files.filter((file) => file.access !== 'read');
    const stageId = proposals.get(receipt.callId)?.stageId ?? null;
    if (files.length === 0) continue;
    if (options.stageId !== undefined && stageId !== options.stageId) continue;
    changes.push({
      sequence: event.sequence,
      callId: receipt.callId,
      stageId,
      tool: receipt.tool,
      command: receipt.tool === 'exec' ? commandOf(receipt.args) : null,
      outcome: receipt.outcome,
      files,
    });
  }
  return changes;
}

/** A change the parent recorded, with its files inside the parent's workspace moved into `to`. */
function ontoFork(change: RecordedChange, from: string, to: string): RecordedChange {
  if (!rebaseableRoots(from, to)) return change;
  return {
    ...change,
    files: change.files.map((file) => {
      const path = pathOntoFork(file.path, from, to);
      return path === null ? file : { ...file, path };
    }),
  };
}

function commandOf(args: Readonly<Record<string, unknown>>): string | null {
  if (typeof args.command === 'string') return args.command;
  return Array.isArray(args.argv) ? JSON.stringify(args.argv) : null;
}

/** One file an undo puts back: to `restore` (null: absent), expecting it to hold `expected` now. */
export type UndoStep = {
  readonly path: string;
  readonly restore: string | null;
  readonly mode: number | null;
  readonly expected: string | null;
};

export type UndoPlan =
  | {
      readonly ok: true;
      readonly toSequence: number;
      readonly stageId: string | null;
      readonly steps: readonly UndoStep[];
    }
  | { readonly ok: false; readonly message: string };

/**
 * What undoing a session back to a recorded point means, file by file, from the change records
 * alone: every change recorded after `toSequence` (or after the last checkpoint of stage
 * `stageId`, flag `stage-checkpoints`, else its last start; default: all of them) is reversed —
 * each file goes back to the bytes and mode the checkpoint names for it, or else its first
 * later change found, and must still hold what its last recorded change left. Pure.
 */
export function planUndo(
  events: readonly StoredEvent<PayloadShape>[],
  target: { readonly toSequence?: number; readonly stageId?: string } = {},
): UndoPlan {
  let toSequence = target.toSequence ?? 0;
  let checkpoint: ReadonlyMap<string, CheckpointFile> | null = null;
  const checkpoints =
    target.stageId === undefined
      ? []
      : events.filter(
          (event) =>
            event.payload.type === 'stage_checkpoint_recorded' &&
            (event.payload as PayloadOf<typeof stageCheckpointRecorded>).stageId === target.stageId,
        );
  if (checkpoints.length > 0) {
    const last = checkpoints.at(-1)!;
    toSequence = last.sequence;
    const files = (last.payload as PayloadOf<typeof stageCheckpointRecorded>).files;
    // A checkpoint of the copied prefix names the parent's workspace: read it in this one.
    const fork = events.find((event) => event.payload.type === 'session_forked');
    const forked =
      fork !== undefined && last.sequence < fork.sequence
        ? (fork.payload as PayloadOf<typeof sessionForked>)
        : null;
    checkpoint = new Map(
      files.map((file) => {
        const path =
          forked === null || !rebaseableRoots(forked.parentWorkspace, forked.workspace)
            ? null
            : pathOntoFork(file.path, forked.parentWorkspace, forked.workspace);
        return [path ?? file.path, path === null ? file : { ...file, path }];
      }),
    );
  } else if (target.stageId !== undefined) {
    const started = events.filter(
      (event) =>
        event.payload.type === 'stage_started' &&
        (event.payload as { stageId?: string }).stageId === target.stageId,
    );
    if (started.length === 0)
      return { ok: false, message: `stage ${target.stageId} never started in this session` };
    toSequence = started.at(-1)!.sequence;
  }
  const last = events.at(-1)?.sequence ?? 0;
  if (toSequence > last)
    return { ok: false, message: `the session has no event #${toSequence} (its last is #${last})` };
  const first = new Map<string, TouchedFile>();
  const latest = new Map<string, TouchedFile>();
  for (const change of recordedChanges(events)) {
    if (change.sequence <= toSequence) continue;
    for (const file of change.files) {
      if (!first.has(file.path)) first.set(file.path, file);
      latest.set(file.path, file);
    }
  }
  const steps: UndoStep[] = [];
  for (const [path, earliest] of [...first].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const now = latest.get(path)!;
    const known = checkpoint?.get(path);
    const restore = known === undefined ? earliest.before : known.sha256;
    const mode = known === undefined ? (earliest.modeBefore ?? null) : known.mode;
    if (restore === now.after && mode === (now.modeAfter ?? null)) continue;
    steps.push({ path, restore, mode, expected: now.after });
  }
  return { ok: true, toSequence, stageId: target.stageId ?? null, steps };
}

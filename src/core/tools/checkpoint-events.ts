import { z } from 'zod';
import { defineEvent } from '../events/event-definition.js';
import { Sha256HexSchema } from './tool-events.js';

/** One file as the log knows it at a checkpoint: its bytes' hash and mode (null: absent). */
export const CheckpointFileSchema = z.strictObject({
  path: z.string().min(1),
  sha256: Sha256HexSchema.nullable(),
  mode: z.number().int().min(0).max(0o7777).nullable(),
});
export type CheckpointFile = z.infer<typeof CheckpointFileSchema>;

/**
 * What the workspace looks like as a stage attempt starts (flag `stage-checkpoints`): every
 * file any recorded change of the session touched so far, as its last recorded change left
 * it, through event `throughSequence`. Derived from the log alone; files no change touched
 * are as they were when the session began.
 */
export const stageCheckpointRecorded = defineEvent({
  type: 'stage_checkpoint_recorded',
  description: 'The workspace as the log knows it, recorded at a stage boundary.',
  origin: 'decision',
  fields: () => ({
    stageId: z.string().min(1),
    attempt: z.number().int().min(1),
    throughSequence: z.number().int().min(0),
    files: z.array(CheckpointFileSchema),
  }),
});

/**
 * A stage entered again (a rework, a retry, a redirect): what it starts from. `basis` is
 * `as_left` — the workspace as the stages before left it, nothing restored (the default: a
 * rework builds on the work it is asked to fix; `correx undo --stage` goes back on request).
 * `checkpointSequence` is the stage's earlier checkpoint, `changedSince` the files whose
 * recorded state differs from it.
 */
export const stageStartReconciled = defineEvent({
  type: 'stage_start_reconciled',
  description: 'What a stage entered again starts from, against its earlier checkpoint.',
  origin: 'decision',
  fields: () => ({
    stageId: z.string().min(1),
    attempt: z.number().int().min(1),
    reason: z.enum(['rework', 'retry', 'redirect']),
    basis: z.enum(['as_left']),
    checkpointSequence: z.number().int().min(1),
    changedSince: z.array(z.string().min(1)),
  }),
});

export const checkpointEvents = [stageCheckpointRecorded, stageStartReconciled] as const;

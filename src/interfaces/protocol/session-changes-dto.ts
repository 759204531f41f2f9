import { z } from 'zod';
import { EventDtoSchema } from './event-dto.js';
import { DeciderSchema, SequenceCursorSchema } from './wire-values.js';

/*
 * What a session changed in its workspace (`GET .../diff`) and undoing it (`POST .../undo`):
 * the same reading and the same undo `correx diff` and `correx undo` run.
 */

export const SessionDiffQuerySchema = z.strictObject({
  stage: z.string().min(1).max(256).optional(),
});
export type SessionDiffQuery = z.infer<typeof SessionDiffQuerySchema>;

const Sha256OrAbsent = z.string().nullable();

export const FileDiffDtoSchema = z.strictObject({
  path: z.string(),
  change: z.enum(['created', 'modified', 'deleted']),
  /** Octal modes (`0644`, `absent`) when the call changed the mode. */
  mode: z.strictObject({ before: z.string(), after: z.string() }).nullable(),
  /** SHA-256 of the bytes before and after (null: absent). */
  before: Sha256OrAbsent,
  after: Sha256OrAbsent,
  /** Unified diff hunks (`@@ … @@`, ` `, `-`, `+` lines); empty: same bytes; null: see `note`. */
  hunks: z.array(z.string()).nullable(),
  note: z.string().nullable(),
});
export type FileDiffDto = z.infer<typeof FileDiffDtoSchema>;

export const ChangeDiffDtoSchema = z.strictObject({
  sequence: z.number().int().min(1),
  callId: z.string(),
  stageId: z.string().nullable(),
  tool: z.string(),
  outcome: z.string(),
  /** The command line of an exec, or null. */
  command: z.string().nullable(),
  files: z.array(FileDiffDtoSchema),
});
export type ChangeDiffDto = z.infer<typeof ChangeDiffDtoSchema>;

export const SessionDiffResponseSchema = z.strictObject({
  changes: z.array(ChangeDiffDtoSchema),
});
export type SessionDiffResponse = z.infer<typeof SessionDiffResponseSchema>;

/** Undo every change after event `to`, or since stage `stage` last started; default: all. */
export const UndoRequestSchema = z.strictObject({
  to: SequenceCursorSchema.optional(),
  stage: z.string().min(1).max(256).optional(),
  by: DeciderSchema.optional(),
});
export type UndoRequest = z.infer<typeof UndoRequestSchema>;

export const UndoResponseSchema = z.strictObject({
  /** `nothing`: the workspace already is at that point; nothing was recorded. */
  outcome: z.enum(['restored', 'nothing']),
  toSequence: SequenceCursorSchema,
  files: z.array(z.strictObject({ path: z.string(), access: z.enum(['read', 'write', 'delete']) })),
  /** The recorded `workspace_restored`, or null when nothing was undone. */
  event: EventDtoSchema.nullable(),
});
export type UndoResponse = z.infer<typeof UndoResponseSchema>;

/** 409 of an undo: nothing was changed, because of these files. */
export const UndoRefusedResponseSchema = z.strictObject({
  error: z.strictObject({ code: z.literal('conflict'), message: z.string() }),
  /** Files that no longer hold what correx last recorded. */
  changedOutside: z.array(z.string()),
  /** Files whose earlier bytes were never kept. */
  missingPreimages: z.array(z.string()),
  /**
   * Files whose path no longer resolves inside the workspace (a folder on the way was replaced
   * by a symlink or a file): undo never writes through it.
   */
  outsideWorkspace: z.array(z.string()),
});
export type UndoRefusedResponse = z.infer<typeof UndoRefusedResponseSchema>;

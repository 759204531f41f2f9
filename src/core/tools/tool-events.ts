import { z } from 'zod';
import { EgressDecisionSchema, SandboxProfileSchema } from '../policies/sandbox-profile.js';
import { defineEvent } from '../events/event-definition.js';

export const Sha256HexSchema = z.string().regex(/^[0-9a-f]{64}$/, 'expected a hex SHA-256');

/**
 * A model proposed a tool call. The raw argument text is kept verbatim (it may not even be
 * JSON); whether the call runs is decided by later events.
 */
export const toolCallProposed = defineEvent({
  type: 'tool_call_proposed',
  description: 'A model proposed a tool call; nothing has run yet.',
  origin: 'decision',
  fields: () => ({
    callId: z.string().min(1),
    stageId: z.string().min(1),
    tool: z.string().min(1),
    argsRaw: z.string(),
    /** Set when `argsRaw` is only the head of unreadable text: the whole text's length. */
    argsLength: z.number().int().nonnegative().optional(),
  }),
});

/**
 * A file a call touched: its real path and content hash before and after (null = absent). An
 * exec's change records (found by comparing the workspace before and after) also carry the
 * permission bits before and after (null = absent), so a chmod with no content change shows.
 */
export const TouchedFileSchema = z.strictObject({
  path: z.string().min(1),
  access: z.enum(['read', 'write', 'delete']),
  before: Sha256HexSchema.nullable(),
  after: Sha256HexSchema.nullable(),
  modeBefore: z.number().int().min(0).max(0o7777).nullable().optional(),
  modeAfter: z.number().int().min(0).max(0o7777).nullable().optional(),
});
export type TouchedFile = z.infer<typeof TouchedFileSchema>;

/**
 * How a call ended. `world_changed` means the executor's last-moment re-check found the target
 * path or its content different from what was assessed (TOCTOU), so nothing was written.
 */
export const ToolOutcomeSchema = z.enum([
  'succeeded',
  'failed',
  'timed_out',
  'aborted',
  'world_changed',
  'refused',
]);
export type ToolOutcome = z.infer<typeof ToolOutcomeSchema>;

/**
 * The executor is about to run an approved call: the durable intent, written before any effect,
 * so a crash between this and the receipt is visible on resume. Emitted by the kernel.
 */
export const toolCallStarted = defineEvent({
  type: 'tool_call_started',
  description: 'An approved tool call is about to run; targets and their pre-hashes are recorded.',
  origin: 'decision',
  fields: () => ({
    callId: z.string().min(1),
    tool: z.string().min(1),
    targets: z.array(
      z.strictObject({ path: z.string().min(1), sha256: Sha256HexSchema.nullable() }),
    ),
  }),
});

/**
 * The effect of a tool call, recorded by the effect runner after the tool's `execute` returns:
 * the arguments, how it ended, a bounded output with the digest of the full output, and every
 * file touched. Tools never change workflow state; this receipt is their only trace.
 */
export const toolReceipt = defineEvent({
  type: 'tool_receipt',
  description: 'A tool call finished (or was refused at execution); its effects are listed.',
  origin: 'effect_result',
  fields: () => ({
    callId: z.string().min(1),
    tool: z.string().min(1),
    args: z.record(z.string(), z.json()),
    outcome: ToolOutcomeSchema,
    exitCode: z.number().int().nullable(),
    /** Why the call failed or was refused, for the model and the operator. */
    error: z.string().nullable(),
    /** At most the tool's output cap, with a truncation marker when cut. */
    output: z.string(),
    outputBytes: z.number().int().min(0),
    outputSha256: Sha256HexSchema,
    truncated: z.boolean(),
    files: z.array(TouchedFileSchema),
    durationMs: z.number().int().min(0),
    /** Under which confinement the call's process ran (exec); absent for in-process tools. */
    sandbox: SandboxProfileSchema.optional(),
    /** The egress proxy's decisions for this call, when its network went through the proxy. */
    egress: z.array(EgressDecisionSchema).optional(),
    /** The real path of the program that ran (exec): argv[0] resolved on the trusted PATH. */
    executable: z.string().min(1).optional(),
  }),
});

/**
 * A person restored workspace files to a recorded point (`correx undo`) from the stored
 * pre-images of the session's change records. `files` says what the restore itself changed
 * (before: the bytes it found, after: the bytes it put back), so it is a change record too.
 * Recorded as a command: it changes no workflow state, but the model no longer knows those files.
 */
export const workspaceRestored = defineEvent({
  type: 'workspace_restored',
  description: 'Workspace files were restored to a recorded point from stored pre-images.',
  origin: 'command',
  fields: () => ({
    by: z.string().min(1),
    /** Every change recorded after this sequence was undone. */
    toSequence: z.number().int().min(0),
    /** The stage whose start the workspace was restored to, when asked by stage. */
    stageId: z.string().min(1).nullable(),
    files: z.array(TouchedFileSchema),
  }),
});

export const toolEvents = [
  toolCallProposed,
  toolCallStarted,
  toolReceipt,
  workspaceRestored,
] as const;

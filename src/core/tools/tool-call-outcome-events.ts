import { z } from 'zod';
import { defineEvent } from '../events/event-definition.js';

const sha256Field = z.string().regex(/^[0-9a-f]{64}$/);

/** Why the kernel refused a proposed call before assessing it. */
export const TOOL_CALL_REJECTIONS = [
  /** The arguments were not a JSON object, or did not match the tool's argument schema. */
  'malformed_args',
  /** No tool of that name is registered. */
  'unknown_tool',
  /** The tool exists but the running stage does not grant it. */
  'tool_not_allowed',
  /** The turn proposed more calls than the kernel runs per turn. */
  'call_limit',
  /** The model proposed a call that already failed as often as the kernel allows; the attempt ends. */
  'repeated_failure',
  /** The attempt ended (a repeated failure, a missing prerequisite) before this call of its turn ran. */
  'attempt_ended',
] as const;
export const ToolCallRejectionSchema = z.enum(TOOL_CALL_REJECTIONS);
export type ToolCallRejection = z.infer<typeof ToolCallRejectionSchema>;

/**
 * The kernel refused a proposed call before assessment: a recoverable failure the model is told
 * about. For `malformed_args` the tool's argument schema is recorded, and the next context pack
 * carries it as a `toolArgsHint`. Emitted by `decide`.
 */
export const toolCallRejected = defineEvent({
  type: 'tool_call_rejected',
  description:
    'A proposed tool call was refused before assessment (malformed, unknown, not granted).',
  origin: 'decision',
  fields: () => ({
    callId: z.string().min(1),
    stageId: z.string().min(1),
    tool: z.string().min(1),
    reason: ToolCallRejectionSchema,
    message: z.string().min(1),
    /** The JSON Schema the arguments must match; null when the tool is unknown. */
    argsSchema: z.record(z.string(), z.json()).nullable(),
  }),
});

/**
 * A runner found a call whose durable intent (`tool_call_started`) has no receipt: the process
 * that ran it is gone. Appended by the live runner when it opens such a session; `decide` then
 * probes the call's targets and classifies it.
 */
export const toolCallInterrupted = defineEvent({
  type: 'tool_call_interrupted',
  description:
    'A started tool call has no receipt: the process running it ended (crash-exact recovery).',
  origin: 'command',
  fields: () => ({ callId: z.string().min(1), tool: z.string().min(1) }),
});

export const CallClassificationSchema = z.enum(['not_applied', 'applied', 'unknown']);
export type CallClassification = z.infer<typeof CallClassificationSchema>;

/**
 * An interrupted call, classified by comparing fresh observations of its targets with the hashes
 * recorded at `tool_call_started` (and, for writes of known content, the hash the write would
 * leave). What follows: `execute` (not applied, or unknown but idempotent), `record` (applied:
 * the observed effect closes the call), `ask` (unknown and not idempotent: a human decides).
 * Emitted by `decide`.
 */
export const toolCallClassified = defineEvent({
  type: 'tool_call_classified',
  description: 'An interrupted tool call was classified as not applied, applied or unknown.',
  origin: 'decision',
  fields: () => ({
    callId: z.string().min(1),
    tool: z.string().min(1),
    classification: CallClassificationSchema,
    action: z.enum(['execute', 'record', 'ask']),
    reason: z.string().min(1),
    targets: z.array(
      z.strictObject({
        path: z.string().min(1),
        recorded: sha256Field.nullable(),
        observed: sha256Field.nullable(),
      }),
    ),
  }),
});

export const toolCallOutcomeEvents = [
  toolCallRejected,
  toolCallInterrupted,
  toolCallClassified,
] as const;

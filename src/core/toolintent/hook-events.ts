import { z } from 'zod';
import { ApprovalTierSchema } from '../approvals/approval-tier.js';
import { defineEvent } from '../events/event-definition.js';

/**
 * How one `pre_tool_use` hook ended. `answered` carries its decision; every other ending fails
 * closed (the call is blocked), because a guard that did not answer has not allowed anything.
 */
export const HookOutcomeSchema = z.enum([
  'answered',
  'crashed',
  'timed_out',
  'garbage',
  'failed_to_start',
]);
export type HookOutcome = z.infer<typeof HookOutcomeSchema>;

export const PreToolUseHookResultSchema = z.strictObject({
  hook: z.string().min(1),
  outcome: HookOutcomeSchema,
  /** What it decided (`block` for every ending but `answered`). */
  decision: z.enum(['allow', 'block', 'raise']),
  /** The tier it raised the call to (`raise` only). */
  tier: ApprovalTierSchema.nullable(),
  reason: z.string(),
  durationMs: z.number().int().min(0),
});
export type PreToolUseHookResult = z.infer<typeof PreToolUseHookResultSchema>;

/**
 * The `pre_tool_use` hooks ran for a call before it was assessed; their verdicts become rule
 * findings of the assessment. Recorded by the effect runner, so replay never runs a hook.
 */
export const preToolUseHooksRan = defineEvent({
  type: 'pre_tool_use_hooks_ran',
  description: "The user's pre_tool_use hooks answered for a call (or failed closed).",
  origin: 'effect_result',
  fields: () => ({
    callId: z.string().min(1),
    results: z.array(PreToolUseHookResultSchema),
  }),
});

export const hookEvents = [preToolUseHooksRan] as const;

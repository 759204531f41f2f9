import { z } from 'zod';

/**
 * A tool call the model proposed. `argsRaw` is the model's text verbatim; `args` is set when it
 * parsed as a JSON object (or `argsInText`, where the answer records them as the text alone),
 * otherwise `argsError` says why not. Unreadable text longer than
 * `MAX_KEPT_REJECTED_ARGS_CHARS` is kept as its head: `argsLength` and `argsSha256` then describe
 * the whole text. A proposal is an input to the kernel, never a decision.
 */
export const ToolCallProposalSchema = z.strictObject({
  callId: z.string().min(1),
  name: z.string().min(1),
  argsRaw: z.string(),
  args: z.record(z.string(), z.unknown()).optional(),
  /**
   * The arguments are what `argsRaw` parses to, recorded once as text (`answer-arguments-as-text`):
   * read them with `answerCallArgs`. Never set with `args`.
   */
  argsInText: z.literal(true).optional(),
  argsError: z.string().optional(),
  argsLength: z.number().int().nonnegative().optional(),
  argsSha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
});
export type ToolCallProposal = z.infer<typeof ToolCallProposalSchema>;

export const FinishReasonSchema = z.enum([
  'stop',
  'length',
  'tool_calls',
  'content_filter',
  'error',
  'other',
]);
export type FinishReason = z.infer<typeof FinishReasonSchema>;

export const TokenUsageSchema = z.strictObject({
  /** Every prompt token the provider read, cached or not. */
  inputTokens: z.number().int().nonnegative(),
  /** Of `inputTokens`, those read from the provider's prompt cache (when it reports them). */
  cachedInputTokens: z.number().int().nonnegative().optional(),
  outputTokens: z.number().int().nonnegative(),
});
export type TokenUsage = z.infer<typeof TokenUsageSchema>;

/** What a provider returns for one successful call. Recorded whole in `inference_completed`. */
export const InferenceResultSchema = z.strictObject({
  text: z.string(),
  toolCalls: z.array(ToolCallProposalSchema),
  finishReason: FinishReasonSchema,
  usage: TokenUsageSchema,
  /** The model id the provider reports having used (may differ from the one requested). */
  modelId: z.string().min(1),
  latencyMs: z.number().int().nonnegative(),
});
export type InferenceResult = z.infer<typeof InferenceResultSchema>;

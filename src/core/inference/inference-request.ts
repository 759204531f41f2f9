import { z } from 'zod';

/** A tool call the model made in an earlier turn, as the next request shows it back. */
export const InferenceToolCallSchema = z.strictObject({
  callId: z.string().min(1),
  name: z.string().min(1),
  /** The arguments as the model wrote them (JSON text, possibly malformed). */
  argsRaw: z.string(),
});
export type InferenceToolCall = z.infer<typeof InferenceToolCallSchema>;

/**
 * One message of a rendered context pack, in the order the model reads it. Provider-neutral:
 * an assistant turn may carry the tool calls it made, and a `tool` message is the result of one
 * of them (every call of a turn gets one, right after the turn). Each provider renders these in
 * its native form; a transcript rendered as text uses only `system`, `user` and `assistant`
 * with content.
 */
export const InferenceMessageSchema = z.discriminatedUnion('role', [
  z.strictObject({ role: z.literal('system'), content: z.string() }),
  z.strictObject({ role: z.literal('user'), content: z.string() }),
  z.strictObject({
    role: z.literal('assistant'),
    content: z.string(),
    toolCalls: z.array(InferenceToolCallSchema).min(1).optional(),
  }),
  z.strictObject({
    role: z.literal('tool'),
    callId: z.string().min(1),
    toolName: z.string().min(1),
    content: z.string(),
  }),
]);
export type InferenceMessage = z.infer<typeof InferenceMessageSchema>;

/** A JSON Schema document (draft 2020-12 or 7), kept as plain data. */
export const JsonSchemaDocumentSchema = z.record(z.string(), z.unknown());
export type JsonSchemaDocument = z.infer<typeof JsonSchemaDocumentSchema>;

/**
 * A tool offered to the model: its name, what it does and the JSON Schema of its arguments.
 * Never an executor: correx validates and runs tool calls itself.
 */
export const ToolDefinitionSchema = z.strictObject({
  name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'tool names are 1-64 of [a-zA-Z0-9_-]'),
  description: z.string(),
  inputSchema: JsonSchemaDocumentSchema,
});
export type ToolDefinition = z.infer<typeof ToolDefinitionSchema>;

export const InferenceLimitsSchema = z.strictObject({
  /** Upper bound on generated tokens. */
  maxOutputTokens: z.number().int().positive(),
  /** Wall-clock limit for the whole call; past it the call fails with category `timeout`. */
  timeoutMs: z.number().int().positive(),
  temperature: z.number().min(0).max(2).optional(),
});
export type InferenceLimits = z.infer<typeof InferenceLimitsSchema>;

/** Everything a provider needs for one call. Provider-neutral: no wire details. */
export const InferenceRequestSchema = z.strictObject({
  /** The provider's model id (e.g. `gpt-4o-mini`, `claude-sonnet-4-5`, a GGUF path). */
  model: z.string().min(1),
  messages: z.array(InferenceMessageSchema).min(1),
  tools: z.array(ToolDefinitionSchema).readonly(),
  /** When set, the model is asked for a JSON value matching this schema (the stage artifact). */
  responseSchema: JsonSchemaDocumentSchema.optional(),
  limits: InferenceLimitsSchema,
});
export type InferenceRequest = z.infer<typeof InferenceRequestSchema>;

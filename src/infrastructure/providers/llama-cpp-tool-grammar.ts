import type { InferenceMessage, ToolDefinition } from '../../core/inference/inference-request.js';
import type { ToolCallProposal } from '../../core/inference/inference-result.js';
import { createToolCallProposal } from '../../core/inference/tool-call-arguments.js';
import { toWireSchema } from './wire-tool-schema.js';

/**
 * The JSON Schema a local model's output is constrained to when the stage offers tools: either
 * one call of a declared tool with arguments matching its schema, or a plain answer (none when a
 * finishing tool is offered: the stage's result is then a call too). Grammar-
 * constrained decoding makes a model without native function calling still produce a
 * well-formed call.
 */
export function toolCallEnvelopeSchema(tools: readonly ToolDefinition[]): Record<string, unknown> {
  const answer = {
    type: 'object',
    properties: { type: { const: 'answer' }, text: { type: 'string' } },
    required: ['type', 'text'],
  };
  const calls = tools.map((tool) => ({
    type: 'object',
    properties: {
      type: { const: 'tool_call' },
      name: { const: tool.name },
      arguments: toGrammarSchema(tool.inputSchema),
    },
    required: ['type', 'name', 'arguments'],
  }));
  // A stage that ends with a finishing tool accepts no plain answer: the grammar leaves it out.
  const finishing = tools.some((tool) => tool.name.startsWith('finish_'));
  return { oneOf: finishing ? calls : [...calls, answer] };
}

/** Optional properties up to which every combination is spelled out; past it, fewer forms. */
const MAX_OPTIONAL_COMBINATIONS = 4;

/**
 * Adapts a JSON Schema to node-llama-cpp's grammar compiler, which treats every listed property
 * as required and ignores `required`. An object with optional properties becomes a `oneOf` of
 * objects that list exactly the required keys plus a combination of the optional ones, so the
 * grammar admits only declared keys (with up to four optional keys every combination; with more,
 * none, each one alone, or all). Large repetition bounds are left out (see `toWireSchema`); correx
 * validates arguments against the real schema before any tool runs.
 */
export function toGrammarSchema(schema: unknown): unknown {
  return grammarOf(toWireSchema(schema));
}

function grammarOf(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(grammarOf);
  if (typeof schema !== 'object' || schema === null) return schema;
  const {
    required,
    properties,
    additionalProperties: _extra,
    ...rest
  } = schema as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rest)) out[key] = grammarOf(value);
  if (typeof properties !== 'object' || properties === null) return out;
  const requiredKeys = new Set(
    Array.isArray(required) ? required.filter((k): k is string => typeof k === 'string') : [],
  );
  const entries = Object.entries(properties).map(
    ([key, value]) => [key, grammarOf(value)] as const,
  );
  const optional = entries.filter(([key]) => !requiredKeys.has(key)).map(([key]) => key);
  const objectWith = (keys: ReadonlySet<string>) => ({
    ...out,
    type: 'object',
    properties: Object.fromEntries(
      entries.filter(([key]) => requiredKeys.has(key) || keys.has(key)),
    ),
  });
  if (optional.length === 0) return objectWith(new Set());
  const combinations =
    optional.length <= MAX_OPTIONAL_COMBINATIONS
      ? subsetsOf(optional)
      : [[], ...optional.map((key) => [key]), optional];
  const description = out.description;
  return {
    ...(typeof description === 'string' ? { description } : {}),
    oneOf: combinations.map((keys) => objectWith(new Set(keys))),
  };
}

function subsetsOf(keys: readonly string[]): string[][] {
  return keys.reduce<string[][]>(
    (subsets, key) => [...subsets, ...subsets.map((subset) => [...subset, key])],
    [[]],
  );
}

/** Tells the model what the envelope means; appended to the system prompt. */
export function toolInstructions(tools: readonly ToolDefinition[]): string {
  const lines = tools.map(
    (tool) =>
      `- ${tool.name}: ${tool.description}\n  arguments: ${JSON.stringify(tool.inputSchema)}`,
  );
  return [
    'You can call one of these tools:',
    ...lines,
    'Reply with JSON only: {"type":"tool_call","name":<tool>,"arguments":{...}} to call a tool,',
    'or {"type":"answer","text":<your answer>} when no tool is needed.',
  ].join('\n');
}

/**
 * Reads constrained output. A call becomes a proposal whose raw text is the arguments as the
 * model wrote them (re-serialized from the envelope); anything unreadable is kept as a proposal
 * with a parse error, or as text, never dropped.
 */
export function parseToolEnvelope(
  output: string,
  callId: string,
): { text: string; toolCalls: ToolCallProposal[] } {
  let value: unknown;
  try {
    value = JSON.parse(output);
  } catch {
    return { text: output, toolCalls: [] };
  }
  const envelope = value as { type?: unknown; name?: unknown; arguments?: unknown; text?: unknown };
  if (envelope.type === 'tool_call' && typeof envelope.name === 'string') {
    return {
      text: '',
      toolCalls: [
        createToolCallProposal(callId, envelope.name, JSON.stringify(envelope.arguments ?? {})),
      ],
    };
  }
  if (envelope.type === 'answer' && typeof envelope.text === 'string')
    return { text: envelope.text, toolCalls: [] };
  return { text: output, toolCalls: [] };
}

/** node-llama-cpp's record of a function call in a model turn, with the result it got. */
export type LlamaFunctionCallItem = {
  type: 'functionCall';
  name: string;
  params: unknown;
  result: string;
  startsNewChunk?: boolean;
};

export type LlamaChatHistoryItem =
  | { type: 'system'; text: string }
  | { type: 'user'; text: string }
  | { type: 'model'; response: (string | LlamaFunctionCallItem)[] };

/** What the local prompt says when the conversation ends with tool results, not a user turn. */
export const CONTINUE_PROMPT = 'Continue from the tool results above.';

/**
 * Splits rendered messages into node-llama-cpp chat history and the final user prompt. A model
 * turn's tool calls become function-call items carrying their results, so the model's own chat
 * template renders the exchange. A local chat session answers a user turn: when the messages
 * end with tool results, the prompt is a fixed request to continue.
 */
export function toLlamaChat(
  messages: readonly InferenceMessage[],
  extraSystem: string | undefined,
): { history: LlamaChatHistoryItem[]; prompt: string } {
  const last = messages.at(-1);
  if (last === undefined || (last.role !== 'user' && last.role !== 'tool')) {
    throw new RangeError('a local model call must end with a user message or a tool result');
  }
  const system = messages.filter((m) => m.role === 'system').map((m) => m.content);
  if (extraSystem !== undefined) system.push(extraSystem);
  const history: LlamaChatHistoryItem[] =
    system.length > 0 ? [{ type: 'system', text: system.join('\n\n') }] : [];
  const results = new Map<string, string>();
  for (const message of messages)
    if (message.role === 'tool') results.set(message.callId, message.content);
  const body = last.role === 'user' ? messages.slice(0, -1) : messages;
  for (const message of body) {
    if (message.role === 'user') history.push({ type: 'user', text: message.content });
    if (message.role !== 'assistant') continue;
    const response: (string | LlamaFunctionCallItem)[] =
      message.content === '' ? [] : [message.content];
    (message.toolCalls ?? []).forEach((call, index) => {
      response.push({
        type: 'functionCall',
        name: call.name,
        params: paramsOf(call.argsRaw),
        result: results.get(call.callId) ?? '',
        ...(index === 0 ? { startsNewChunk: true } : {}),
      });
    });
    history.push({ type: 'model', response });
  }
  return { history, prompt: last.role === 'user' ? last.content : CONTINUE_PROMPT };
}

function paramsOf(argsRaw: string): unknown {
  try {
    return JSON.parse(argsRaw) as unknown;
  } catch {
    return argsRaw;
  }
}

import type { ToolCallProposal } from './inference-result.js';

export type ToolArgumentsParse =
  | { readonly ok: true; readonly args: Record<string, unknown> }
  | { readonly ok: false; readonly error: string };

/**
 * Parses a model's raw tool-argument text. Only a JSON object counts; an empty string is read
 * as `{}` because several servers send that for a call without arguments.
 */
export function safeParseToolArguments(raw: string): ToolArgumentsParse {
  if (raw.trim() === '') return { ok: true, args: {} };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return { ok: false, error: `arguments are not valid JSON: ${(error as Error).message}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, error: 'arguments must be a JSON object' };
  }
  return { ok: true, args: value as Record<string, unknown> };
}

/** Builds a proposal from what a provider saw on the wire, parsing the arguments once. */
export function createToolCallProposal(
  callId: string,
  name: string,
  argsRaw: string,
): ToolCallProposal {
  const parsed = safeParseToolArguments(argsRaw);
  return parsed.ok
    ? { callId, name, argsRaw, args: parsed.args }
    : { callId, name, argsRaw, argsError: parsed.error };
}

import { sha256Hex, type Sha256 } from '../base/sha256.js';
import type { ToolCallProposal } from './inference-result.js';

export type ToolArgumentsParse =
  | { readonly ok: true; readonly args: Record<string, unknown> }
  | { readonly ok: false; readonly error: string };

/**
 * The deepest arguments accepted. An `inference_completed` event holds arguments four levels
 * below its payload, and the canonical encoder stops at 256 levels, so no recorded session ever
 * held deeper arguments: rejecting them changes nothing any recorded session re-derives.
 */
export const MAX_ARGUMENT_DEPTH = 252;

/**
 * Parses a model's raw tool-argument text. Only a JSON object with a canonical form counts: a
 * number JSON cannot hold (`1e400` parses as Infinity), a lone surrogate, or nesting past
 * `MAX_ARGUMENT_DEPTH` is a parse error, so what a model sends can always be recorded. An empty
 * string is read as `{}` because several servers send that for a call without arguments.
 */
export function safeParseToolArguments(raw: string): ToolArgumentsParse {
  if (raw.trim() === '') return { ok: true, args: {} };
  // Measured on the text first: parsing and walking 100,000 levels would cost a stack each.
  const depth = jsonNestingDepth(raw);
  if (depth > MAX_ARGUMENT_DEPTH) {
    return {
      ok: false,
      error: `arguments are nested ${depth} levels deep; at most ${MAX_ARGUMENT_DEPTH} are accepted`,
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return { ok: false, error: `arguments are not valid JSON: ${(error as Error).message}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, error: 'arguments must be a JSON object' };
  }
  const problem = nonCanonicalPart(value);
  if (problem !== undefined) return { ok: false, error: `arguments ${problem}` };
  return { ok: true, args: value as Record<string, unknown> };
}

/**
 * The deepest bracket nesting of a JSON text, brackets inside strings not counted. Linear and
 * without recursion, so it can measure any text before anything recursive touches it.
 */
export function jsonNestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === 0x5c) index++;
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x7b || char === 0x5b) deepest = Math.max(deepest, ++depth);
    else if (char === 0x7d || char === 0x5d) depth--;
  }
  return deepest;
}

// With the `u` flag a surrogate class matches only a surrogate that is not half of a pair.
const LONE_SURROGATE = /\p{Surrogate}/u;

/** What in a parsed value has no canonical JSON form, walked without recursion. */
function nonCanonicalPart(root: object): string | undefined {
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'number' && !Number.isFinite(value)) {
      return 'hold a number JSON cannot represent (it overflows to Infinity)';
    }
    if (typeof value === 'string' && LONE_SURROGATE.test(value)) {
      return 'hold a string with a lone surrogate (not Unicode text)';
    }
    if (typeof value === 'object' && value !== null) {
      for (const [key, member] of Object.entries(value)) {
        if (LONE_SURROGATE.test(key)) return 'hold a key with a lone surrogate (not Unicode text)';
        pending.push(member);
      }
    }
  }
  return undefined;
}

/**
 * Unreadable argument text longer than this is not recorded whole: it will be rejected, and a
 * model's megabytes of garbage would otherwise be written to the log twice.
 */
export const MAX_KEPT_REJECTED_ARGS_CHARS = 16 * 1024;

/** How much of such text is kept, to show the model and a person what it sent. */
export const REJECTED_ARGS_HEAD_CHARS = 2 * 1024;

/**
 * Builds a proposal from what a provider saw on the wire, parsing the arguments once. Text that
 * does not parse is kept verbatim up to `MAX_KEPT_REJECTED_ARGS_CHARS`; past that only its head,
 * with the whole text's length and SHA-256 (the head parses no better, so the kernel still
 * rejects the call).
 */
export function createToolCallProposal(
  callId: string,
  name: string,
  argsRaw: string,
  sha256: Sha256 = sha256Hex,
): ToolCallProposal {
  const parsed = safeParseToolArguments(argsRaw);
  if (parsed.ok) return { callId, name, argsRaw, args: parsed.args };
  const head = wellFormedHead(argsRaw, REJECTED_ARGS_HEAD_CHARS);
  // A head that parses (`{}` and then spaces before the garbage) would run as a call: keep it all.
  if (argsRaw.length <= MAX_KEPT_REJECTED_ARGS_CHARS || safeParseToolArguments(head).ok)
    return { callId, name, argsRaw, argsError: parsed.error };
  return {
    callId,
    name,
    argsRaw: head,
    argsError: `${parsed.error} (${argsRaw.length} characters; only the first ${REJECTED_ARGS_HEAD_CHARS} are kept)`,
    argsLength: argsRaw.length,
    argsSha256: sha256(argsRaw),
  };
}

/** The first `length` code units, not ending on half of a surrogate pair. */
function wellFormedHead(text: string, length: number): string {
  const head = text.slice(0, length);
  const last = head.charCodeAt(head.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? head.slice(0, -1) : head;
}

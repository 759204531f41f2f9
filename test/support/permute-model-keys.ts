import {
  correxEventCatalog,
  type CorrexEvent,
  type CorrexEventStore,
} from '../../src/core/event-catalog.js';
import { InMemoryEventStore } from '../../src/core/events/in-memory-event-store.js';
import { nodeSha256 } from '../../src/infrastructure/system/node-sha256.js';
import {
  jsonNestingDepth,
  safeParseToolArguments,
} from '../../src/core/inference/tool-call-arguments.js';
import { MAX_ANSWER_DEPTH } from '../../src/core/kernel/decider/artifact-content.js';
import { DECISIONS_FROM_CANONICAL_OUTPUT } from '../../src/core/kernel/config/kernel-flags.js';

/*
 * A session's log with the keys of every JSON object a model supplied in another order (issue
 * 33.1): the parsed arguments of each call (`args`, in every session), and, in sessions recorded
 * with `decisions-from-canonical-output`, the model's texts themselves (a call's `argsRaw`, an
 * answer's `text`) when they are JSON, rewritten wherever the log carries them (the
 * `tool_call_proposed` that echoes a call). A session recorded before that flag renders the
 * model's text verbatim by design, so its texts are left as written.
 */
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A deterministic generator of choices from a seed (mulberry32). */
function chooser(seed: number) {
  let state = seed >>> 0;
  return (bound: number) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) % bound) as number;
  };
}

/** `value` with the keys of every object in a shuffled order (arrays keep theirs). */
function permuted(value: Json, choose: (bound: number) => number): Json {
  if (Array.isArray(value)) return value.map((item) => permuted(item, choose));
  if (typeof value !== 'object' || value === null) return value;
  const keys = Object.keys(value);
  for (let index = keys.length - 1; index > 0; index--) {
    const other = choose(index + 1);
    [keys[index], keys[other]] = [keys[other]!, keys[index]!];
  }
  return Object.fromEntries(keys.map((key) => [key, permuted(value[key]!, choose)]));
}

/** A text that is exactly a JSON object or array, parsed; undefined otherwise (or too deep to walk). */
function jsonText(text: string): Json | undefined {
  if (!/^\s*[[{]/.test(text) || jsonNestingDepth(text) > MAX_ANSWER_DEPTH) return undefined;
  try {
    return JSON.parse(text) as Json;
  } catch {
    return undefined;
  }
}

export function permutedSession(events: readonly CorrexEvent[], seed: number): CorrexEvent[] {
  const choose = chooser(seed);
  const texts =
    events[0]?.payload.type === 'session_configured' &&
    (events[0].payload.configuration as { flags?: string[] }).flags?.includes(
      DECISIONS_FROM_CANONICAL_OUTPUT.name,
    ) === true;
  // The model's new argument text per call id, for the `tool_call_proposed` that echoes it.
  const rewritten = new Map<string, string>();
  return events.map((event) => {
    const payload = event.payload;
    if (payload.type === 'inference_completed') {
      const toolCalls = payload.result.toolCalls.map((call, index) => {
        if (call.args === undefined) return call;
        const args = permuted(call.args as Json, choose) as Record<string, Json>;
        // Only a text that is itself a JSON object is rewritten: an empty text the provider read
        // as `{}` stays empty, as a model sending its keys in another order would leave it.
        if (
          !texts ||
          !safeParseToolArguments(call.argsRaw).ok ||
          jsonText(call.argsRaw) === undefined
        )
          return { ...call, args };
        const argsRaw = JSON.stringify(args);
        rewritten.set(`${payload.requestId}.${index + 1}`, argsRaw);
        return { ...call, args, argsRaw };
      });
      const parsed = texts ? jsonText(payload.result.text) : undefined;
      const text =
        parsed === undefined ? payload.result.text : JSON.stringify(permuted(parsed, choose));
      return { ...event, payload: { ...payload, result: { ...payload.result, text, toolCalls } } };
    }
    if (payload.type === 'tool_call_proposed' && rewritten.has(payload.callId))
      return { ...event, payload: { ...payload, argsRaw: rewritten.get(payload.callId)! } };
    return event;
  });
}

/** A fresh in-memory store holding `events` as recorded. */
export async function storeOf(events: readonly CorrexEvent[]): Promise<CorrexEventStore> {
  const store = new InMemoryEventStore({ catalog: correxEventCatalog, sha256: nodeSha256 });
  for (const event of events)
    await store.append(
      {
        eventId: event.eventId,
        sessionId: event.sessionId,
        timestamp: event.timestamp,
        causationId: event.causationId,
        correlationId: event.correlationId,
        payload: event.payload,
      },
      { expectedSequence: event.sequence - 1 },
    );
  return store as CorrexEventStore;
}

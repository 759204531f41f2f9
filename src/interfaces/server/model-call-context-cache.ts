import type { CorrexEventStore } from '../../core/event-catalog.js';
import {
  modelCallContexts,
  type ModelCallContext,
} from '../../core/inference/model-call-contexts.js';

/**
 * The model calls of the sessions asked about lately, kept while their log has not grown. The
 * web page asks for one call's manifest per click, and each answer rebuilds every manifest of
 * the session up to it; a log is append-only, so the same last sequence means the same calls.
 * At most `capacity` sessions are kept, the least recently asked going first.
 */
export function createModelCallContextCache(
  store: Pick<CorrexEventStore, 'read' | 'lastSequence'>,
  capacity = 16,
): (sessionId: string) => Promise<readonly ModelCallContext[]> {
  const entries = new Map<string, { lastSequence: number; calls: ModelCallContext[] }>();
  return async (sessionId) => {
    const lastSequence = await store.lastSequence(sessionId);
    const kept = entries.get(sessionId);
    entries.delete(sessionId);
    if (kept !== undefined && kept.lastSequence === lastSequence) {
      entries.set(sessionId, kept);
      return kept.calls;
    }
    const events = await store.read(sessionId);
    const calls = modelCallContexts(events);
    // Keyed by what was read, which an append made meanwhile may have moved past lastSequence.
    entries.set(sessionId, { lastSequence: events.at(-1)?.sequence ?? 0, calls });
    if (entries.size > capacity) entries.delete(entries.keys().next().value!);
    return calls;
  };
}

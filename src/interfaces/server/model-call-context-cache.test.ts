import { describe, expect, it } from 'vitest';
import { recordSession } from '../../../bench/bench-session.js';
import { modelCallContexts } from '../../core/inference/model-call-contexts.js';
import { createModelCallContextCache } from './model-call-context-cache.js';

describe('model call context cache', () => {
  it('reads a log again only once it has grown, and answers what a fresh read would', async () => {
    const { store } = await recordSession(3, { callsPerTurn: 2, sessionId: 'a' });
    // Event ids are unique across a store, and the bench's repeat across sessions: b has its own.
    const { store: other } = await recordSession(2, { callsPerTurn: 1, sessionId: 'b' });
    const storeOf = (sessionId: string) => (sessionId === 'b' ? other : store);
    let reads = 0;
    const counted = {
      read: (sessionId: string) => {
        reads += 1;
        return storeOf(sessionId).read(sessionId);
      },
      lastSequence: (sessionId: string) => storeOf(sessionId).lastSequence(sessionId),
    };
    const modelCallsOf = createModelCallContextCache(counted, 1);
    const fresh = async (sessionId: string) =>
      modelCallContexts(await storeOf(sessionId).read(sessionId));

    expect(await modelCallsOf('a')).toEqual(await fresh('a'));
    expect(await modelCallsOf('a')).toEqual(await fresh('a'));
    expect(reads).toBe(1);

    // Capacity 1: asking about b forgets a.
    expect(await modelCallsOf('b')).toEqual(await fresh('b'));
    expect(await modelCallsOf('a')).toEqual(await fresh('a'));
    expect(reads).toBe(3);

    // The log grows (a model call answered: its reported tokens change the read model).
    const answered = (await store.read('a')).findLast(
      (event) => event.payload.type === 'inference_completed',
    )!;
    const calls = await modelCallsOf('a');
    expect(reads).toBe(3);
    await store.append({
      eventId: 'a-note',
      sessionId: 'a',
      timestamp: answered.timestamp,
      causationId: null,
      correlationId: null,
      payload: { type: 'steering_note_added', sessionId: 'a', content: 'look at b' },
    });
    expect(await modelCallsOf('a')).toEqual(calls);
    expect(reads).toBe(4);
  });
});

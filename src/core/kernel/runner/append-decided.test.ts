import { describe, expect, it } from 'vitest';
import { noteBatch, noteEvent } from '../../../../test/support/sample-events.js';
import { createSteppingClock } from '../../base/clock.js';
import { createCountingIdSource } from '../../base/id-source.js';
import { correxEventCatalog, type CorrexEventStore } from '../../event-catalog.js';
import { InMemoryEventStore } from '../../events/in-memory-event-store.js';
import { appendToSession, UnknownSessionError } from './append-decided.js';

const context = {
  clock: createSteppingClock('2026-11-30T12:00:00.000Z'),
  ids: createCountingIdSource('cli'),
};

describe('appendToSession', () => {
  it('appends after a session that moved on meanwhile, once, with the same event id', async () => {
    const store = new InMemoryEventStore({ catalog: correxEventCatalog });
    await store.appendAll(noteBatch('s', 1, 2));
    let interleaved = false;
    // A running session appends between our read of the last sequence and our append.
    const racing = {
      lastSequence: (sessionId: string) => store.lastSequence(sessionId),
      appendAll: async (...args: Parameters<CorrexEventStore['appendAll']>) => {
        if (!interleaved) {
          interleaved = true;
          await store.append(noteEvent('s', 3));
        }
        return store.appendAll(...args);
      },
    } as unknown as CorrexEventStore;
    const stored = await appendToSession(context, racing, 's', {
      type: 'orchestration_paused',
      by: 'alice',
    });
    expect(stored.sequence).toBe(4);
    expect((await store.read('s')).map((event) => event.payload.type)).toEqual([
      'steering_note_added',
      'steering_note_added',
      'steering_note_added',
      'orchestration_paused',
    ]);
  });

  it('refuses a session that does not exist', async () => {
    const store = new InMemoryEventStore({ catalog: correxEventCatalog });
    await expect(
      appendToSession(context, store, 'ghost', { type: 'orchestration_paused', by: 'a' }),
    ).rejects.toBeInstanceOf(UnknownSessionError);
  });
});

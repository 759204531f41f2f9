import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { noteEvent, stageEvent } from '../../../test/support/sample-events.js';
import { correxEventCatalog, type EventPayload } from '../event-catalog.js';
import { InMemoryEventStore } from './in-memory-event-store.js';
import { createInMemorySnapshotStore } from './in-memory-snapshot-store.js';
import type { Projection } from './projection.js';
import { replay, replayAndSnapshot } from './replay.js';

type Tally = { notes: string[]; stages: Record<string, number>; lastSequence: number };

const tally: Projection<Tally, EventPayload> = {
  name: 'tally',
  version: 1,
  initial: () => ({ notes: [], stages: {}, lastSequence: 0 }),
  evolve: (state, event) => {
    const lastSequence = event.sequence;
    switch (event.payload.type) {
      case 'steering_note_added':
        return { ...state, notes: [...state.notes, event.payload.content], lastSequence };
      case 'stage_started':
        return {
          ...state,
          stages: { ...state.stages, [event.payload.stageId]: event.payload.attempt },
          lastSequence,
        };
      default:
        return { ...state, lastSequence };
    }
  },
};

async function seeded(kinds: boolean[]) {
  const store = new InMemoryEventStore({ catalog: correxEventCatalog });
  for (const [index, isNote] of kinds.entries()) {
    await store.append(
      isNote ? noteEvent('s', index + 1) : stageEvent('s', index + 1, `stage-${index % 3}`),
    );
  }
  return store;
}

describe('replay', () => {
  it('rebuilds the same state from the same events (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.boolean(), { maxLength: 40 }), async (kinds) => {
        const store = await seeded(kinds);
        const first = await replay(store, tally, 's');
        const second = await replay(store, tally, 's');
        expect(second).toEqual(first);
        expect(first.sequence).toBe(kinds.length);
        expect(first.state.notes).toHaveLength(kinds.filter(Boolean).length);
      }),
      { numRuns: 30 },
    );
  });

  it('snapshot plus tail equals a rebuild from scratch', async () => {
    const store = await seeded([true, false, true, false, false]);
    const snapshots = createInMemorySnapshotStore();
    const atFive = await replayAndSnapshot(store, tally, 's', snapshots);
    expect(atFive.fromSnapshot).toBe(false);
    await store.append(noteEvent('s', 6));
    await store.append(stageEvent('s', 7, 'verify'));
    const fromSnapshot = await replay(store, tally, 's', { snapshots });
    const fromScratch = await replay(store, tally, 's');
    expect(fromSnapshot.fromSnapshot).toBe(true);
    expect(fromSnapshot.state).toEqual(fromScratch.state);
    expect(fromSnapshot.sequence).toBe(7);
  });

  it('ignores a snapshot taken by another projection version', async () => {
    const store = await seeded([true, true]);
    const snapshots = createInMemorySnapshotStore();
    await snapshots.save({
      sessionId: 's',
      projection: 'tally',
      projectionVersion: 0,
      sequence: 2,
      state: { bogus: true },
    });
    const result = await replay(store, tally, 's', { snapshots });
    expect(result.fromSnapshot).toBe(false);
    expect(result.state.notes).toEqual(['note 1', 'note 2']);
  });

  it('replays from a cursor with a given state', async () => {
    const store = await seeded([true, true, true]);
    const upToOne = await replay(store, tally, 's');
    const partial = { state: { notes: ['note 1'], stages: {}, lastSequence: 1 }, sequence: 1 };
    expect((await replay(store, tally, 's', { from: partial })).state).toEqual(upToOne.state);
  });

  it('a snapshot store keeps the newest snapshot and is not affected by later mutation', async () => {
    const snapshots = createInMemorySnapshotStore();
    const state = { n: [1] };
    await snapshots.save({
      sessionId: 's',
      projection: 'p',
      projectionVersion: 1,
      sequence: 5,
      state,
    });
    state.n.push(2);
    await snapshots.save({
      sessionId: 's',
      projection: 'p',
      projectionVersion: 1,
      sequence: 3,
      state: { n: [0] },
    });
    expect(await snapshots.load('s', 'p')).toEqual({
      sessionId: 's',
      projection: 'p',
      projectionVersion: 1,
      sequence: 5,
      state: { n: [1] },
    });
  });
});

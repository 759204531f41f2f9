import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConcurrencyError } from '../../src/core/events/concurrency-error.js';
import { CorruptEventError } from '../../src/core/events/corrupt-event-error.js';
import { DuplicateEventError } from '../../src/core/events/duplicate-event-error.js';
import { StaleDriverError } from '../../src/core/events/stale-driver-error.js';
import { createEventCodec, type EventRow } from '../../src/core/events/event-codec.js';
import { chainHash } from '../../src/core/events/hash-chain.js';
import { sha256Hex } from '../../src/core/base/sha256.js';
import type { NewEvent, StoredEvent } from '../../src/core/events/event-envelope.js';
import type { EventStore, SubscriptionMessage } from '../../src/core/events/event-store.js';
import {
  InvalidAppendError,
  InvalidEventError,
} from '../../src/core/events/invalid-event-error.js';
import { StoreClosedError } from '../../src/core/events/store-closed-error.js';
import { correxEventCatalog, type EventPayload } from '../../src/core/event-catalog.js';
import { noteBatch, noteEvent, stageEvent } from '../support/sample-events.js';
import { expectRejection } from '../support/expect-rejection.js';

type Store = EventStore<EventPayload>;

/** What each EventStore implementation supplies to run the shared contract. */
export type EventStoreHarness = {
  /** A fresh, empty store. */
  open(): Promise<Store>;
  /** Overwrites stored columns of one event, as someone with write access to the storage could. */
  tamper(
    store: Store,
    sessionId: string,
    sequence: number,
    change: Partial<Pick<EventRow, 'bytes' | 'hash'>>,
  ): Promise<void>;
};

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

/**
 * The EventStore contract: every implementation must pass all of it unchanged. It is the
 * definition of a correct store.
 */
export function eventStoreContract(name: string, harness: EventStoreHarness): void {
  describe(`EventStore contract: ${name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await harness.open();
    });
    afterEach(async () => {
      await store.close();
    });

    describe('append and read', () => {
      it('assigns gapless sequences from 1, per session', async () => {
        const a1 = await store.append(noteEvent('a', 1));
        const b1 = await store.append(noteEvent('b', 1));
        const a2 = await store.append(noteEvent('a', 2));
        expect([a1.sequence, a2.sequence, b1.sequence]).toEqual([1, 2, 1]);
        expect(await store.lastSequence('a')).toBe(2);
        expect(await store.lastSequence('b')).toBe(1);
        expect(await store.lastSequence('nobody')).toBe(0);
      });

      it('returns what was appended, with the current version and null causation by default', async () => {
        const event = noteEvent('s', 1);
        const { causationId: _omit, ...withoutCausation } = event;
        const stored = await store.append(withoutCausation);
        expect(stored).toMatchObject({
          ...withoutCausation,
          sequence: 1,
          version: 1,
          causationId: null,
        });
        expect(stored.hash).toMatch(/^[0-9a-f]{64}$/);
        const [read] = await store.read('s');
        expect(read).toEqual(stored);
      });

      it('reads in sequence order from an exclusive cursor, with a limit', async () => {
        await store.appendAll(noteBatch('s', 1, 10));
        const all = await store.read('s');
        expect(all.map((event) => event.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
        const tail = await store.read('s', { afterSequence: 7 });
        expect(tail.map((event) => event.sequence)).toEqual([8, 9, 10]);
        const page = await store.read('s', { afterSequence: 2, limit: 3 });
        expect(page.map((event) => event.sequence)).toEqual([3, 4, 5]);
        expect(await store.read('s', { afterSequence: 10 })).toEqual([]);
        expect(await store.read('unknown')).toEqual([]);
      });

      it('streams a long session in order without a limit', async () => {
        for (let from = 1; from <= 2500; from += 500)
          await store.appendAll(noteBatch('long', from, 500));
        let expected = 1;
        for await (const event of store.stream('long')) {
          expect(event.sequence).toBe(expected);
          expected += 1;
        }
        expect(expected).toBe(2501);
        const tail = await collect(store.stream('long', { afterSequence: 2498 }));
        expect(tail.map((event) => event.sequence)).toEqual([2499, 2500]);
      });

      it('lists sessions in order of first appearance', async () => {
        await store.append(noteEvent('second', 1, { timestamp: '2026-11-30T10:00:00.000Z' }));
        await store.append(noteEvent('first', 1));
        await store.append(noteEvent('second', 2, { timestamp: '2026-11-30T10:05:00.000Z' }));
        const sessions = await store.listSessions();
        expect(sessions).toEqual([
          {
            sessionId: 'second',
            lastSequence: 2,
            firstTimestamp: '2026-11-30T10:00:00.000Z',
            lastTimestamp: '2026-11-30T10:05:00.000Z',
          },
          {
            sessionId: 'first',
            lastSequence: 1,
            firstTimestamp: noteEvent('first', 1).timestamp,
            lastTimestamp: noteEvent('first', 1).timestamp,
          },
        ]);
      });
    });

    describe('appendAll', () => {
      it('stores a batch with consecutive sequences and returns it in order', async () => {
        await store.append(noteEvent('s', 1));
        const stored = await store.appendAll(noteBatch('s', 2, 3));
        expect(stored.map((event) => [event.eventId, event.sequence])).toEqual([
          ['s-e000002', 2],
          ['s-e000003', 3],
          ['s-e000004', 4],
        ]);
      });

      it('is atomic: an invalid event in the middle stores nothing', async () => {
        await store.append(noteEvent('s', 1));
        const batch = noteBatch('s', 2, 3);
        batch[1] = { ...batch[1]!, payload: { type: 'stage_started', stageId: '', attempt: 0 } };
        const error = await expectRejection(store.appendAll(batch), InvalidEventError);
        expect(error.message).toContain('s-e000003');
        expect(await store.lastSequence('s')).toBe(1);
        // The valid events of the rejected batch were not stored either.
        const retry = await store.appendAll(noteBatch('s', 2, 3), { expectedSequence: 1 });
        expect(retry.map((event) => event.sequence)).toEqual([2, 3, 4]);
      });

      it('rejects an empty batch, mixed sessions and repeated ids', async () => {
        await expectRejection(store.appendAll([]), InvalidAppendError);
        await expectRejection(
          store.appendAll([noteEvent('a', 1), noteEvent('b', 2)]),
          InvalidAppendError,
        );
        await expectRejection(
          store.appendAll([noteEvent('a', 1), noteEvent('a', 1)]),
          InvalidAppendError,
        );
        expect(await store.listSessions()).toEqual([]);
      });
    });

    describe('bad input gets a named error', () => {
      it('rejects an unknown payload type', async () => {
        const event = {
          ...noteEvent('s', 1),
          payload: { type: 'no_such_event' },
        } as unknown as NewEvent<EventPayload>;
        const error = await expectRejection(store.append(event), InvalidEventError);
        expect(error.message).toContain('no_such_event');
        expect(error.code).toBe('invalid_event');
      });

      it('rejects a payload that fails its schema, and names the field', async () => {
        const event = {
          ...noteEvent('s', 1),
          payload: { type: 'steering_note_added', sessionId: 's', content: 42 },
        } as unknown as NewEvent<EventPayload>;
        const error = await expectRejection(store.append(event), InvalidEventError);
        expect(error.message).toContain('content');
      });

      it('rejects unknown payload keys instead of dropping them', async () => {
        const event = {
          ...noteEvent('s', 1),
          payload: { type: 'steering_note_added', sessionId: 's', content: 'x', extra: 1 },
        } as unknown as NewEvent<EventPayload>;
        await expectRejection(store.append(event), InvalidEventError);
      });

      it('rejects a malformed timestamp and an empty id', async () => {
        await expectRejection(
          store.append(noteEvent('s', 1, { timestamp: 'yesterday' })),
          InvalidEventError,
        );
        await expectRejection(store.append(noteEvent('s', 1, { eventId: '' })), InvalidEventError);
        expect(await store.lastSequence('s')).toBe(0);
      });
    });

    describe('idempotency', () => {
      it('re-appending an identical event is a no-op returning the stored envelope', async () => {
        const first = await store.append(noteEvent('s', 1));
        await store.append(noteEvent('s', 2));
        const again = await store.append(noteEvent('s', 1));
        expect(again).toEqual(first);
        expect(await store.lastSequence('s')).toBe(2);
      });

      it('the same id with different content is a DuplicateEventError', async () => {
        await store.append(noteEvent('s', 1));
        const changed = noteEvent('s', 1, {
          payload: { type: 'steering_note_added', sessionId: 's', content: 'other' },
        });
        const error = await expectRejection(store.append(changed), DuplicateEventError);
        expect(error.eventId).toBe('s-e000001');
        const elsewhere = noteEvent('t', 1, { eventId: 's-e000001' });
        await expectRejection(store.append(elsewhere), DuplicateEventError);
        expect(await store.lastSequence('t')).toBe(0);
      });

      it('a retried batch returns the original envelopes, even with a stale expected sequence', async () => {
        const original = await store.appendAll(noteBatch('s', 1, 3), { expectedSequence: 0 });
        await store.append(noteEvent('s', 4));
        const retried = await store.appendAll(noteBatch('s', 1, 3), { expectedSequence: 0 });
        expect(retried).toEqual(original);
        expect(await store.lastSequence('s')).toBe(4);
      });

      it('a batch that overlaps stored ids only in part is an error and stores nothing', async () => {
        await store.appendAll(noteBatch('s', 1, 2));
        await expectRejection(store.appendAll(noteBatch('s', 2, 3)), DuplicateEventError);
        expect(await store.lastSequence('s')).toBe(2);
      });
    });

    describe('optimistic concurrency', () => {
      it('a stale expected sequence is a ConcurrencyError carrying both sequences', async () => {
        await store.appendAll(noteBatch('s', 1, 2));
        const error = await expectRejection(
          store.append(noteEvent('s', 3), { expectedSequence: 1 }),
          ConcurrencyError,
        );
        expect(error).toMatchObject({
          sessionId: 's',
          expectedSequence: 1,
          actualSequence: 2,
          code: 'concurrency_conflict',
        });
      });

      it('a rejected append leaves no trace: the next correct append gets the next sequence', async () => {
        await store.append(noteEvent('s', 1), { expectedSequence: 0 });
        await expectRejection(
          store.append(noteEvent('s', 2), { expectedSequence: 0 }),
          ConcurrencyError,
        );
        await expectRejection(
          store.appendAll(noteBatch('s', 2, 5), { expectedSequence: 7 }),
          ConcurrencyError,
        );
        const next = await store.append(noteEvent('s', 2), { expectedSequence: 1 });
        expect(next.sequence).toBe(2);
        expect((await store.read('s')).map((event) => event.sequence)).toEqual([1, 2]);
        expect((await store.verify('s')).ok).toBe(true);
      });

      it('expectedSequence 0 means "the session must be new"', async () => {
        await store.append(noteEvent('s', 1), { expectedSequence: 0 });
        await expectRejection(
          store.append(noteEvent('s', 2), { expectedSequence: 0 }),
          ConcurrencyError,
        );
      });

      it('two writers interleaving never produce gaps or duplicates (property)', async () => {
        let run = 0;
        await fc.assert(
          fc.asyncProperty(
            fc.array(fc.constantFrom<'A' | 'B'>('A', 'B'), { minLength: 1, maxLength: 30 }),
            async (schedule) => {
              run += 1;
              const sessionId = `prop-${run}`;
              // Each writer keeps its own view of the last sequence and refreshes it only after a conflict.
              const view = { A: 0, B: 0 };
              const written = { A: 0, B: 0 };
              let conflicts = 0;
              let expectedConflicts = 0;
              let actual = 0;
              for (const writer of schedule) {
                const index = written.A + written.B + conflicts + 1;
                if (view[writer] !== actual) expectedConflicts += 1;
                try {
                  const stored = await store.append(
                    noteEvent(sessionId, index, { eventId: `${sessionId}-${writer}-${index}` }),
                    {
                      expectedSequence: view[writer],
                    },
                  );
                  written[writer] += 1;
                  actual = stored.sequence;
                  view[writer] = stored.sequence;
                } catch (error) {
                  if (!(error instanceof ConcurrencyError)) throw error;
                  conflicts += 1;
                  view[writer] = error.actualSequence;
                }
              }
              const events = await store.read(sessionId);
              expect(events.map((event) => event.sequence)).toEqual(events.map((_, i) => i + 1));
              expect(new Set(events.map((event) => event.eventId)).size).toBe(events.length);
              expect(events.length).toBe(written.A + written.B);
              expect(conflicts).toBe(expectedConflicts);
            },
          ),
          { numRuns: 40 },
        );
      });

      it('concurrent appends to one session without expectations all land, gapless', async () => {
        await Promise.all(
          Array.from({ length: 20 }, (_, i) => store.append(noteEvent('race', i + 1))),
        );
        const events = await store.read('race');
        expect(events.map((event) => event.sequence)).toEqual(
          Array.from({ length: 20 }, (_, i) => i + 1),
        );
      });
    });

    describe('driver fencing', () => {
      it('starts every session at epoch 0 and moves it on by one per take', async () => {
        expect(await store.driverEpoch('fenced')).toBe(0);
        // A session recorded before any driver took it is at epoch 0, and so is a driver of it.
        await store.append(noteEvent('fenced', 1), { driverEpoch: 0 });
        expect(await store.takeDriverEpoch('fenced')).toBe(1);
        expect(await store.takeDriverEpoch('fenced')).toBe(2);
        expect(await store.driverEpoch('fenced')).toBe(2);
        expect(await store.driverEpoch('other')).toBe(0);
      });

      it('refuses an append with a stale epoch and leaves the log untouched', async () => {
        const first = await store.takeDriverEpoch('fenced');
        await store.append(noteEvent('fenced', 1), { driverEpoch: first, expectedSequence: 0 });
        const second = await store.takeDriverEpoch('fenced');
        const before = await store.read('fenced');
        // With and without an expected sequence, one event and a batch: all refused.
        // Each started only when awaited: a rejection must never wait unhandled for its turn.
        for (const attempt of [
          () => store.append(noteEvent('fenced', 2), { driverEpoch: first, expectedSequence: 1 }),
          () => store.append(noteEvent('fenced', 2), { driverEpoch: first }),
          () => store.appendAll(noteBatch('fenced', 2, 3), { driverEpoch: first }),
        ]) {
          const error = await expectRejection(attempt(), StaleDriverError);
          expect(error).toMatchObject({
            code: 'driver_fenced',
            epoch: first,
            currentEpoch: second,
          });
        }
        expect(await store.read('fenced')).toEqual(before);
        expect(await store.lastSequence('fenced')).toBe(1);
        expect(await store.verify('fenced')).toMatchObject({ ok: true, lastSequence: 1 });
        // The global feed holds nothing of the refused appends either.
        const feed = await collect(store.readAll());
        expect(feed.filter((event) => event.sessionId === 'fenced')).toHaveLength(1);
        // The current driver appends; a command (no epoch) from anyone still lands.
        await store.append(noteEvent('fenced', 2), { driverEpoch: second, expectedSequence: 1 });
        await store.append(noteEvent('fenced', 3));
        expect(await store.lastSequence('fenced')).toBe(3);
        // An epoch ahead of the session's is no driver's either.
        await expectRejection(
          store.append(noteEvent('fenced', 4), { driverEpoch: second + 1 }),
          StaleDriverError,
        );
      });

      it('takes a session that has no events yet, and fences its first append', async () => {
        const first = await store.takeDriverEpoch('new-session');
        const second = await store.takeDriverEpoch('new-session');
        await expectRejection(
          store.append(noteEvent('new-session', 1), { driverEpoch: first, expectedSequence: 0 }),
          StaleDriverError,
        );
        expect(await store.lastSequence('new-session')).toBe(0);
        expect((await store.listSessions()).map((row) => row.sessionId)).not.toContain(
          'new-session',
        );
        await store.append(noteEvent('new-session', 1), {
          driverEpoch: second,
          expectedSequence: 0,
        });
        expect(await store.lastSequence('new-session')).toBe(1);
      });

      it('returns a batch stored before the epoch moved on when it is retried', async () => {
        const first = await store.takeDriverEpoch('fenced');
        const stored = await store.appendAll(noteBatch('fenced', 1, 2), { driverEpoch: first });
        await store.takeDriverEpoch('fenced');
        expect(await store.appendAll(noteBatch('fenced', 1, 2), { driverEpoch: first })).toEqual(
          stored,
        );
      });
    });

    describe('global feed', () => {
      it('readAll returns all sessions in append order from an exclusive position', async () => {
        await store.append(noteEvent('a', 1));
        await store.append(noteEvent('b', 1));
        await store.appendAll(noteBatch('a', 2, 2));
        const all = await collect(store.readAll());
        expect(all.map((event) => event.eventId)).toEqual([
          'a-e000001',
          'b-e000001',
          'a-e000002',
          'a-e000003',
        ]);
        const positions = all.map((event) => event.position);
        expect(positions).toEqual([...positions].sort((x, y) => x - y));
        const after = await collect(store.readAll({ afterPosition: all[1]!.position }));
        expect(after.map((event) => event.eventId)).toEqual(['a-e000002', 'a-e000003']);
        const limited = await collect(store.readAll({ limit: 2 }));
        expect(limited).toHaveLength(2);
      });

      it('subscribe delivers the backlog, says it caught up, then delivers live events once each', async () => {
        await store.appendAll(noteBatch('a', 1, 3));
        const controller = new AbortController();
        const received: SubscriptionMessage<EventPayload>[] = [];
        const done = (async () => {
          for await (const message of store.subscribe({ signal: controller.signal })) {
            received.push(message);
            if (message.type === 'event' && message.event.eventId === 'b-e000002')
              controller.abort();
          }
        })();
        await waitFor(() => received.some((message) => message.type === 'caught_up'));
        await store.append(noteEvent('b', 1));
        await store.append(noteEvent('b', 2));
        await done;
        const kinds = received.map((message) =>
          message.type === 'event' ? message.event.eventId : 'caught_up',
        );
        expect(kinds).toEqual([
          'a-e000001',
          'a-e000002',
          'a-e000003',
          'caught_up',
          'b-e000001',
          'b-e000002',
        ]);
      });

      it('a resumed subscription continues exactly after its cursor', async () => {
        const first = await store.appendAll(noteBatch('a', 1, 4));
        const controller = new AbortController();
        const seen: StoredEvent<EventPayload>[] = [];
        for await (const message of store.subscribe({
          afterPosition: first[1]!.position,
          signal: controller.signal,
        })) {
          if (message.type === 'event') seen.push(message.event);
          else controller.abort();
        }
        expect(seen.map((event) => event.sequence)).toEqual([3, 4]);
      });
    });

    describe('tamper evidence', () => {
      it('verify accepts an intact chain and reports its head', async () => {
        const stored = await store.appendAll(noteBatch('s', 1, 5));
        expect(await store.verify('s')).toEqual({
          ok: true,
          sessionId: 's',
          lastSequence: 5,
          headHash: stored[4]!.hash,
        });
        expect(await store.verify('empty')).toMatchObject({ ok: true, lastSequence: 0 });
      });

      it('chains each hash to the previous event', async () => {
        const [one, two] = await store.appendAll([stageEvent('s', 1), stageEvent('s', 2)]);
        const other = await store.append(stageEvent('t', 1));
        expect(one!.hash).not.toBe(two!.hash);
        expect(other.hash).not.toBe(one!.hash);
      });

      it('detects changed bytes: verify names the sequence and read fails with CorruptEventError', async () => {
        const stored = await store.appendAll(noteBatch('s', 1, 5));
        const forged = stored[2]!;
        const bytes = JSON.stringify({
          ...forged,
          position: undefined,
          hash: undefined,
          payload: { ...forged.payload, content: 'forged' },
        });
        await harness.tamper(store, 's', 3, { bytes });
        expect(await store.verify('s')).toMatchObject({ ok: false, sessionId: 's', sequence: 3 });
        const error = await expectRejection(store.read('s'), CorruptEventError);
        expect(error).toMatchObject({ sessionId: 's', sequence: 3, reason: 'hash' });
        // Events before the broken link still read.
        expect(await store.read('s', { limit: 2 })).toHaveLength(2);
      });

      it('detects a rewritten hash: the next link breaks', async () => {
        await store.appendAll(noteBatch('s', 1, 4));
        await harness.tamper(store, 's', 2, { hash: 'f'.repeat(64) });
        const result = await store.verify('s');
        expect(result).toMatchObject({ ok: false });
        if (!result.ok) expect(result.sequence).toBe(2);
      });

      it('detects a forged event whose own hash was recomputed: the next link breaks', async () => {
        const stored = await store.appendAll(noteBatch('s', 1, 4));
        const target = stored[1]!;
        const bytes = createEventCodec(correxEventCatalog).encode(
          {
            ...target,
            payload: { type: 'steering_note_added', sessionId: 's', content: 'forged' },
          },
          target.sequence,
        );
        await harness.tamper(store, 's', 2, {
          bytes,
          hash: chainHash(sha256Hex, stored[0]!.hash, bytes),
        });
        expect(await store.verify('s')).toMatchObject({ ok: false, sequence: 3 });
        const error = await expectRejection(store.read('s'), CorruptEventError);
        expect(error).toMatchObject({ sequence: 3, reason: 'hash' });
      });

      it('a row whose bytes are not JSON is a corrupt event, not a crash', async () => {
        await store.appendAll(noteBatch('s', 1, 2));
        await harness.tamper(store, 's', 2, { bytes: '{not json' });
        await expectRejection(store.read('s'), CorruptEventError);
      });
    });

    it('refuses use after close', async () => {
      await store.close();
      await expectRejection(store.append(noteEvent('s', 1)), StoreClosedError);
      store = await harness.open();
    });
  });
}

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

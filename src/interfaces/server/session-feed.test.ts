import { describe, expect, it } from 'vitest';
import { correxEventCatalog, type CorrexEvent } from '../../core/event-catalog.js';
import { createInMemoryEventStore } from '../../core/events/in-memory-event-store.js';
import { noteBatch } from '../../../test/support/sample-events.js';
import { createSessionFeed } from './session-feed.js';

const range = (from: number, to: number) =>
  Array.from({ length: Math.max(0, to - from + 1) }, (_unused, index) => from + index);

describe('the session feed', () => {
  it('gives followers that join mid-write every sequence after their cursor exactly once', async () => {
    const store = createInMemoryEventStore({ catalog: correxEventCatalog });
    const feed = createSessionFeed({ store });
    const sessions = ['a', 'b', 'c'];
    for (const session of sessions) await store.appendAll(noteBatch(session, 1, 5));
    const stop = new AbortController();
    const followers: { session: string; cursor: number; seen: number[]; caughtUp: number[] }[] = [];
    const joins: Promise<void>[] = [];
    // The writer appends batches while followers join at different points and cursors.
    for (let round = 0; round < 40; round++) {
      const session = sessions[round % 3]!;
      const last = await store.lastSequence(session);
      const appending = store.appendAll(noteBatch(session, last + 1, 1 + (round % 4)), {
        expectedSequence: last,
      });
      const follower = {
        session,
        cursor: round % 7,
        seen: [] as number[],
        caughtUp: [] as number[],
      };
      followers.push(follower);
      joins.push(
        feed.follow(
          session,
          follower.cursor,
          {
            onEvent: (event: CorrexEvent) => void follower.seen.push(event.sequence),
            onCaughtUp: (sequence) => void follower.caughtUp.push(sequence),
            onError: (error) => expect.fail(String(error)),
          },
          stop.signal,
        ),
      );
      await appending;
    }
    await Promise.all(joins);
    // One more append each, then let the shared subscription deliver it.
    for (const session of sessions) {
      const last = await store.lastSequence(session);
      await store.appendAll(noteBatch(session, last + 1, 2), { expectedSequence: last });
    }
    const totals = new Map<string, number>();
    for (const session of sessions) totals.set(session, await store.lastSequence(session));
    const done = () => followers.every((f) => f.seen.at(-1) === totals.get(f.session));
    while (!done()) await new Promise((resolve) => setTimeout(resolve, 5));
    for (const follower of followers) {
      expect(follower.seen).toEqual(range(follower.cursor + 1, totals.get(follower.session)!));
      expect(follower.caughtUp).toHaveLength(1);
    }
    expect(feed.followers()).toBe(followers.length);
    stop.abort();
    expect(feed.followers()).toBe(0);
    await feed.close();
    await store.close();
  });
});

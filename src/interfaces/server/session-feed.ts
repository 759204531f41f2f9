import type { CorrexEvent, CorrexEventStore } from '../../core/event-catalog.js';
import { headPosition } from './store-head-position.js';

/** Someone who follows one session's events (a WebSocket subscription). */
export type FeedFollower = {
  /** Each event once, in sequence order with no gap; `live` is false while catching up. */
  onEvent(event: CorrexEvent, live: boolean): void;
  /** Every event recorded before `follow` was called has been delivered; live ones follow. */
  onCaughtUp(sequence: number): void;
  /** The feed broke (the store failed); nothing more arrives for this follower. */
  onError(error: unknown): void;
  /**
   * Backpressure for reading the store: a promise while the follower cannot take more (its
   * socket has not sent what it holds), undefined when it can. Events read from the store wait
   * for it; live ones are not held back.
   */
  ready?(): Promise<void> | undefined;
};

/**
 * Fans one store subscription out to every follower of every session, so that a hundred
 * sockets cost one subscription, not a hundred.
 */
export type SessionFeed = {
  /**
   * Delivers the session's events after `afterSequence` from the store, then live events as the
   * shared subscription yields them, until `signal` aborts. Resolves once caught up. Events the
   * subscription yields during catch-up are buffered and deduplicated by sequence, and a gap
   * (which a consistent store never produces) is filled from the store, so a follower sees each
   * sequence exactly once.
   */
  follow(
    sessionId: string,
    afterSequence: number,
    follower: FeedFollower,
    signal: AbortSignal,
  ): Promise<void>;
  /** How many followers are attached (for tests and metrics). */
  followers(): number;
  close(): Promise<void>;
};

const PAGE = 500;

type Follow = {
  readonly sessionId: string;
  readonly follower: FeedFollower;
  cursor: number;
  state: 'catching_up' | 'live' | 'filling';
  buffer: CorrexEvent[];
  closed: boolean;
};

export function createSessionFeed(options: { readonly store: CorrexEventStore }): SessionFeed {
  const { store } = options;
  const bySession = new Map<string, Set<Follow>>();
  const stop = new AbortController();
  let started: Promise<void> | null = null;
  let pump: Promise<void> = Promise.resolve();

  const add = (follow: Follow) => {
    let set = bySession.get(follow.sessionId);
    if (!set) bySession.set(follow.sessionId, (set = new Set()));
    set.add(follow);
  };
  const remove = (follow: Follow) => {
    follow.closed = true;
    const set = bySession.get(follow.sessionId);
    set?.delete(follow);
    if (set?.size === 0) bySession.delete(follow.sessionId);
  };

  const deliverLive = (follow: Follow, event: CorrexEvent) => {
    if (follow.closed || event.sequence <= follow.cursor) return;
    if (event.sequence === follow.cursor + 1) {
      follow.cursor = event.sequence;
      follow.follower.onEvent(event, true);
      return;
    }
    follow.state = 'filling';
    follow.buffer.push(event);
    void fill(follow);
  };

  /** Reads from the store what the follower has not seen yet; the store's read is gapless. */
  const readMissing = async (follow: Follow, live: boolean) => {
    for (;;) {
      const page = await store.read(follow.sessionId, {
        afterSequence: follow.cursor,
        limit: PAGE,
      });
      for (const event of page) {
        const wait = follow.follower.ready?.();
        if (wait !== undefined) await wait;
        if (follow.closed) return;
        if (event.sequence !== follow.cursor + 1) continue;
        follow.cursor = event.sequence;
        follow.follower.onEvent(event, live);
      }
      if (page.length < PAGE || follow.closed) return;
    }
  };

  const drain = (follow: Follow) => {
    const buffered = follow.buffer.sort((a, b) => a.sequence - b.sequence);
    follow.buffer = [];
    follow.state = 'live';
    for (const event of buffered) {
      if (follow.state !== 'live') follow.buffer.push(event);
      else deliverLive(follow, event);
    }
  };

  const fill = async (follow: Follow) => {
    try {
      const before = follow.cursor;
      await readMissing(follow, true);
      const next = follow.buffer.reduce((min, event) => Math.min(min, event.sequence), Infinity);
      if (follow.cursor === before && next > follow.cursor + 1) {
        throw new Error(
          `session ${follow.sessionId}: the feed yielded #${next} but the store has nothing after #${follow.cursor}`,
        );
      }
      drain(follow);
    } catch (error) {
      remove(follow);
      follow.follower.onError(error);
    }
  };

  const dispatch = (event: CorrexEvent) => {
    const set = bySession.get(event.sessionId);
    if (!set) return;
    for (const follow of set) {
      if (follow.state === 'live') deliverLive(follow, event);
      else follow.buffer.push(event);
    }
  };

  const start = async () => {
    const head = await headPosition(store);
    const subscription = store.subscribe({ afterPosition: head, signal: stop.signal });
    pump = (async () => {
      try {
        for await (const message of subscription) {
          if (message.type === 'event') dispatch(message.event);
        }
      } catch (error) {
        if (stop.signal.aborted) return;
        // Every follower learns that its stream ended; the next follow starts a new subscription.
        started = null;
        for (const set of bySession.values()) {
          for (const follow of set) {
            follow.closed = true;
            follow.follower.onError(error);
          }
        }
        bySession.clear();
      }
    })();
  };

  return {
    async follow(sessionId, afterSequence, follower, signal) {
      if (stop.signal.aborted) throw new Error('the session feed is closed');
      await (started ??= start());
      const follow: Follow = {
        sessionId,
        follower,
        cursor: afterSequence,
        state: 'catching_up',
        buffer: [],
        closed: false,
      };
      if (signal.aborted) return;
      add(follow);
      signal.addEventListener('abort', () => remove(follow), { once: true });
      try {
        await readMissing(follow, false);
      } catch (error) {
        remove(follow);
        throw error;
      }
      if (follow.closed) return;
      // From here on nothing awaits: caught_up and the buffered live events go out in one turn.
      follower.onCaughtUp(follow.cursor);
      drain(follow);
    },
    followers: () => [...bySession.values()].reduce((sum, set) => sum + set.size, 0),
    async close() {
      stop.abort();
      for (const set of bySession.values()) for (const follow of set) follow.closed = true;
      bySession.clear();
      await pump;
    },
  };
}

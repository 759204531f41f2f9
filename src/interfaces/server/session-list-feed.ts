import { leaseColumns, lockColumns, type SessionLeaseView } from '../session-lease.js';
import type { Logger } from 'pino';
import type { CorrexEventStore } from '../../core/event-catalog.js';
import type { SessionListItemDto } from '../protocol/session-dto.js';
import { toSessionListItemDto } from '../protocol/to-session-dto.js';
import type { SessionIndex } from './session-index.js';
import { headPosition } from './store-head-position.js';
import { spendOf } from '../../core/kernel/index.js';

/** Someone who watches the session list (a socket that sent `subscribe_sessions`). */
export type SessionListWatcher = (session: SessionListItemDto) => void;

/**
 * The session list, live: after any event of any session, that session's list row goes to
 * every watcher. Rows are throttled per session: the first event sends at once, further
 * events within `throttleMs` are folded into one row sent when the interval ends. One store
 * subscription serves all watchers; it runs only while someone watches.
 */
export type SessionListFeed = {
  /**
   * Adds a watcher. `ready` settles once the store subscription is in place: every event after
   * that reaches the watcher (a client re-reads the list then, so nothing falls between).
   */
  watch(watcher: SessionListWatcher): { readonly ready: Promise<void>; stop(): void };
  watchers(): number;
  close(): Promise<void>;
};

type Throttle = { dirty: boolean; last: string };

export function createSessionListFeed(options: {
  readonly store: CorrexEventStore;
  readonly index: SessionIndex;
  /** The sessions this process drives now (a row's `running`). */
  readonly running: () => readonly string[];
  /** The sessions this process holds while they wait for a person (a row's `attended`). */
  readonly attending?: () => readonly string[];
  /** The process holding a session's lock file (SQLite), when no shared store names drivers. */
  readonly lockHolder?: (sessionId: string) => string | null;
  /** Who drives each session now, any process (a shared store); absent: rows carry no `driver`. */
  readonly drivers?: () => Promise<ReadonlyMap<string, SessionLeaseView>>;
  readonly logger: Logger;
  readonly throttleMs?: number;
}): SessionListFeed {
  const { store, index, logger } = options;
  const throttleMs = options.throttleMs ?? 250;
  const watchers = new Set<SessionListWatcher>();
  const throttles = new Map<string, Throttle>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let subscription: { controller: AbortController; ready: Promise<void> } | null = null;
  let closed = false;

  const row = async (sessionId: string): Promise<SessionListItemDto | null> => {
    const session = await index.get(sessionId);
    if (session === null) return null;
    const { state } = session;
    const drivers = await options.drivers?.();
    return {
      ...toSessionListItemDto(
        {
          sessionId,
          lastSequence: state.lastSequence,
          firstTimestamp: session.firstTimestamp,
          lastTimestamp: session.lastTimestamp,
        },
        state,
        options.running().includes(sessionId),
        session.mode,
        spendOf(session.spend).costUsd,
      ),
      attended: options.attending?.().includes(sessionId) ?? false,
      ...(drivers === undefined
        ? lockColumns({ lockHolder: options.lockHolder }, sessionId)
        : leaseColumns(drivers.get(sessionId))),
    };
  };

  /** Sends the row unless it equals the last one sent, then waits out the interval. */
  const emit = async (sessionId: string, throttle: Throttle) => {
    throttle.dirty = false;
    try {
      const current = await row(sessionId);
      const text = JSON.stringify(current);
      if (current !== null && text !== throttle.last && !closed) {
        throttle.last = text;
        for (const watcher of watchers) watcher(current);
      }
    } catch (error) {
      logger.error({ err: error, sessionId }, 'session list row failed');
    }
    if (closed) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      // Once more at the end of the interval: events since, or a change of `running`.
      if (throttle.dirty || options.running().includes(sessionId)) {
        void emit(sessionId, throttle);
      } else {
        throttles.delete(sessionId);
      }
    }, throttleMs);
    timers.add(timer);
  };

  const changed = (sessionId: string) => {
    const throttle = throttles.get(sessionId);
    if (throttle) {
      throttle.dirty = true;
      return;
    }
    const fresh: Throttle = { dirty: false, last: '' };
    throttles.set(sessionId, fresh);
    void emit(sessionId, fresh);
  };

  const start = (): Promise<void> => {
    const controller = new AbortController();
    let markReady = () => undefined as void;
    const ready = new Promise<void>((resolve) => (markReady = resolve));
    const current = { controller, ready };
    subscription = current;
    void (async () => {
      try {
        const head = await headPosition(store);
        if (controller.signal.aborted) return;
        const messages = store.subscribe({ afterPosition: head, signal: controller.signal });
        markReady();
        for await (const message of messages) {
          if (message.type === 'event') changed(message.event.sessionId);
        }
      } catch (error) {
        if (controller.signal.aborted) return;
        logger.error({ err: error }, 'session list subscription failed');
        if (subscription === current) subscription = null;
        if (watchers.size > 0 && !closed) void start();
      } finally {
        markReady();
      }
    })();
    return ready;
  };

  const stop = () => {
    subscription?.controller.abort();
    subscription = null;
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
    throttles.clear();
  };

  return {
    watch(watcher) {
      if (closed) return { ready: Promise.resolve(), stop: () => undefined };
      watchers.add(watcher);
      const ready = subscription?.ready ?? start();
      return {
        ready,
        stop() {
          if (!watchers.delete(watcher)) return;
          if (watchers.size === 0) stop();
        },
      };
    },
    watchers: () => watchers.size,
    async close() {
      closed = true;
      watchers.clear();
      stop();
    },
  };
}

import type { CorrexEventStore } from '../core/event-catalog.js';
import type { SessionLock } from '../infrastructure/locks/session-locker.js';

/**
 * Sessions this host started that now wait for a person (an approval, a budget): the host keeps
 * their driver lock, so `correx sessions` and `show` see them driven, not "interrupted (nobody
 * driving)", and wakes them as soon as anything is recorded for them, from whichever process (a
 * `correx approve` in a terminal too, not only an answer through this host).
 */
export type AttendedSessions = {
  /** Keeps `lock` for `sessionId` and calls `wake` once when its log grows past `lastSequence`. */
  hold(sessionId: string, lastSequence: number, lock: SessionLock, wake: () => void): Promise<void>;
  /** The held lock, handed to whoever drives the session next; undefined when none is held. */
  take(sessionId: string): SessionLock | undefined;
  /** The sessions held now (each waits for a person; a decision drives it on here). */
  held(): readonly string[];
  /** Releases every held lock (the host is shutting down). */
  releaseAll(): Promise<void>;
};

export function createAttendedSessions(store: CorrexEventStore): AttendedSessions {
  const held = new Map<string, { lock: SessionLock; stop: AbortController }>();
  const take = (sessionId: string): SessionLock | undefined => {
    const entry = held.get(sessionId);
    if (entry === undefined) return undefined;
    held.delete(sessionId);
    entry.stop.abort();
    return entry.lock;
  };
  return {
    async hold(sessionId, lastSequence, lock, wake) {
      // The feed position of the last event the run saw: anything recorded since wakes it.
      const tail = await store.read(sessionId, {
        afterSequence: Math.max(0, lastSequence - 1),
        limit: 1,
      });
      const stop = new AbortController();
      held.set(sessionId, { lock, stop });
      const watch = async () => {
        for await (const message of store.subscribe({
          afterPosition: tail[0]?.position ?? 0,
          signal: stop.signal,
        })) {
          if (message.type !== 'event' || message.event.sessionId !== sessionId) continue;
          if (held.get(sessionId)?.stop === stop) wake();
          return;
        }
      };
      // A watch that fails (the store closed under it) leaves the lock held until shutdown.
      void watch().catch(() => undefined);
    },
    take,
    held: () => [...held.keys()],
    async releaseAll() {
      for (const sessionId of [...held.keys()]) await take(sessionId)?.release();
    },
  };
}

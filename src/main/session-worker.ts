import type { Clock } from '../core/base/clock.js';
import type { IdSource } from '../core/base/id-source.js';
import { CorrexError } from '../core/base/correx-error.js';
import type { CorrexEventStore } from '../core/event-catalog.js';
import { replay } from '../core/events/replay.js';
import { recordCommand } from '../core/kernel/index.js';
import { sessionProjection } from '../core/sessions/session-projection.js';
import type { SessionHost } from '../interfaces/session-host.js';
import { SHUTDOWN_ACTOR } from './session-host.js';

/** Where a worker finds sessions to drive (a shared store's runnable table). */
export type RunnableSource = {
  /** Up to `limit` runnable sessions that no process drives now. */
  free(limit: number): Promise<string[]>;
  /** Calls `onRunnable` when a session may have become runnable; a lost call is made good by the sweep. */
  listen(onRunnable: () => void): { ensure(): void; close(): Promise<void> };
};

export type SessionWorkerOptions = {
  /** This worker's name, as its driver records and events name it. */
  readonly name: string;
  readonly host: SessionHost;
  readonly runnable: RunnableSource;
  readonly store: CorrexEventStore;
  readonly clock: Clock;
  readonly ids: IdSource;
  /** Most sessions driven at once. */
  readonly concurrency: number;
  /** How often to look for runnable sessions when no notification came (a dead driver's). */
  readonly sweepMs: number;
  /** A session taken up (and, when known, how long after it became runnable). */
  readonly onTaken?: (sessionId: string) => void;
  readonly onStopped?: (sessionId: string, status: string) => void;
  readonly onError?: (sessionId: string | null, error: unknown) => void;
  /** The store answers again after an outage that `onError` reported once. */
  readonly onReconnected?: () => void;
};

/** The longest wait between two looks at a store that does not answer. */
const MAX_BACKOFF_MS = 30_000;

function unreachable(error: unknown): boolean {
  return CorrexError.isInstance(error) && error.code === 'postgres_connect_failed';
}

export type SessionWorker = {
  readonly name: string;
  /** The sessions driven here now. */
  driving(): readonly string[];
  /**
   * Stops taking sessions, pauses those driven here (running steps finish within the host's
   * grace), and resumes them in the log so that another worker takes them up.
   */
  stop(): Promise<{ handedBack: string[] }>;
};

/**
 * A worker: drives runnable sessions of a shared store, at most `concurrency` at once. The host's
 * driver lease decides who drives (a second taker gets SessionBusyError and moves on), and the
 * driver epoch it takes fences every append of an earlier holder; a dead worker's leases end
 * with its connections, a silent one's when it stops renewing, and the next sweep finds its
 * sessions free.
 */
export function startSessionWorker(options: SessionWorkerOptions): SessionWorker {
  const { host, runnable } = options;
  const active = new Set<string>();
  /** Sessions whose drive just failed: left alone until the time given, so one fault cannot spin. */
  const resting = new Map<string, number>();
  let stopping = false;
  let filling: Promise<void> | null = null;
  let again = false;
  /**
   * While the store does not answer (a restart, a failover): how many looks failed in a row,
   * and when the next may go out. One line says it is gone, one that it is back.
   */
  let outage: { failures: number; retryAt: number } | null = null;
  const storeFailed = (error: unknown) => {
    if (outage === null) {
      options.onError?.(null, error);
      outage = { failures: 0, retryAt: 0 };
    }
    outage.failures += 1;
    const backoff = Math.min(MAX_BACKOFF_MS, options.sweepMs * 2 ** Math.min(outage.failures, 6));
    outage.retryAt = Date.now() + backoff;
  };
  const storeAnswered = () => {
    if (outage === null) return;
    outage = null;
    options.onReconnected?.();
  };

  const take = (sessionId: string) => {
    active.add(sessionId);
    void host
      .resume(sessionId)
      .then((run) => {
        options.onTaken?.(sessionId);
        return run.done;
      })
      .then(
        (outcome) => {
          // A sub-session waits for a person: its parent stays runnable in the table (only the
          // child recorded the request), so it is left alone for a while instead of retaken at once.
          const waiting = outcome.waiting;
          if (waiting !== null && 'sessionId' in waiting && waiting.sessionId !== undefined)
            resting.set(sessionId, Date.now() + options.sweepMs * 5);
          options.onStopped?.(sessionId, outcome.status);
        },
        (error: unknown) => {
          // Another process took it between the listing and the lock: it is driven, all is
          // well. Left alone until the next sweep, so a wake-up does not reach for it again.
          if (CorrexError.isInstance(error) && error.code === 'session_busy') {
            resting.set(sessionId, Date.now() + options.sweepMs);
            return;
          }
          // Lost to another driver, or its lease ended (the host said so): whoever holds it now
          // drives it; if nobody does (a blip of this worker's connection), the next sweep may
          // take it again.
          if (
            CorrexError.isInstance(error) &&
            (error.code === 'driver_fenced' || error.code === 'driver_lease_lost')
          ) {
            resting.set(sessionId, Date.now() + options.sweepMs);
            return;
          }
          resting.set(sessionId, Date.now() + options.sweepMs * 5);
          // The store went away under it: said once for the whole outage, not per session.
          if (unreachable(error)) storeFailed(error);
          else options.onError?.(sessionId, error);
        },
      )
      .finally(() => {
        active.delete(sessionId);
        wake();
      });
  };

  const fill = async () => {
    const now = Date.now();
    if (outage !== null && now < outage.retryAt) return;
    for (const [sessionId, until] of resting) if (until <= now) resting.delete(sessionId);
    const room = options.concurrency - active.size;
    if (room <= 0) return;
    const free = await runnable.free(room + active.size + resting.size);
    storeAnswered();
    // Workers woken by one notification would all reach for the oldest session first; in a
    // random order each tends to take a different one, and fewer lose the race for the lock.
    for (let index = free.length - 1; index > 0; index--) {
      const other = Math.floor(Math.random() * (index + 1));
      [free[index], free[other]] = [free[other]!, free[index]!];
    }
    for (const sessionId of free) {
      if (stopping || active.size >= options.concurrency) return;
      if (active.has(sessionId) || resting.has(sessionId)) continue;
      take(sessionId);
    }
  };

  /** One look at a time; a wake-up during a look asks for one more after it. */
  const wake = () => {
    if (stopping) return;
    if (filling !== null) {
      again = true;
      return;
    }
    filling = fill()
      .catch((error: unknown) =>
        unreachable(error) ? storeFailed(error) : options.onError?.(null, error),
      )
      .finally(() => {
        filling = null;
        if (again) {
          again = false;
          wake();
        }
      });
  };

  const listener = runnable.listen(wake);
  const sweep = setInterval(() => {
    listener.ensure();
    wake();
  }, options.sweepMs);
  wake();

  return {
    name: options.name,
    driving: () => [...active],
    async stop() {
      stopping = true;
      clearInterval(sweep);
      await listener.close();
      await filling;
      const mine = host.running();
      await host.shutdown();
      // Paused by this stop, so resumed here: the log says the session goes on, and the
      // runnable table wakes another worker for it.
      const handedBack: string[] = [];
      for (const sessionId of mine) {
        const { state } = await replay(options.store, sessionProjection, sessionId);
        if (state.status !== 'paused' || !(await pausedByShutdown(options.store, sessionId)))
          continue;
        await recordCommand(options, options.store, sessionId, {
          type: 'resume',
          by: options.name,
        });
        handedBack.push(sessionId);
      }
      return { handedBack };
    },
  };
}

/** Whether the session's latest pause is the one a shutdown recorded. */
async function pausedByShutdown(store: CorrexEventStore, sessionId: string): Promise<boolean> {
  let by: string | null = null;
  for await (const event of store.stream(sessionId))
    if (event.payload.type === 'orchestration_paused') by = event.payload.by;
  return by === SHUTDOWN_ACTOR;
}

import { describe, expect, it } from 'vitest';
import { SessionBusyError } from '../infrastructure/locks/session-locker.js';
import type { CorrexEventStore } from '../core/event-catalog.js';
import type { RunOutcome } from '../core/kernel/runner/run-session-types.js';
import type { HostedRun, SessionHost } from '../interfaces/session-host.js';
import { startSessionWorker, type RunnableSource } from './session-worker.js';

/** A host whose runs end when the test says, counting how many run at once. */
function controlledHost(busy: ReadonlySet<string>) {
  const finishers = new Map<string, () => void>();
  let now = 0;
  let most = 0;
  const resumed: string[] = [];
  const host: Pick<SessionHost, 'resume' | 'running' | 'shutdown'> = {
    resume(sessionId): Promise<HostedRun> {
      if (busy.has(sessionId)) return Promise.reject(new SessionBusyError(sessionId, 'another'));
      resumed.push(sessionId);
      now++;
      most = Math.max(most, now);
      const done = new Promise<RunOutcome>((resolve) =>
        finishers.set(sessionId, () => {
          now--;
          finishers.delete(sessionId);
          resolve({ status: 'completed', waiting: null } as unknown as RunOutcome);
        }),
      );
      return Promise.resolve({ sessionId, done });
    },
    running: () => [...finishers.keys()],
    shutdown: () => Promise.resolve(),
  };
  return {
    host: host as SessionHost,
    finishers,
    resumed,
    most: () => most,
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('startSessionWorker', () => {
  it('drives at most its concurrency at once, takes the next as one ends, and skips a session another process holds', async () => {
    const runnable = new Set(Array.from({ length: 10 }, (_, index) => `s${index}`));
    const busy = new Set(['s0']);
    const { host, finishers, resumed, most } = controlledHost(busy);
    const source: RunnableSource = {
      // What a store answers: runnable and not locked (a finished run leaves the table); s0 is
      // listed but another process takes its lock first, every time.
      free: (limit) =>
        Promise.resolve([...runnable].filter((id) => !finishers.has(id)).slice(0, limit)),
      listen: () => ({ ensure: () => undefined, close: () => Promise.resolve() }),
    };
    const worker = startSessionWorker({
      name: 'correx worker test',
      host,
      runnable: source,
      store: {} as CorrexEventStore,
      clock: { now: () => '2026-01-01T00:00:00.000Z' },
      ids: { next: () => 'id' },
      concurrency: 3,
      sweepMs: 3_600_000,
    });
    await settle();
    expect(worker.driving()).toHaveLength(3);
    while (runnable.size > 1) {
      const [first] = finishers.keys();
      if (first === undefined) break;
      runnable.delete(first);
      finishers.get(first)!();
      for (let tick = 0; tick < 5; tick++) await settle();
      expect(worker.driving().length).toBeLessThanOrEqual(3);
    }
    expect(most()).toBe(3);
    expect(new Set(resumed).size).toBe(resumed.length);
    expect(resumed).not.toContain('s0');
    expect([...runnable]).toEqual(['s0']);
    expect(await worker.stop()).toEqual({ handedBack: [] });
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { createWakeSender } from './postgres-wake-sender.js';

/** A send that stays in flight until the test lets it finish. */
function heldSends() {
  const sent: boolean[] = [];
  const finish: (() => void)[] = [];
  const send = (runnable: boolean) => {
    sent.push(runnable);
    return new Promise<void>((resolve) => finish.push(resolve));
  };
  const release = async () => {
    finish.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { sent, send, release };
}

describe('post-commit wake-ups', () => {
  it('sends at once, and folds the wake-ups that arrive meanwhile into one more', async () => {
    const { sent, send, release } = heldSends();
    const wakes = createWakeSender(send);
    wakes.wake(false);
    expect(sent).toEqual([false]);
    wakes.wake(false);
    wakes.wake(true);
    wakes.wake(false);
    expect(sent).toEqual([false]);
    await release();
    // The runnable channel asked for by any of the folded wake-ups is not lost.
    expect(sent).toEqual([false, true]);
    await release();
    const flushed = wakes.flush();
    await flushed;
    wakes.wake(false);
    expect(sent).toEqual([false, true, false]);
    await release();
  });

  it('flush waits for the wake-up in flight; a failed send does not stop later ones', async () => {
    let calls = 0;
    const wakes = createWakeSender(async () => {
      calls += 1;
      if (calls === 1) throw new Error('connection lost');
    });
    wakes.wake(false);
    await wakes.flush();
    wakes.wake(false);
    await wakes.flush();
    expect(calls).toBe(2);
  });

  describe('with an interval', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('sends the first at once and the ones that follow within the interval as one, after it', async () => {
      vi.useFakeTimers();
      const sent: boolean[] = [];
      const wakes = createWakeSender(
        async (runnable) => {
          sent.push(runnable);
        },
        { intervalMs: 5, now: () => Date.now() },
      );
      wakes.wake(false);
      expect(sent).toEqual([false]);
      await vi.advanceTimersByTimeAsync(1);
      wakes.wake(false);
      wakes.wake(true);
      await vi.advanceTimersByTimeAsync(3);
      expect(sent).toEqual([false]);
      await vi.advanceTimersByTimeAsync(1);
      // One more for both, carrying the runnable channel.
      expect(sent).toEqual([false, true]);
      // A wake-up after a quiet spell goes out at once again.
      await vi.advanceTimersByTimeAsync(100);
      wakes.wake(false);
      expect(sent).toEqual([false, true, false]);
      await wakes.flush();
    });

    it('flush sends what is pending without waiting out the interval', async () => {
      const sent: boolean[] = [];
      const wakes = createWakeSender(
        async (runnable) => {
          sent.push(runnable);
        },
        { intervalMs: 3_600_000 },
      );
      wakes.wake(false);
      wakes.wake(true);
      // The second is already waiting out the interval.
      await new Promise((resolve) => setImmediate(resolve));
      expect(sent).toEqual([false]);
      await wakes.flush();
      expect(sent).toEqual([false, true]);
    });
  });
});

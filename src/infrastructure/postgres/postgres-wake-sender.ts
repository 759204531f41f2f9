/**
 * Sends the post-commit NOTIFY wake-ups without making an append wait for them, and folds the
 * wake-ups that arrive while one is in flight, or within `intervalMs` after one was sent, into
 * one more: a listener reads everything new whenever it wakes, so one NOTIFY after a burst of
 * appends wakes it as well as one per append, and writers stop paying a NOTIFY transaction (a
 * round trip, a transaction id, a commit record) per append. A wake-up after a quiet spell is
 * sent at once; under load they go out at most once per interval, each after the commits it
 * covers. A lost wake-up delays delivery until the next poll, never loses events.
 */
export type WakeSender = {
  /** Asks for a wake-up of the event channel, and of the runnable channel when `runnable`. */
  wake(runnable: boolean): void;
  /** Sends what is pending now, without waiting out the interval, and resolves once sent (or failed). */
  flush(): Promise<void>;
};

export type WakeSenderOptions = {
  /** Least time between the starts of two sends, in ms (default 0: only in-flight folding). */
  readonly intervalMs?: number;
  /** Milliseconds from any fixed point (default `performance.now`). */
  readonly now?: () => number;
};

export function createWakeSender(
  send: (runnable: boolean) => Promise<unknown>,
  options: WakeSenderOptions = {},
): WakeSender {
  const intervalMs = options.intervalMs ?? 0;
  const now = options.now ?? (() => performance.now());
  let sending: Promise<void> | undefined;
  let pending = false;
  let pendingRunnable = false;
  let lastSentAt = -Infinity;
  let hurry = false;
  let skipWait: (() => void) | undefined;

  async function drain(): Promise<void> {
    try {
      while (pending) {
        const wait = lastSentAt + intervalMs - now();
        if (wait > 0 && !hurry) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, wait);
            skipWait = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          skipWait = undefined;
        }
        const runnable = pendingRunnable;
        pending = false;
        pendingRunnable = false;
        lastSentAt = now();
        await send(runnable).catch(() => undefined);
      }
    } finally {
      // Cleared in the same step that saw nothing pending, so a later wake starts a new drain.
      sending = undefined;
      hurry = false;
    }
  }

  return {
    wake(runnable) {
      pending = true;
      pendingRunnable ||= runnable;
      sending ??= drain();
    },
    async flush() {
      if (!sending) return;
      hurry = true;
      skipWait?.();
      await sending;
    },
  };
}

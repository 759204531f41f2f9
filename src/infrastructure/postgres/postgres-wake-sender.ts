/**
 * Sends the post-commit NOTIFY wake-ups without making an append wait for them, and folds the
 * wake-ups that arrive while one is in flight into one more: a listener reads everything new
 * whenever it wakes, so one NOTIFY after a burst of appends wakes it as well as one per append,
 * and concurrent writers stop queueing on PostgreSQL's notify lock. A lost wake-up delays
 * delivery until the next poll, never loses events.
 */
export type WakeSender = {
  /** Asks for a wake-up of the event channel, and of the runnable channel when `runnable`. */
  wake(runnable: boolean): void;
  /** Resolves once every wake-up asked for so far has been sent (or failed). */
  flush(): Promise<void>;
};

export function createWakeSender(send: (runnable: boolean) => Promise<unknown>): WakeSender {
  let sending: Promise<void> | undefined;
  let pending = false;
  let pendingRunnable = false;

  async function drain(): Promise<void> {
    try {
      while (pending) {
        const runnable = pendingRunnable;
        pending = false;
        pendingRunnable = false;
        await send(runnable).catch(() => undefined);
      }
    } finally {
      // Cleared in the same step that saw nothing pending, so a later wake starts a new drain.
      sending = undefined;
    }
  }

  return {
    wake(runnable) {
      pending = true;
      pendingRunnable ||= runnable;
      sending ??= drain();
    },
    async flush() {
      await sending;
    },
  };
}

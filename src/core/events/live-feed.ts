import type { PayloadShape, StoredEvent } from './event-envelope.js';
import type { SubscribeOptions, SubscriptionMessage } from './event-store.js';

/**
 * Wakes waiters when a store appends. `next()` must be called *before* reading, so an append
 * that lands between the read and the wait is not missed.
 */
export type AppendNotifier = {
  next(): Promise<void>;
  notify(): void;
};

export function createAppendNotifier(): AppendNotifier {
  let wake: (() => void) | undefined;
  let pending: Promise<void> | undefined;
  return {
    next() {
      pending ??= new Promise<void>((resolve) => {
        wake = resolve;
      });
      return pending;
    },
    notify() {
      const resolve = wake;
      wake = undefined;
      pending = undefined;
      resolve?.();
    },
  };
}

export type LiveFeedSource<Payload extends PayloadShape> = {
  /** One page of the global feed after `afterPosition`. */
  readPage(afterPosition: number, limit: number): Promise<StoredEvent<Payload>[]>;
  /** Resolves at the next change (or when the store wants the feed to look again). */
  nextChange(): Promise<void>;
};

const PAGE_SIZE = 500;

/** Catch-up then live delivery over any store's global feed; shared by every store. */
export async function* liveFeed<Payload extends PayloadShape>(
  source: LiveFeedSource<Payload>,
  options: SubscribeOptions = {},
): AsyncGenerator<SubscriptionMessage<Payload>> {
  const { signal } = options;
  let position = options.afterPosition ?? 0;
  let caughtUp = false;
  const aborted = new Promise<'aborted'>((resolve) => {
    if (signal?.aborted) resolve('aborted');
    signal?.addEventListener('abort', () => resolve('aborted'), { once: true });
  });
  while (!signal?.aborted) {
    const change = source.nextChange();
    const page = await source.readPage(position, PAGE_SIZE);
    for (const event of page) {
      if (signal?.aborted) return;
      position = event.position;
      yield { type: 'event', event };
    }
    if (page.length === PAGE_SIZE) continue;
    if (!caughtUp) {
      caughtUp = true;
      yield { type: 'caught_up', position };
    }
    if ((await Promise.race([change, aborted])) === 'aborted') return;
  }
}

import type { CorrexEvent, CorrexEventStore } from '../../core/event-catalog.js';
import { formatEventJson } from './event-json.js';

export type JsonEventStream = {
  /** Follows a session's log from after `afterSequence`. */
  follow(sessionId: string, afterSequence: number): void;
  /** A host's live event: its session (a sub-session too) is followed from this event on. */
  readonly onEvent: (event: CorrexEvent) => void;
  /** Writes a line that is not an event (a waiting notice, the summary), after those before it. */
  write(object: unknown): Promise<void>;
  /** Writes every event appended so far; resolves once they are out. */
  drain(): Promise<void>;
};

/**
 * The NDJSON stream of `correx run --json`: each event of the followed sessions exactly as
 * `correx tail --json` prints it, read back from the store in sequence order, so the stream is
 * the log itself — events appended by other processes (an approval from another terminal)
 * included, none twice, none missing. A live event only says when to read.
 */
export function createJsonEventStream(
  store: CorrexEventStore,
  writeLine: (line: string) => void,
): JsonEventStream {
  const cursors = new Map<string, number>();
  let chain: Promise<void> = Promise.resolve();
  let scheduled = false;
  const readAll = async () => {
    for (const [sessionId, after] of cursors) {
      let cursor = after;
      for (;;) {
        const events = await store.read(sessionId, { afterSequence: cursor, limit: 500 });
        for (const event of events) writeLine(formatEventJson(event));
        if (events.length === 0) break;
        cursor = events.at(-1)!.sequence;
      }
      cursors.set(sessionId, cursor);
    }
  };
  const enqueue = (step: () => Promise<void> | void) => {
    // A failed read fails the call that waits for it, never the ones after it.
    const next = chain.catch(() => undefined).then(step);
    chain = next;
    return next;
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    // Many events arrive at once (a decision appends several): one read serves them all.
    void enqueue(async () => {
      scheduled = false;
      await readAll();
    }).catch(() => undefined);
  };
  return {
    follow(sessionId, afterSequence) {
      if (!cursors.has(sessionId)) cursors.set(sessionId, afterSequence);
      schedule();
    },
    onEvent(event) {
      if (!cursors.has(event.sessionId)) cursors.set(event.sessionId, event.sequence - 1);
      schedule();
    },
    write(object) {
      return enqueue(async () => {
        await readAll();
        writeLine(JSON.stringify(object));
      });
    },
    drain: () => enqueue(readAll),
  };
}

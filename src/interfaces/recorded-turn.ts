import type { CorrexEvent, CorrexEventStore } from '../core/event-catalog.js';

/**
 * The `turn_requested` a follow-up recorded after `before` (the session's last sequence when it
 * was asked), read from there on only: a long session's history is not read again. Undefined
 * when none was recorded.
 */
export async function recordedTurn(
  store: CorrexEventStore,
  sessionId: string,
  before: number,
): Promise<CorrexEvent | undefined> {
  return (await store.read(sessionId, { afterSequence: before })).find(
    (event) => event.payload.type === 'turn_requested',
  );
}

import type { CorrexEventStore } from '../../core/event-catalog.js';

/**
 * The global position of the newest event, so a live feed starts there instead of replaying the
 * whole store (followers read their own backlog). One read per session: the store contract has
 * no head position of its own.
 */
export async function headPosition(store: CorrexEventStore): Promise<number> {
  let head = 0;
  for (const session of await store.listSessions()) {
    const [last] = await store.read(session.sessionId, {
      afterSequence: session.lastSequence - 1,
      limit: 1,
    });
    if (last !== undefined && last.position > head) head = last.position;
  }
  return head;
}

import type { NewEvent } from '../../src/core/events/event-envelope.js';
import type { EventPayload } from '../../src/core/event-catalog.js';

/** Deterministic test events: ids sort by session and index, timestamps step by a second. */
export function noteEvent(
  sessionId: string,
  index: number,
  overrides: Partial<NewEvent<EventPayload>> = {},
): NewEvent<EventPayload> {
  return {
    eventId: `${sessionId}-e${String(index).padStart(6, '0')}`,
    sessionId,
    timestamp: new Date(Date.UTC(2026, 10, 30, 12, 0, 0) + index * 1000).toISOString(),
    causationId: null,
    correlationId: `corr-${sessionId}`,
    payload: { type: 'steering_note_added', sessionId, content: `note ${index}` },
    ...overrides,
  };
}

export function stageEvent(
  sessionId: string,
  index: number,
  stageId = 'plan',
): NewEvent<EventPayload> {
  return noteEvent(sessionId, index, {
    payload: { type: 'stage_started', stageId, attempt: index },
  });
}

/** A batch of `count` note events starting at `from`. */
export function noteBatch(
  sessionId: string,
  from: number,
  count: number,
): NewEvent<EventPayload>[] {
  return Array.from({ length: count }, (_, offset) => noteEvent(sessionId, from + offset));
}

import type { PayloadShape, StoredEvent } from '../../core/events/event-envelope.js';
import type { EventDto } from './event-dto.js';

/** Maps a stored event to its wire shape: the envelope without store internals (position, hash). */
export function toEventDto(event: StoredEvent<PayloadShape>): EventDto {
  return {
    eventId: event.eventId,
    sessionId: event.sessionId,
    sequence: event.sequence,
    timestamp: event.timestamp,
    version: event.version,
    causationId: event.causationId,
    correlationId: event.correlationId,
    type: event.payload.type,
    payload: event.payload as EventDto['payload'],
  };
}

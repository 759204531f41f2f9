import type { CorrexEvent } from '../../core/event-catalog.js';
import type { ServerMessage } from '../protocol/server-message.js';
import { toEventDto } from '../protocol/to-event-dto.js';

/** Turns a stored event into its `event` message text. */
export type EventMessageEncoder = { encode(event: CorrexEvent): string };

/**
 * Encodes each event once however many sockets receive it: live events reach every subscriber
 * as the same object, so the text is cached per object and dropped with it.
 */
export function createEventMessageEncoder(): EventMessageEncoder {
  const cache = new WeakMap<CorrexEvent, string>();
  return {
    encode(event) {
      let text = cache.get(event);
      if (text === undefined) {
        const message: ServerMessage = {
          type: 'event',
          sessionId: event.sessionId,
          event: toEventDto(event),
        };
        text = JSON.stringify(message);
        cache.set(event, text);
      }
      return text;
    },
  };
}

import { correxEventCatalog, type EventPayload } from '../src/core/event-catalog.js';
import { createEventCodec } from '../src/core/events/event-codec.js';
import type { NewEvent } from '../src/core/events/event-envelope.js';

const codec = createEventCodec(correxEventCatalog);

/** A realistic event: a tool call proposal of a few hundred bytes, ids ordered by session and index. */
export function benchEvent(sessionId: string, index: number): NewEvent<EventPayload> {
  return {
    eventId: `${sessionId}-${String(index).padStart(9, '0')}`,
    sessionId,
    timestamp: new Date(Date.UTC(2026, 10, 30) + index).toISOString(),
    causationId: null,
    correlationId: `turn-${Math.floor(index / 10)}`,
    payload: {
      type: 'tool_call_proposed',
      callId: `call-${index}`,
      stageId: 'implement',
      tool: 'write_file',
      argsRaw: JSON.stringify({
        path: `src/module-${index % 50}.ts`,
        content: 'export const x = 1;\n'.repeat(8),
      }),
    },
  };
}

/** The row a raw baseline inserts: the same canonical bytes the store would write for that event. */
export type RawEventRow = { sessionId: string; sequence: number; eventId: string; bytes: string };

export function rawEventRow(sessionId: string, index: number): RawEventRow {
  const event = benchEvent(sessionId, index);
  return {
    sessionId,
    sequence: index,
    eventId: event.eventId,
    bytes: codec.encode(codec.normalize(event), index),
  };
}

import type { CorrexEventStore } from '../../../src/core/event-catalog.js';
import type { UserInputRouter } from '../../../src/interfaces/server/server-deps.js';
import type { SessionHost } from '../../../src/interfaces/session-host.js';

/**
 * A router for server tests, shaped like the port the server calls: steering input becomes a
 * steering note through the host; a question is answered from the log and cites its last event.
 */
export function createTestRouter(store: CorrexEventStore, host: SessionHost): UserInputRouter {
  return {
    async onUserInput(sessionId, input, mode) {
      if (mode === 'steering') {
        const events = await host.command(sessionId, { type: 'steer', content: input });
        const note = events.find((event) => event.payload.type === 'steering_note_added');
        return {
          answer: 'Noted; the next step will take it into account.',
          citedSequences: [],
          ...(note === undefined
            ? {}
            : { note: { eventId: note.eventId, sequence: note.sequence } }),
        };
      }
      const last = await store.lastSequence(sessionId);
      return { answer: `The session has ${last} events.`, citedSequences: [last] };
    },
  };
}

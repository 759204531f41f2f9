/**
 * Run as a separate process: grants a pending approval in a SQLite store the way the CLI or the
 * server would, by appending `approval_granted` from a person. Usage: <store> <session> <callId>.
 */
import { correxEventCatalog } from '../../src/core/event-catalog.js';
import { openSqliteEventStore } from '../../src/infrastructure/sqlite/sqlite-event-store.js';

const [storePath, sessionId, callId] = process.argv.slice(2);
if (storePath === undefined || sessionId === undefined || callId === undefined) {
  throw new Error('usage: grant-approval <store> <session> <callId>');
}
const store = openSqliteEventStore(storePath, { catalog: correxEventCatalog });
const last = await store.lastSequence(sessionId);
await store.append(
  {
    eventId: `grant-${process.pid}`,
    sessionId,
    timestamp: new Date().toISOString(),
    payload: {
      type: 'approval_granted',
      callId,
      by: { kind: 'human', id: 'alice' },
      reason: 'looks right',
    },
  },
  { expectedSequence: last },
);
await store.close();

/**
 * The event log on its embedded defaults: records one coding session's lifecycle into the
 * SQLite store at $CORREX_HOME/correx.db (default ~/.correx), rebuilds a projection from it,
 * and verifies the hash chain. No model, no server, no API key.
 *
 *   npm run example           # or: npx tsx examples/event-log.ts [--store path.db]
 */
import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { correxEventCatalog, type EventPayload } from '../src/core/event-catalog.js';
import type { NewEvent } from '../src/core/events/event-envelope.js';
import type { Projection } from '../src/core/events/projection.js';
import { replay } from '../src/core/events/replay.js';
import { openSqliteEventStore } from '../src/infrastructure/sqlite/sqlite-event-store.js';
import { systemClock } from '../src/infrastructure/system/system-clock.js';
import { createUuidV7IdSource } from '../src/infrastructure/system/uuid-v7-id-source.js';

const storeFlag = process.argv.indexOf('--store');
const storePath =
  storeFlag > 0
    ? process.argv[storeFlag + 1]!
    : join(process.env.CORREX_HOME ?? join(homedir(), '.correx'), 'correx.db');
mkdirSync(dirname(storePath), { recursive: true });

const ids = createUuidV7IdSource();
const sessionId = ids.next();
const store = openSqliteEventStore(storePath, { catalog: correxEventCatalog });

// What a run of the default workflow records, in order (the kernel will emit these itself).
const payloads: EventPayload[] = [
  {
    type: 'session_created',
    task: 'Fix the failing date parser test',
    workspace: process.cwd(),
    workflowId: 'default',
    mode: 'auto',
  },
  { type: 'workflow_started', workflowId: 'default', firstStageId: 'plan' },
  { type: 'stage_started', stageId: 'plan', attempt: 1 },
  { type: 'stage_completed', stageId: 'plan', attempt: 1 },
  { type: 'stage_started', stageId: 'implement', attempt: 1 },
  {
    type: 'tool_call_proposed',
    callId: 'call-1',
    stageId: 'implement',
    tool: 'write_file',
    argsRaw: '{"path":"/etc/passwd","content":"x"}',
  },
  {
    type: 'tool_call_proposed',
    callId: 'call-2',
    stageId: 'implement',
    tool: 'exec',
    argsRaw: '{"argv":["npm","test"]}',
  },
  {
    type: 'approval_requested',
    callId: 'call-2',
    tool: 'exec',
    tier: 'T2',
    reason: 'runs the project tests',
  },
  { type: 'approval_granted', callId: 'call-2', by: { kind: 'auto', id: 'auto' } },
  {
    type: 'steering_note_added',
    sessionId,
    content: 'Keep the public API unchanged.',
    stageId: 'implement',
  },
  { type: 'stage_completed', stageId: 'implement', attempt: 1 },
  { type: 'workflow_completed', finalStageId: 'review', summary: 'Parser fixed; tests pass.' },
];

let previous: string | null = null;
let expectedSequence = 0;
for (const payload of payloads) {
  const event: NewEvent<EventPayload> = {
    eventId: ids.next(),
    sessionId,
    timestamp: systemClock.now(),
    causationId: previous,
    correlationId: sessionId,
    payload,
  };
  const stored = await store.append(event, { expectedSequence });
  expectedSequence = stored.sequence;
  previous = stored.eventId;
  console.log(
    `  #${String(stored.sequence).padStart(2)} ${stored.payload.type.padEnd(20)} ${stored.hash.slice(0, 12)}…`,
  );
}

type Summary = {
  status: string;
  stages: string[];
  toolCalls: number;
  approvals: number;
  notes: number;
};
const summary: Projection<Summary, EventPayload> = {
  name: 'demo-summary',
  version: 1,
  initial: () => ({ status: 'new', stages: [], toolCalls: 0, approvals: 0, notes: 0 }),
  evolve(state, { payload }) {
    switch (payload.type) {
      case 'workflow_started':
        return { ...state, status: 'running' };
      case 'stage_completed':
        return { ...state, stages: [...state.stages, payload.stageId] };
      case 'tool_call_proposed':
        return { ...state, toolCalls: state.toolCalls + 1 };
      case 'approval_granted':
        return { ...state, approvals: state.approvals + 1 };
      case 'steering_note_added':
        return { ...state, notes: state.notes + 1 };
      case 'workflow_completed':
        return { ...state, status: 'completed' };
      default:
        return state;
    }
  },
};

const rebuilt = await replay(store, summary, sessionId);
const verification = await store.verify(sessionId);
await store.close();

console.log(`\nsession ${sessionId} in ${storePath}`);
console.log(`rebuilt from ${rebuilt.sequence} events: ${JSON.stringify(rebuilt.state)}`);
console.log(
  verification.ok
    ? `hash chain intact, head ${verification.headHash}`
    : `hash chain BROKEN at #${verification.sequence}`,
);
if (!verification.ok) process.exitCode = 1;

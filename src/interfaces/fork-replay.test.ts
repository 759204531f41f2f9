import { describe, expect, it } from 'vitest';
import { correxEventCatalog, type EventPayload } from '../core/event-catalog.js';
import { InMemoryEventStore } from '../core/events/in-memory-event-store.js';
import { nodeSha256 } from '../infrastructure/system/node-sha256.js';
import { forkPoints, nearestForkPoints } from './fork-point.js';
import { checkForkPrefix } from './fork-replay.js';

const T = '2026-12-03T12:00:00.000Z';
type Payload<T extends EventPayload['type']> = Extract<EventPayload, { type: T }>;
const configured: Payload<'session_configured'> = {
  type: 'session_configured',
  configuration: { models: ['parent'] },
  digest: 'a'.repeat(64),
};
const created: Payload<'session_created'> = {
  type: 'session_created',
  task: 'do it',
  workspace: '/work/ws',
  workflowId: 'w',
  mode: 'prompt',
};
const steer: EventPayload = { type: 'steering_note_added', sessionId: 'p', content: 'go' };

async function parentAndFork(change?: (payload: EventPayload, index: number) => EventPayload) {
  const store = new InMemoryEventStore({ catalog: correxEventCatalog });
  const parent = await store.appendAll(
    [configured, created, steer].map((payload, index) => ({
      eventId: `p-${index}`,
      sessionId: 'p',
      timestamp: T,
      payload,
    })),
    { expectedSequence: 0 },
  );
  const forkPayloads: EventPayload[] = [
    { ...configured, configuration: { models: ['other'] }, digest: 'b'.repeat(64) },
    { ...created, workspace: '/work/ws-fork', mode: 'auto' },
    steer,
  ];
  await store.appendAll(
    [
      ...forkPayloads.map((payload, index) => ({
        eventId: `fk-${nodeSha256(`f\np-${index}`).slice(0, 40)}`,
        sessionId: 'f',
        timestamp: T,
        payload: change === undefined ? payload : change(payload, index),
      })),
      {
        eventId: 'forked',
        sessionId: 'f',
        timestamp: T,
        payload: {
          type: 'session_forked' as const,
          parentSessionId: 'p',
          atSequence: 3,
          parentHash: parent[2]!.hash,
          parentConfigurationDigest: 'a'.repeat(64),
          parentWorkspace: '/work/ws',
          workspace: '/work/ws-fork',
          parentMode: 'prompt' as const,
          mode: 'auto' as const,
          missing: [],
          by: 'alice',
        },
      },
    ],
    { expectedSequence: 0 },
  );
  return checkForkPrefix(store, await store.read('f'), nodeSha256);
}

describe('a fork’s copied prefix', () => {
  it('holds when only the configuration, workspace and mode differ, as session_forked records', async () => {
    expect((await parentAndFork())?.problem).toBeNull();
  });

  it('is named at the first copied event whose payload is not the parent’s', async () => {
    const checked = await parentAndFork((payload, index) =>
      index === 2 ? { ...steer, content: 'changed' } : payload,
    );
    expect(checked?.problem).toMatchObject({
      sequence: 3,
      reason: expect.stringContaining('steering_note_added') as unknown,
    });
  });

  it('refuses a session_created that differs in more than its workspace and mode', async () => {
    const checked = await parentAndFork((payload) =>
      payload.type === 'session_created' ? { ...payload, task: 'another task' } : payload,
    );
    expect(checked?.problem).toMatchObject({ sequence: 2 });
  });

  it('is no fork without session_forked', async () => {
    const store = new InMemoryEventStore({ catalog: correxEventCatalog });
    expect(await checkForkPrefix(store, [], nodeSha256)).toBeNull();
  });
});

describe('fork points', () => {
  it('are inputs outside any open effect', () => {
    const at = (sequence: number, payload: EventPayload) =>
      ({ sequence, payload }) as Parameters<typeof forkPoints>[0][number];
    const events = [
      at(1, configured),
      at(2, created),
      at(3, { type: 'workflow_started', workflowId: 'w', firstStageId: 's' }),
      at(4, steer),
    ];
    // session_configured is never one; a decision (workflow_started) neither.
    expect([...forkPoints(events)]).toEqual([2, 4]);
    expect(nearestForkPoints(events, 3)).toEqual({ before: 2, after: 4 });
  });
});

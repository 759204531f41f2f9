import { describe, expect, it } from 'vitest';
import { eventSamples } from '../../../test/golden/event-samples.js';
import { correxEventCatalog, type EventPayload } from '../event-catalog.js';
import type { StoredEvent } from '../events/event-envelope.js';
import { createInMemoryEventStore } from '../events/in-memory-event-store.js';
import { replay } from '../events/replay.js';
import {
  loadRouterState,
  MAX_SUMMARY_CHARACTERS,
  ROUTER_FOLDED_TYPES,
  routerProjection,
} from './router-projection.js';
import type { RouterState } from './router-state.js';

const SESSION = 's1';
const at = (sequence: number) => `2026-11-30T12:00:${String(sequence % 60).padStart(2, '0')}.000Z`;

function stored(payload: EventPayload, sequence: number): StoredEvent<EventPayload> {
  return {
    eventId: `${SESSION}-e${sequence}`,
    sessionId: SESSION,
    sequence,
    timestamp: at(sequence),
    version: 1,
    causationId: null,
    correlationId: null,
    payload,
    position: sequence,
    hash: '',
  };
}

function fold(payloads: readonly EventPayload[], from = routerProjection.initial()): RouterState {
  return payloads.reduce(
    (state, payload, index) => routerProjection.evolve(state, stored(payload, index + 1)),
    from,
  );
}

const created: EventPayload = {
  type: 'session_created',
  task: 'Add a --verbose flag',
  workspace: '/w',
  workflowId: 'default',
  mode: 'prompt',
};
const started: EventPayload = {
  type: 'workflow_started',
  workflowId: 'default',
  firstStageId: 'plan',
};
const stage = (stageId: string, attempt = 1): EventPayload => ({
  type: 'stage_started',
  stageId,
  attempt,
});
const done = (stageId: string, verdict?: string): EventPayload => ({
  type: 'stage_completed',
  stageId,
  attempt: 1,
  ...(verdict === undefined ? {} : { verdict }),
});
const failed = (stageId: string, message: string): EventPayload => ({
  type: 'stage_failed',
  stageId,
  attempt: 2,
  category: 'validation',
  message,
});

describe('routerProjection (the router reducer)', () => {
  it('starts idle, with no stage and an empty L2 memory', () => {
    expect(routerProjection.initial()).toEqual({
      sessionId: null,
      workflowStatus: 'idle',
      currentStageId: null,
      activeStage: null,
      task: null,
      pendingApprovals: [],
      l2Memory: [],
      lastSequence: 0,
    });
  });

  it('keeps the approvals waiting now, with the request to cite, until each is decided or the workflow ends', () => {
    const request = (callId: string, tool: string): EventPayload => ({
      type: 'approval_requested',
      callId,
      tool,
      tier: 'T2',
      reason: `${tool} needs a person\nsecond line`,
    });
    const waiting = fold([
      created,
      started,
      stage('implement'),
      request('c1', 'exec'),
      request('c2', 'write_file'),
    ]);
    expect(waiting.pendingApprovals).toEqual([
      { callId: 'c1', tool: 'exec', tier: 'T2', reason: 'exec needs a person', sequence: 4 },
      {
        callId: 'c2',
        tool: 'write_file',
        tier: 'T2',
        reason: 'write_file needs a person',
        sequence: 5,
      },
    ]);
    const oneLeft = fold(
      [{ type: 'approval_granted', callId: 'c1', by: { kind: 'human', id: 'ana' } }],
      waiting,
    );
    expect(oneLeft.pendingApprovals.map((pending) => pending.callId)).toEqual(['c2']);
    const none = fold(
      [{ type: 'approval_denied', callId: 'c2', by: { kind: 'human', id: 'ana' }, reason: 'no' }],
      oneLeft,
    );
    expect(none.pendingApprovals).toEqual([]);
    const ended = fold([{ type: 'workflow_cancelled', by: 'ana' } as EventPayload], waiting);
    expect(ended.pendingApprovals).toEqual([]);
  });

  it('session_created keeps the task and stays idle; workflow_started makes it running at the first stage', () => {
    const createdOnly = fold([created]);
    expect(createdOnly.workflowStatus).toBe('idle');
    expect(createdOnly.task).toBe('Add a --verbose flag');
    const running = fold([created, started]);
    expect(running.workflowStatus).toBe('running');
    expect(running.sessionId).toBe(SESSION);
    expect(running.currentStageId).toBe('plan');
    expect(running.lastSequence).toBe(2);
  });

  it('stage_completed appends a SUCCESS entry that keeps the sequence and id of its event', () => {
    const state = fold([created, started, stage('plan'), done('plan', 'approve')]);
    expect(state.l2Memory).toEqual([
      {
        stageId: 'plan',
        attempt: 1,
        outcome: 'success',
        summary: 'stage plan attempt 1 completed with verdict approve',
        sequence: 4,
        eventId: 's1-e4',
        timestamp: at(4),
      },
    ]);
    expect(state.currentStageId).toBe('plan');
    expect(state.activeStage).toBeNull();
  });

  it('stage_failed appends a FAILURE entry with only the first line of the message, clipped', () => {
    const output = 'FAIL test/date.test.ts\nsecret raw tool output line';
    const state = fold([
      started,
      stage('verify', 2),
      failed('verify', `3 tests failing\n${output}`),
    ]);
    expect(state.l2Memory).toHaveLength(1);
    const entry = state.l2Memory[0]!;
    expect(entry.outcome).toBe('failure');
    expect(entry.sequence).toBe(3);
    expect(entry.summary).toBe('stage verify attempt 2 failed (validation): 3 tests failing');
    expect(entry.summary).not.toContain('raw tool output');

    const long = fold([failed('verify', 'x'.repeat(1000))]).l2Memory[0]!;
    expect(long.summary).toHaveLength(MAX_SUMMARY_CHARACTERS);
  });

  it('workflow_completed and workflow_failed end the workflow and clear the current stage', () => {
    const completed = fold([
      started,
      stage('plan'),
      done('plan'),
      { type: 'workflow_completed', finalStageId: 'plan' },
    ]);
    expect(completed.workflowStatus).toBe('completed');
    expect(completed.currentStageId).toBeNull();
    const failedState = fold([
      started,
      { type: 'workflow_failed', category: 'tool', message: 'gave up', stageId: 'verify' },
    ]);
    expect(failedState.workflowStatus).toBe('failed');
    expect(failedState.currentStageId).toBeNull();
  });

  it('orchestration_paused and orchestration_resumed toggle paused and running', () => {
    const paused = fold([started, { type: 'orchestration_paused', by: 'ana' }]);
    expect(paused.workflowStatus).toBe('paused');
    const resumed = fold([{ type: 'orchestration_resumed', by: 'ana' }], paused);
    expect(resumed.workflowStatus).toBe('running');
  });

  it('workflow_cancelled ends a running stage as CANCELLED, and adds nothing when none runs', () => {
    const cancel: EventPayload = { type: 'workflow_cancelled', by: 'ana', reason: 'wrong repo' };
    const midStage = fold([started, stage('implement'), cancel]);
    expect(midStage.workflowStatus).toBe('cancelled');
    expect(midStage.l2Memory).toEqual([
      expect.objectContaining({
        stageId: 'implement',
        outcome: 'cancelled',
        sequence: 3,
        summary: 'stage implement attempt 1 cancelled by ana: wrong repo',
      }),
    ]);
    const between = fold([started, stage('plan'), done('plan'), cancel]);
    expect(between.l2Memory.map((e) => e.outcome)).toEqual(['success']);
  });

  it('transition_taken and stage_started move the current stage', () => {
    const moved = fold([
      started,
      stage('plan'),
      done('plan'),
      {
        type: 'transition_taken',
        from: 'plan',
        to: 'implement',
        condition: 'success',
        edge: 'plan->implement',
        traversal: 1,
        attempt: 1,
      },
    ]);
    expect(moved.currentStageId).toBe('implement');
    expect(fold([stage('review')], moved).activeStage).toEqual({ stageId: 'review', attempt: 1 });
  });

  it('every other event type passes through unchanged but for lastSequence', () => {
    const folded = ROUTER_FOLDED_TYPES;
    const before = fold([created, started, stage('plan'), done('plan')]);
    const others = Object.values(eventSamples).filter((payload) => !folded.has(payload.type));
    expect(others.length).toBeGreaterThan(20);
    for (const [index, payload] of others.entries()) {
      const after = routerProjection.evolve(before, stored(payload, 100 + index));
      expect(after, payload.type).toEqual({ ...before, lastSequence: 100 + index });
    }
  });
});

describe('router state from the log (the router repository)', () => {
  async function storeWith(payloads: readonly EventPayload[]) {
    const store = createInMemoryEventStore({ catalog: correxEventCatalog });
    for (const [index, payload] of payloads.entries()) {
      await store.append({
        eventId: `${SESSION}-e${index + 1}`,
        sessionId: SESSION,
        timestamp: at(index + 1),
        payload,
      });
    }
    return store;
  }

  it('replaying an empty log gives the initial state', async () => {
    const store = await storeWith([]);
    const { state, sequence } = await loadRouterState(store, SESSION);
    expect(sequence).toBe(0);
    expect(state).toEqual(routerProjection.initial());
  });

  it('replaying workflow_started and two stage_completed gives both L2 entries, oldest first', async () => {
    const store = await storeWith([
      started,
      stage('plan'),
      done('plan'),
      stage('implement'),
      done('implement'),
    ]);
    const { state } = await loadRouterState(store, SESSION);
    expect(state.workflowStatus).toBe('running');
    expect(state.l2Memory.map((e) => [e.stageId, e.outcome, e.sequence])).toEqual([
      ['plan', 'success', 3],
      ['implement', 'success', 5],
    ]);
  });

  it('replay is deterministic: the same log folds to the same state as a direct fold, every time', async () => {
    const payloads = [
      created,
      started,
      stage('plan'),
      done('plan'),
      stage('verify'),
      failed('verify', 'red'),
    ];
    const store = await storeWith(payloads);
    const first = await loadRouterState(store, SESSION);
    const second = await loadRouterState(store, SESSION);
    expect(second.state).toEqual(first.state);
    expect(first.state).toEqual(fold(payloads));
  });

  it('replay from a cursor over the tail equals a full replay, and a later load sees new events', async () => {
    const store = await storeWith([started, stage('plan')]);
    const head = await loadRouterState(store, SESSION);
    await store.append({
      eventId: 'late',
      sessionId: SESSION,
      timestamp: at(9),
      payload: done('plan'),
    });
    const resumed = await replay(store, routerProjection, SESSION, { from: head });
    const fresh = await loadRouterState(store, SESSION);
    expect(resumed.state).toEqual(fresh.state);
    expect(fresh.state.l2Memory).toHaveLength(1);
    expect(fresh.sequence).toBe(3);
  });

  it('keeps sessions apart', async () => {
    const store = await storeWith([started, stage('plan'), done('plan')]);
    await store.append({
      eventId: 'other-1',
      sessionId: 'other',
      timestamp: at(1),
      payload: started,
    });
    expect((await loadRouterState(store, 'other')).state.l2Memory).toEqual([]);
    expect((await loadRouterState(store, SESSION)).state.l2Memory).toHaveLength(1);
  });
});

import { describe, expect, it } from 'vitest';
import { correxEventCatalog, type EventPayload } from '../event-catalog.js';
import type { NewEvent, StoredEvent } from '../events/event-envelope.js';
import { InMemoryEventStore } from '../events/in-memory-event-store.js';
import { replay } from '../events/replay.js';
import { resumePointOf, sessionProjection, type SessionState } from './session-projection.js';

/** Any payload, checked only by the code under test. */
type Payload = { readonly type: string; readonly [field: string]: unknown };

const timestamp = (second: number) =>
  `2026-11-30T12:${String(Math.floor(second / 60)).padStart(2, '0')}:${String(second % 60).padStart(2, '0')}.000Z`;

/** Each payload with the second it happened at. */
type Timed = readonly [second: number, payload: Payload];

function toNew(events: readonly Timed[]): NewEvent<EventPayload>[] {
  return events.map(([second, payload], index) => ({
    eventId: `s1-e${index + 1}`,
    sessionId: 's1',
    timestamp: timestamp(second),
    causationId: index === 0 ? null : `s1-e${index}`,
    correlationId: 'turn',
    payload: payload as EventPayload,
  }));
}

function fold(events: readonly Timed[]): SessionState {
  return toNew(events).reduce<SessionState>(
    (state, event, index) =>
      sessionProjection.evolve(state, {
        ...event,
        sequence: index + 1,
        version: 1,
        causationId: event.causationId ?? null,
        correlationId: event.correlationId ?? null,
        position: index + 1,
        hash: '',
      } satisfies StoredEvent),
    sessionProjection.initial(),
  );
}

const stage = (stageId: string, attempt = 1) => ({ type: 'stage_started', stageId, attempt });
const done = (stageId: string, attempt = 1, verdict?: string) => ({
  type: 'stage_completed',
  stageId,
  attempt,
  ...(verdict ? { verdict } : {}),
});
const moved = (from: string, to: string, traversal = 1, condition = 'success') => ({
  type: 'transition_taken',
  from,
  to,
  condition,
  edge: `${from}->${to}`,
  traversal,
  attempt: 1,
});

/** A session that planned, implemented twice (one retry), was reviewed, reworked once and approved. */
const story: readonly Timed[] = [
  [
    0,
    {
      type: 'session_created',
      task: 'fix',
      workspace: '/ws',
      workflowId: 'default-coding',
      mode: 'prompt',
    },
  ],
  [1, { type: 'workflow_started', workflowId: 'default-coding', firstStageId: 'plan' }],
  [2, stage('plan')],
  [12, done('plan')],
  [12, moved('plan', 'implement')],
  [13, stage('implement')],
  [
    14,
    { type: 'approval_requested', callId: 'c1', tool: 'exec', tier: 'T2', reason: 'runs tests' },
  ],
  [
    15,
    { type: 'approval_requested', callId: 'c2', tool: 'write_file', tier: 'T1', reason: 'writes' },
  ],
  [16, { type: 'approval_granted', callId: 'c1', by: { kind: 'human', id: 'alice' } }],
  [
    20,
    { type: 'stage_failed', stageId: 'implement', attempt: 1, category: 'tool', message: 'exit 1' },
  ],
  [
    20,
    {
      type: 'transition_taken',
      from: 'implement',
      to: 'implement',
      condition: 'retry',
      edge: 'implement:retry',
      traversal: 1,
      attempt: 2,
    },
  ],
  [21, stage('implement', 2)],
  [31, done('implement', 2)],
  [31, moved('implement', 'review')],
  [32, stage('review')],
  [35, done('review', 1, 'rework')],
  [35, moved('review', 'implement', 1, 'verdict:rework')],
  [36, { type: 'orchestration_paused', by: 'alice', reason: 'lunch' }],
  [40, { type: 'orchestration_resumed', by: 'alice' }],
  [41, stage('implement')],
  [
    42,
    { type: 'approval_granted', callId: 'artifact:plan-hash', by: { kind: 'human', id: 'bob' } },
  ],
];

describe('sessionProjection', () => {
  it('tracks status, stage, attempts, cycles, approvals and timings from the events alone', () => {
    const state = fold(story);
    expect(state).toMatchObject({
      sessionId: 's1',
      status: 'running',
      task: 'fix',
      workflowId: 'default-coding',
      activeStage: { stageId: 'implement', attempt: 1, startedAt: timestamp(41) },
      nextStage: null,
      lastStageId: 'implement',
      attempts: { plan: 1, implement: 1, review: 1 },
      cycles: {
        'plan->implement': 1,
        'implement:retry': 1,
        'implement->review': 1,
        'review->implement': 1,
      },
      pendingApprovals: [{ callId: 'c2', tool: 'write_file', tier: 'T1' }],
      // A tool call's grant is on its call record; the session keeps artifact approvals.
      grantedApprovals: ['artifact:plan-hash'],
      timings: {
        plan: { runs: 1, totalMs: 10_000 },
        implement: { runs: 2, totalMs: 17_000 },
        review: { runs: 1, totalMs: 3_000 },
      },
      failure: null,
      lastSequence: story.length,
    });
  });

  it('says where a crashed session resumes', () => {
    expect(resumePointOf(fold([]))).toEqual({ kind: 'not_started' });
    expect(resumePointOf(fold(story))).toEqual({
      kind: 'mid_stage',
      stageId: 'implement',
      attempt: 1,
    });
    expect(resumePointOf(fold(story.slice(0, 17)))).toEqual({
      kind: 'next_stage',
      stageId: 'implement',
      attempt: 1,
    });
    expect(resumePointOf(fold(story.slice(0, 16)))).toEqual({
      kind: 'awaiting_transition',
      stageId: 'review',
    });
    expect(resumePointOf(fold(story.slice(0, 18)))).toEqual({ kind: 'paused' });
    expect(resumePointOf(fold(story.slice(0, 2)))).toEqual({
      kind: 'next_stage',
      stageId: 'plan',
      attempt: 1,
    });
    const failed = fold([
      ...story,
      [50, { type: 'workflow_failed', category: 'policy', message: 'blocked' }],
    ]);
    expect(resumePointOf(failed)).toEqual({ kind: 'finished', status: 'failed' });
    expect(failed.failure).toEqual({ category: 'policy', message: 'blocked' });
  });

  it('adds token usage from inference_completed results and ignores types it does not know', () => {
    const state = fold([
      [
        0,
        { type: 'inference_completed', result: { usage: { inputTokens: 120, outputTokens: 30 } } },
      ],
      [
        1,
        { type: 'inference_completed', result: { usage: { inputTokens: 80, outputTokens: 20 } } },
      ],
      [2, { type: 'something_new', anything: true }],
    ]);
    expect(state.tokens).toEqual({ input: 200, output: 50 });
    expect(state.lastSequence).toBe(3);
  });

  it('refusals change nothing but the cursor', () => {
    const before = fold(story);
    const after = fold([
      ...story,
      [50, { type: 'lifecycle_rejected', command: 'resume', status: 'running', message: 'no' }],
      [
        51,
        {
          type: 'transition_rejected',
          from: 'implement',
          reason: 'unknown_verdict',
          outcome: 'verdict:x',
          message: 'no',
        },
      ],
    ]);
    expect({ ...after, lastSequence: before.lastSequence }).toEqual(before);
  });

  it('replaying from the store equals the incrementally built state, and state is plain JSON', async () => {
    const store = new InMemoryEventStore({ catalog: correxEventCatalog });
    let incremental = sessionProjection.initial();
    for (const event of toNew(story)) {
      const stored = await store.append(event);
      incremental = sessionProjection.evolve(incremental, stored);
    }
    const rebuilt = await replay(store, sessionProjection, 's1');
    expect(rebuilt.state).toEqual(incremental);
    expect(rebuilt.sequence).toBe(story.length);
    expect(JSON.parse(JSON.stringify(rebuilt.state))).toEqual(rebuilt.state);
  });
});

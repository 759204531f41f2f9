import { describe, expect, it } from 'vitest';
import type { StoredEvent } from '../events/event-envelope.js';
import { decideLifecycle, type LifecycleCommand } from './session-lifecycle.js';
import { sessionProjection, type SessionState } from './session-projection.js';
import { SESSION_STATUSES, type SessionStatus } from './session-status.js';

/** Any payload, checked only by the code under test. */
type Payload = { readonly type: string; readonly [field: string]: unknown };

function given(payloads: readonly Payload[]): SessionState {
  return payloads.reduce<SessionState>(
    (state, payload, index) =>
      sessionProjection.evolve(state, {
        eventId: `e${index + 1}`,
        sessionId: 's1',
        sequence: index + 1,
        timestamp: `2026-11-30T12:00:0${index}.000Z`,
        version: 1,
        causationId: null,
        correlationId: null,
        payload,
        position: index + 1,
        hash: '',
      } satisfies StoredEvent),
    sessionProjection.initial(),
  );
}

const created = {
  type: 'session_created',
  task: 'fix the parser',
  workspace: '/ws',
  workflowId: 'default-coding',
  mode: 'prompt',
};
const started = { type: 'workflow_started', workflowId: 'default-coding', firstStageId: 'plan' };
const paused = { type: 'orchestration_paused', by: 'alice' };

const history: { readonly [S in SessionStatus]: readonly Payload[] } = {
  new: [],
  created: [created],
  running: [created, started],
  paused: [created, started, paused],
  completed: [created, started, { type: 'workflow_completed', finalStageId: 'review' }],
  failed: [created, started, { type: 'workflow_failed', category: 'tool', message: 'x' }],
  cancelled: [created, { type: 'workflow_cancelled', by: 'bob' }],
};

const commands: readonly [LifecycleCommand, string, readonly SessionStatus[]][] = [
  [
    { type: 'create', task: 't', workspace: '/w', workflowId: 'wf', mode: 'auto' },
    'session_created',
    ['new'],
  ],
  [{ type: 'start', firstStageId: 'plan' }, 'workflow_started', ['created']],
  [{ type: 'pause', by: 'alice', reason: 'lunch' }, 'orchestration_paused', ['running']],
  [{ type: 'resume', by: 'alice' }, 'orchestration_resumed', ['paused']],
  [{ type: 'complete', finalStageId: 'review' }, 'workflow_completed', ['running']],
  [
    { type: 'fail', category: 'transition', message: 'no route', stageId: 'review' },
    'workflow_failed',
    ['created', 'running', 'paused'],
  ],
  [{ type: 'cancel', by: 'bob' }, 'workflow_cancelled', ['created', 'running', 'paused']],
];

describe('decideLifecycle', () => {
  for (const [command, eventType, legal] of commands) {
    for (const status of SESSION_STATUSES) {
      const expected = legal.includes(status) ? eventType : 'lifecycle_rejected';
      it(`${command.type} when ${status} → ${expected}`, () => {
        const state = given(history[status]);
        expect(state.status).toBe(status);
        const events = decideLifecycle(state, command);
        expect(events.map((event) => event.type)).toEqual([expected]);
        const after = given([...history[status], ...events]);
        if (expected === 'lifecycle_rejected') {
          expect(events[0]).toEqual({
            type: 'lifecycle_rejected',
            command: command.type,
            status,
            message: expect.stringContaining(
              `cannot ${command.type} a session that is ${status}`,
            ) as string,
          });
          expect(after.status).toBe(status);
        } else {
          expect(after.status).not.toBe(status);
        }
      });
    }
  }

  it('carries the command fields into the event, omitting absent optionals', () => {
    expect(
      decideLifecycle(given(history.created), { type: 'start', firstStageId: 'plan' }),
    ).toEqual([{ type: 'workflow_started', workflowId: 'default-coding', firstStageId: 'plan' }]);
    expect(decideLifecycle(given(history.running), { type: 'pause', by: 'alice' })).toEqual([
      { type: 'orchestration_paused', by: 'alice' },
    ]);
    expect(
      decideLifecycle(given([]), {
        type: 'create',
        task: 't',
        workspace: '/w',
        workflowId: 'wf',
        mode: 'auto',
        modelProfile: 'local',
      }),
    ).toEqual([
      {
        type: 'session_created',
        task: 't',
        workspace: '/w',
        workflowId: 'wf',
        mode: 'auto',
        modelProfile: 'local',
      },
    ]);
  });

  it('running ⇄ paused can repeat', () => {
    const events = [...history.paused, { type: 'orchestration_resumed', by: 'alice' }, paused];
    expect(given(events).status).toBe('paused');
    expect(decideLifecycle(given(events), { type: 'resume', by: 'bob' })).toEqual([
      { type: 'orchestration_resumed', by: 'bob' },
    ]);
  });
});

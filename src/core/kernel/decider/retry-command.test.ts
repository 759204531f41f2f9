import { describe, expect, it } from 'vitest';
import { decideCommand } from './decide-command.js';
import { KernelCommandError } from './kernel-errors.js';
import { kernelProjection, type KernelState } from './kernel-state.js';

/** A kernel state whose session failed in stage `implement` after `attempts` attempts. */
function failedState(acceptsRetry: boolean, attempts = 3): KernelState {
  const initial = kernelProjection.initial();
  return {
    ...initial,
    features: { ...initial.features, retry: { ...initial.features.retry, acceptsRetry } },
    phase: { kind: 'final' },
    session: {
      ...initial.session,
      status: 'failed',
      lastStageId: 'implement',
      attempts: { plan: 1, implement: attempts },
      failure: { category: 'provider', message: 'HTTP 400' },
    },
  };
}

const retry = { type: 'retry', by: 'ana', reason: 'the server is back' } as const;

describe('the retry command', () => {
  it('records session_retried for the stage that failed, one attempt past its last', () => {
    expect(decideCommand(failedState(true), 's1', retry)).toEqual([
      {
        type: 'session_retried',
        stageId: 'implement',
        attempt: 4,
        by: 'ana',
        reason: 'the server is back',
      },
    ]);
    expect(
      decideCommand(failedState(true, 1), 's1', { type: 'retry', by: 'ana' })[0],
    ).toMatchObject({ attempt: 2, reason: 'retried by a person' });
  });

  it('refuses a session recorded without the flag, one that did not fail, and one that failed before any stage', () => {
    expect(() => decideCommand(failedState(false), 's1', retry)).toThrow(
      /recorded by a correx that could not retry sessions/,
    );
    const running = failedState(true);
    expect(() =>
      decideCommand(
        { ...running, session: { ...running.session, status: 'running' } },
        's1',
        retry,
      ),
    ).toThrow(KernelCommandError);
    expect(() =>
      decideCommand(
        { ...running, session: { ...running.session, lastStageId: null } },
        's1',
        retry,
      ),
    ).toThrow(/failed before any stage ran/);
  });

  it('folds back to running, next the failed stage in its new attempt', () => {
    const state = failedState(true);
    const event = {
      eventId: 'e9',
      sessionId: 's1',
      sequence: 9,
      timestamp: '2026-12-01T12:00:00.000Z',
      version: 1,
      causationId: null,
      correlationId: null,
      position: 9,
      hash: '0'.repeat(64),
      payload: decideCommand(state, 's1', retry)[0]!,
    };
    const next = kernelProjection.evolve(state, event);
    expect(next.phase).toEqual({ kind: 'between_stages' });
    expect(next.session).toMatchObject({
      status: 'running',
      nextStage: { stageId: 'implement', attempt: 4 },
      failure: null,
    });
  });
});

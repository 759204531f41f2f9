import { describe, expect, it } from 'vitest';
import type { FailureCategory } from '../sessions/failure-category.js';
import { createDefaultCodingWorkflow, defaultCodingWorkflow } from './default-coding-workflow.js';
import {
  evaluateTransition,
  type StageOutcome,
  type TransitionState,
} from './evaluate-transition.js';
import { parseWorkflow } from './workflow.js';

const at = (
  stageId: string,
  cycles: Record<string, number> = {},
  attempt = 1,
): TransitionState => ({
  stageId,
  attempt,
  cycles,
});
const success: StageOutcome = { kind: 'completed' };
const verdict = (value: string): StageOutcome => ({ kind: 'completed', verdict: value });
const failure = (category: FailureCategory): StageOutcome => ({ kind: 'failed', category });

describe('evaluateTransition on the default coding workflow', () => {
  const wf = defaultCodingWorkflow;

  it.each([
    ['plan', 'implement'],
    ['implement', 'verify'],
    ['verify', 'review'],
    ['recovery', 'verify'],
  ])('%s → %s on success', (from, to) => {
    expect(evaluateTransition(wf, at(from), success)).toEqual({
      kind: 'advance',
      to,
      attempt: 1,
      event: {
        type: 'transition_taken',
        from,
        to,
        condition: 'success',
        edge: `${from}->${to}`,
        traversal: 1,
        attempt: 1,
      },
    });
  });

  it('review approved ends the workflow completed', () => {
    expect(evaluateTransition(wf, at('review'), verdict('approved'))).toEqual({
      kind: 'end',
      result: 'completed',
      event: {
        type: 'transition_taken',
        from: 'review',
        end: 'completed',
        condition: 'verdict:approved',
        edge: 'review->end:completed',
        traversal: 1,
      },
    });
  });

  it('review rework goes back to implement three times, then once to recovery, then fails', () => {
    const seen: string[] = [];
    const cycles: Record<string, number> = {};
    for (let round = 0; round < 5; round++) {
      const decision = evaluateTransition(wf, at('review', cycles), verdict('rework'));
      if (decision.kind === 'rejected') throw new Error(decision.event.message);
      cycles[decision.event.edge] = decision.event.traversal;
      seen.push(
        decision.kind === 'end'
          ? `end:${decision.result}`
          : `${decision.kind}:${decision.event.to}`,
      );
      if (decision.kind === 'end') break;
    }
    expect(seen).toEqual([
      'advance:implement',
      'advance:implement',
      'advance:implement',
      'advance:recovery',
      'end:failed',
    ]);
    expect(cycles).toEqual({
      'review->implement': 3,
      'review->recovery': 1,
      'review->end:failed': 1,
    });
  });

  it('the review bound is configurable', () => {
    const one = createDefaultCodingWorkflow({ maxReviewCycles: 1 });
    const first = evaluateTransition(one, at('review'), verdict('rework'));
    const second = evaluateTransition(
      one,
      at('review', { 'review->implement': 1 }),
      verdict('rework'),
    );
    expect(first.kind === 'advance' && first.to).toBe('implement');
    expect(second.kind === 'advance' && second.to).toBe('recovery');
  });

  it('after recovery a rework verdict fails the workflow even though approval would complete it', () => {
    const spent = { 'review->implement': 3, 'review->recovery': 1 };
    expect(evaluateTransition(wf, at('review', spent), verdict('rework')).kind).toBe('end');
    expect(evaluateTransition(wf, at('review', spent), verdict('approved'))).toMatchObject({
      kind: 'end',
      result: 'completed',
    });
  });

  it('a retryable failure with attempts left retries the same stage with the next attempt', () => {
    expect(evaluateTransition(wf, at('implement', {}, 2), failure('inference'))).toEqual({
      kind: 'retry',
      stageId: 'implement',
      attempt: 3,
      event: {
        type: 'transition_taken',
        from: 'implement',
        to: 'implement',
        condition: 'retry',
        edge: 'implement:retry',
        traversal: 2,
        attempt: 3,
      },
    });
  });

  it.each(['plan', 'implement', 'verify', 'review', 'recovery'])(
    '%s fails the workflow on its last attempt and on a non-retryable failure',
    (stageId) => {
      for (const [category, attempt] of [
        ['tool', 3],
        ['policy', 1],
      ] as const) {
        expect(evaluateTransition(wf, at(stageId, {}, attempt), failure(category))).toMatchObject({
          kind: 'end',
          result: 'failed',
          event: { condition: `failure:${category}`, edge: `${stageId}->end:failed` },
        });
      }
    },
  );

  it('a failed definition of done sends verify back to implement, bounded, then fails', () => {
    const first = evaluateTransition(wf, at('verify'), failure('validation'));
    expect(first).toMatchObject({
      kind: 'advance',
      to: 'implement',
      event: { edge: 'verify->implement' },
    });
    const spent = evaluateTransition(
      wf,
      at('verify', { 'verify->implement': 3 }),
      failure('validation'),
    );
    expect(spent).toMatchObject({ kind: 'end', result: 'failed' });
  });
});

describe('evaluateTransition rejections', () => {
  const wf = defaultCodingWorkflow;

  it('rejects an unknown stage', () => {
    expect(evaluateTransition(wf, at('deploy'), success)).toMatchObject({
      kind: 'rejected',
      reason: 'unknown_stage',
      event: {
        type: 'transition_rejected',
        from: 'deploy',
        reason: 'unknown_stage',
        outcome: 'success',
      },
    });
  });

  it('rejects a verdict the stage does not declare, a missing verdict, and a verdict where none is declared', () => {
    expect(evaluateTransition(wf, at('review'), verdict('maybe'))).toMatchObject({
      kind: 'rejected',
      reason: 'unknown_verdict',
      event: {
        outcome: 'verdict:maybe',
        message: expect.stringContaining('approved | rework') as string,
      },
    });
    expect(evaluateTransition(wf, at('review'), success)).toMatchObject({
      reason: 'unknown_verdict',
    });
    expect(evaluateTransition(wf, at('plan'), verdict('approved'))).toMatchObject({
      reason: 'unknown_verdict',
    });
  });

  it('rejects an outcome no transition allows once every bounded edge is spent', () => {
    const bounded = parseWorkflow({
      id: 'loop',
      initialStage: 'a',
      stages: [
        {
          id: 'a',
          role: 'worker',
          instructions: '',
          artifact: { kind: 'note', schema: {} },
          transitions: [
            { when: { on: 'success' }, to: 'a', maxTraversals: 2 },
            { when: { on: 'failure' }, end: 'completed' },
          ],
        },
      ],
    });
    expect(evaluateTransition(bounded, at('a', { 'a->a': 1 }), success)).toMatchObject({
      kind: 'advance',
    });
    expect(evaluateTransition(bounded, at('a', { 'a->a': 2 }), success)).toMatchObject({
      kind: 'rejected',
      reason: 'no_matching_transition',
      event: { from: 'a', outcome: 'success' },
    });
  });

  it('is deterministic: the same inputs give equal decisions', () => {
    const state = at('review', { 'review->implement': 2 });
    expect(evaluateTransition(wf, state, verdict('rework'))).toEqual(
      evaluateTransition(wf, state, verdict('rework')),
    );
  });
});

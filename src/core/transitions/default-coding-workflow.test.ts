import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FAILURE_CATEGORIES, type FailureCategory } from '../sessions/failure-category.js';
import { sessionProjection, type SessionState } from '../sessions/session-projection.js';
import { createDefaultCodingWorkflow } from './default-coding-workflow.js';
import { edgeName } from './workflow-definition.js';
import { evaluateTransition, transitionStateOf, type StageOutcome } from './evaluate-transition.js';
import type { Workflow } from './workflow.js';

/** Any payload, checked only by the code under test. */
type Payload = { readonly type: string; readonly [field: string]: unknown };

/** What a random stage attempt ends with; mapped onto a legal (or deliberately illegal) outcome. */
type Draw = {
  readonly ok: boolean;
  readonly approve: boolean;
  readonly category: FailureCategory;
  readonly bogus: boolean;
};

/** Biased so that long runs are common: mostly successes, mostly rework, some illegal verdicts. */
const chance = (percent: number) => fc.integer({ min: 0, max: 99 }).map((roll) => roll < percent);
const draw = fc.record({
  ok: chance(80),
  approve: chance(15),
  category: fc.constantFrom(...FAILURE_CATEGORIES),
  bogus: chance(10),
});
/** Adversarial: outcomes that keep the workflow going (rework, retryable failures). */
const prolonging = fc.record({
  ok: chance(90),
  approve: chance(2),
  category: fc.constantFrom<FailureCategory>('inference', 'provider', 'tool', 'validation'),
  bogus: fc.constant(false),
});

function outcomeFor(stageId: string, d: Draw, allowBogus: boolean): StageOutcome {
  if (allowBogus && d.bogus) return { kind: 'completed', verdict: 'maybe' };
  if (!d.ok) return { kind: 'failed', category: d.category };
  return stageId === 'review'
    ? { kind: 'completed', verdict: d.approve ? 'approved' : 'rework' }
    : { kind: 'completed' };
}

type Run = {
  readonly state: SessionState;
  readonly runs: number;
  readonly ended: 'completed' | 'failed' | null;
};

/** Drives a session through the workflow with the kernel's event sequence, folding the real projection. */
function drive(
  workflow: Workflow,
  draws: readonly Draw[],
  allowBogus: boolean,
  check: (state: SessionState) => void,
): Run {
  let sequence = 0;
  let state = sessionProjection.initial();
  const append = (payload: Payload) => {
    sequence += 1;
    state = sessionProjection.evolve(state, {
      eventId: `e${sequence}`,
      sessionId: 's',
      sequence,
      timestamp: '2026-11-30T12:00:00.000Z',
      version: 1,
      causationId: null,
      correlationId: null,
      payload,
      position: sequence,
      hash: '',
    });
    check(state);
  };
  append({
    type: 'workflow_started',
    workflowId: workflow.id,
    firstStageId: workflow.initialStage,
  });
  append({ type: 'stage_started', stageId: workflow.initialStage, attempt: 1 });
  let runs = 1;
  for (const d of draws) {
    const at = transitionStateOf(state)!;
    const outcome = outcomeFor(at.stageId, d, allowBogus);
    const decision = evaluateTransition(workflow, at, outcome);
    if (decision.kind === 'rejected') {
      const before = state;
      append(decision.event);
      expect({ ...state, lastSequence: before.lastSequence }).toEqual(before);
      continue;
    }
    append(
      outcome.kind === 'completed'
        ? {
            type: 'stage_completed',
            stageId: at.stageId,
            attempt: at.attempt,
            ...(outcome.verdict ? { verdict: outcome.verdict } : {}),
          }
        : {
            type: 'stage_failed',
            stageId: at.stageId,
            attempt: at.attempt,
            category: outcome.category,
            message: 'x',
          },
    );
    append(decision.event);
    if (decision.kind === 'end') return { state, runs, ended: decision.result };
    const next = decision.kind === 'advance' ? decision.to : decision.stageId;
    append({ type: 'stage_started', stageId: next, attempt: decision.attempt });
    runs += 1;
  }
  return { state, runs, ended: null };
}

/** Every bounded edge of the workflow with its bound. */
function bounds(workflow: Workflow): Map<string, number> {
  const result = new Map<string, number>();
  for (const stage of workflow.stages.values()) {
    for (const transition of stage.transitions) {
      if (transition.maxTraversals !== undefined)
        result.set(edgeName(stage.id, transition), transition.maxTraversals);
    }
  }
  return result;
}

describe('default coding workflow under any sequence of outcomes', () => {
  const config = fc.record({
    reviews: fc.integer({ min: 1, max: 5 }),
    verifies: fc.integer({ min: 1, max: 4 }),
    attempts: fc.integer({ min: 1, max: 4 }),
  });

  it('never takes a bounded edge more often than its bound, and visits recovery at most once', () => {
    fc.assert(
      fc.property(
        config,
        fc.array(draw, { maxLength: 300 }),
        ({ reviews, verifies, attempts }, draws) => {
          const workflow = createDefaultCodingWorkflow({
            maxReviewCycles: reviews,
            maxVerifyCycles: verifies,
            maxAttempts: attempts,
          });
          const limits = bounds(workflow);
          expect(limits.get('review->implement')).toBe(reviews);
          drive(workflow, draws, true, (state) => {
            for (const [edge, limit] of limits)
              expect(state.cycles[edge] ?? 0).toBeLessThanOrEqual(limit);
            expect(state.attempts.recovery ?? 0).toBeLessThanOrEqual(attempts);
            for (const [stageId, attempt] of Object.entries(state.attempts)) {
              expect(attempt).toBeLessThanOrEqual(workflow.stages.get(stageId)!.retry.maxAttempts);
            }
          });
        },
      ),
      { numRuns: 200 },
    );
  });

  it('always terminates within a bound derived from its limits', () => {
    fc.assert(
      fc.property(
        config,
        fc.array(fc.oneof(draw, prolonging), { minLength: 1000, maxLength: 1000 }),
        ({ reviews, verifies, attempts }, draws) => {
          const workflow = createDefaultCodingWorkflow({
            maxReviewCycles: reviews,
            maxVerifyCycles: verifies,
            maxAttempts: attempts,
          });
          const run = drive(workflow, draws, false, () => undefined);
          // Visits: plan 1, implement ≤ 1+R+V, recovery ≤ 3 (once from review, once per
          // workspace_precondition edge of implement and verify), verify and review ≤ 4+R+V each.
          const maxVisits = 1 + (1 + reviews + verifies) + 2 * (4 + reviews + verifies) + 3;
          expect(run.ended).not.toBeNull();
          expect(run.runs).toBeLessThanOrEqual(attempts * maxVisits);
          expect(run.state.timings.recovery?.runs ?? 0).toBeLessThanOrEqual(3 * attempts);
          for (const edge of ['review->recovery', 'implement->recovery', 'verify->recovery'])
            expect(run.state.cycles[edge] ?? 0).toBeLessThanOrEqual(1);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('the longest rework path: three reworks, recovery once, then failure', () => {
    const ok: Draw = { ok: true, approve: false, category: 'tool', bogus: false };
    const run = drive(
      createDefaultCodingWorkflow(),
      Array.from({ length: 40 }, () => ok),
      false,
      () => undefined,
    );
    expect(run.ended).toBe('failed');
    expect(run.state.cycles).toMatchObject({
      'review->implement': 3,
      'review->recovery': 1,
      'review->end:failed': 1,
      'recovery->verify': 1,
    });
    // plan + 3×(implement, verify, review) + implement, verify, review + recovery, verify, review
    expect(run.runs).toBe(1 + 4 * 3 + 3);
  });
});

import type { PayloadOf } from '../events/event-definition.js';
import type { FailureCategory } from '../sessions/failure-category.js';
import type { SessionState } from '../sessions/session-projection.js';
import type {
  TransitionRejection,
  transitionRejected,
  transitionTaken,
} from '../sessions/transition-events.js';
import { edgeName, type TransitionCondition } from './workflow-definition.js';
import type { Workflow, WorkflowStage } from './workflow.js';

/** What a stage attempt ended with: the input to a transition. */
export type StageOutcome =
  | { readonly kind: 'completed'; readonly verdict?: string }
  | {
      readonly kind: 'failed';
      readonly category: FailureCategory;
      /**
       * The kernel found the stage able to fix this failure itself (a missing workspace
       * prerequisite in a stage that can write files): retried in place like a `retryOn` category.
       */
      readonly retryInPlace?: boolean;
    };

/** Where the workflow stands when an outcome arrives. */
export type TransitionState = {
  readonly stageId: string;
  readonly attempt: number;
  /** Traversals per edge so far (the session projection's `cycles`). */
  readonly cycles: { readonly [edge: string]: number };
};

export type TransitionTakenPayload = PayloadOf<typeof transitionTaken>;
export type TransitionRejectedPayload = PayloadOf<typeof transitionRejected>;

/** The result of evaluating an outcome; `event` is the payload the kernel appends. */
export type TransitionDecision =
  | {
      readonly kind: 'advance';
      readonly to: string;
      readonly attempt: number;
      readonly event: TransitionTakenPayload;
    }
  | {
      readonly kind: 'retry';
      readonly stageId: string;
      readonly attempt: number;
      readonly event: TransitionTakenPayload;
    }
  | {
      readonly kind: 'end';
      readonly result: 'completed' | 'failed';
      readonly event: TransitionTakenPayload;
    }
  | {
      readonly kind: 'rejected';
      readonly reason: TransitionRejection;
      readonly event: TransitionRejectedPayload;
    };

/**
 * Decides where a stage outcome leads. Pure and total: the same workflow, state and outcome
 * always give the same decision, and an outcome no transition allows is refused (`rejected`),
 * never taken.
 *
 * Order: a failure whose category the stage retries, with attempts left, is retried in the
 * same stage; otherwise the stage's transitions are tried in declaration order and the first
 * whose condition matches and whose `maxTraversals` is not spent is taken.
 */
export function evaluateTransition(
  workflow: Workflow,
  state: TransitionState,
  outcome: StageOutcome,
): TransitionDecision {
  const described = describeOutcome(outcome);
  const stage = workflow.stages.get(state.stageId);
  if (!stage) {
    return reject(
      state.stageId,
      'unknown_stage',
      described,
      `workflow \`${workflow.id}\` has no stage \`${state.stageId}\``,
    );
  }
  if (outcome.kind === 'completed') {
    const verdictProblem = checkVerdict(stage, outcome.verdict);
    if (verdictProblem) return reject(stage.id, 'unknown_verdict', described, verdictProblem);
  }

  const retryable =
    outcome.kind === 'failed' &&
    (stage.retry.retryOn.includes(outcome.category) || outcome.retryInPlace === true);
  const attemptsLeft = state.attempt < stage.retry.maxAttempts;
  if (retryable && attemptsLeft) {
    const attempt = state.attempt + 1;
    return {
      kind: 'retry',
      stageId: stage.id,
      attempt,
      event: {
        type: 'transition_taken',
        from: stage.id,
        to: stage.id,
        condition: 'retry',
        edge: `${stage.id}:retry`,
        traversal: state.attempt,
        attempt,
      },
    };
  }

  for (const transition of stage.transitions) {
    if (!matches(transition.when, outcome, retryable)) continue;
    const edge = edgeName(stage.id, transition);
    const taken = state.cycles[edge] ?? 0;
    if (transition.maxTraversals !== undefined && taken >= transition.maxTraversals) continue;
    const base = {
      type: 'transition_taken' as const,
      from: stage.id,
      condition: describeCondition(transition.when, outcome),
      edge,
      traversal: taken + 1,
    };
    if (transition.to !== undefined) {
      return {
        kind: 'advance',
        to: transition.to,
        attempt: 1,
        event: { ...base, to: transition.to, attempt: 1 },
      };
    }
    const result = transition.end ?? 'failed';
    return { kind: 'end', result, event: { ...base, end: result } };
  }
  return reject(
    stage.id,
    'no_matching_transition',
    described,
    `stage \`${stage.id}\`: no transition allows outcome ${described} (its bounded transitions may be spent: ${JSON.stringify(state.cycles)})`,
  );
}

/** The transition state after a stage outcome, read from the session projection. */
export function transitionStateOf(session: SessionState): TransitionState | null {
  const stageId = session.activeStage?.stageId ?? session.lastStageId;
  if (stageId === null) return null;
  return {
    stageId,
    attempt: session.activeStage?.attempt ?? session.attempts[stageId] ?? 1,
    cycles: session.cycles,
  };
}

function matches(
  condition: TransitionCondition,
  outcome: StageOutcome,
  retryable: boolean,
): boolean {
  switch (condition.on) {
    case 'success':
      return outcome.kind === 'completed';
    case 'verdict':
      return outcome.kind === 'completed' && outcome.verdict === condition.verdict;
    case 'failure':
      return (
        outcome.kind === 'failed' &&
        (condition.categories === undefined || condition.categories.includes(outcome.category))
      );
    case 'retries_exhausted':
      // Reached only when the retry step above declined: a retryable failure with no attempts left.
      return outcome.kind === 'failed' && retryable;
  }
}

function checkVerdict(stage: WorkflowStage, verdict: string | undefined): string | undefined {
  if (stage.verdicts.length === 0) {
    return verdict === undefined
      ? undefined
      : `stage \`${stage.id}\` declares no verdicts but completed with verdict \`${verdict}\``;
  }
  if (verdict === undefined) {
    return `stage \`${stage.id}\` must complete with a verdict (${stage.verdicts.join(' | ')})`;
  }
  return stage.verdicts.includes(verdict)
    ? undefined
    : `stage \`${stage.id}\` completed with verdict \`${verdict}\`; expected one of ${stage.verdicts.join(' | ')}`;
}

function describeOutcome(outcome: StageOutcome): string {
  if (outcome.kind === 'failed') return `failure:${outcome.category}`;
  return outcome.verdict === undefined ? 'success' : `verdict:${outcome.verdict}`;
}

function describeCondition(condition: TransitionCondition, outcome: StageOutcome): string {
  switch (condition.on) {
    case 'success':
      return 'success';
    case 'verdict':
      return `verdict:${condition.verdict}`;
    case 'failure':
      return outcome.kind === 'failed' ? `failure:${outcome.category}` : 'failure';
    case 'retries_exhausted':
      return 'retries_exhausted';
  }
}

function reject(
  from: string,
  reason: TransitionRejection,
  outcome: string,
  message: string,
): TransitionDecision {
  return {
    kind: 'rejected',
    reason,
    event: { type: 'transition_rejected', from, reason, outcome, message },
  };
}

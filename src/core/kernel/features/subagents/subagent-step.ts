import type { WorkflowStage } from '../../../transitions/workflow.js';
import { awaitEffect, emit, type Step } from '../../decider/step.js';
import { stageFailed } from '../../decider/stage-failed.js';
import type { StageContext } from '../../decider/stage-context.js';
import { isTurnFinished } from '../../decider/stage-run.js';
import { startedDelayWait } from '../retry/retry-feature.js';

/**
 * The steps of a `subagent` stage attempt that differ from a model's: start the sub-session,
 * wait for it, and fail the attempt when it ended without a usable artifact (failed, cancelled,
 * or its artifact was not accepted here). Null once the child's artifact is the attempt's
 * answer: from there the stage validates it like any other (proposed, validated, approved,
 * definition of done, completed).
 */
export function nextForSubagent(
  context: StageContext,
  subagentStage: NonNullable<WorkflowStage['subagent']>,
): Step | null {
  const { state, run, stage } = context;
  const subagent = run.subagent;
  if (subagent === null) {
    const started = (state.subagents[stage.id] ?? 0) + 1;
    return emit({
      type: 'subagent_started',
      stageId: stage.id,
      attempt: run.attempt,
      childSessionId: childSessionIdOf(state.session.sessionId ?? '', stage.id, started),
      workflowId: subagentStage.workflow,
      task: subagentTask(subagentStage.task, state.session.task ?? ''),
    });
  }
  const turn = run.turn;
  if (subagent.status === 'running') {
    // A provider's delay from an earlier attempt is still waited out first.
    const wait = startedDelayWait(state.features.retry);
    if (wait !== null && (turn === null || isTurnFinished(turn))) return awaitEffect(wait);
    return awaitEffect({
      type: 'run_subagent',
      childSessionId: subagent.childSessionId,
      workflowId: subagent.workflowId,
      task: subagent.task,
      stageId: run.stageId,
      attempt: run.attempt,
      startedEventId: subagent.eventId,
    });
  }
  if (subagent.failure !== null)
    return emit(stageFailed(run, subagent.failure.category, subagent.failure.message));
  if (turn === null || isTurnFinished(turn)) {
    // No model to revise it: a rejected artifact (or a person's denial) ends the attempt.
    const feedback = run.transcript
      .filter((entry) => entry.kind === 'validation_feedback')
      .map((entry) => entry.content);
    return emit(
      stageFailed(
        run,
        'validation',
        [
          `the artifact of sub-session ${subagent.childSessionId} was not accepted`,
          ...feedback,
        ].join('\n'),
      ),
    );
  }
  return null;
}

/**
 * A sub-session's id: derived from its parent, the stage and how many sub-sessions the stage
 * started before (1 for the first), so replay and a resumed runner derive the same one.
 */
export function childSessionIdOf(
  parentSessionId: string,
  stageId: string,
  ordinal: number,
): string {
  return `${parentSessionId}.${stageId}.${ordinal}`;
}

/** The child's task: the stage's template with `{{task}}` replaced by the parent's task. */
export function subagentTask(template: string, parentTask: string): string {
  return template.replaceAll('{{task}}', parentTask);
}

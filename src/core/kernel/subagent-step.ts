import type { CorrexEvent } from '../event-catalog.js';
import type { WorkflowStage } from '../transitions/workflow.js';
import type { KernelState, StageRunState } from './kernel-state.js';
import { stageFailed } from './stage-failed.js';
import { isTurnFinished } from './stage-turn-status.js';

type Payload = CorrexEvent['payload'];

/**
 * The steps of a `subagent` stage attempt that differ from a model's: start the sub-session,
 * wait for it, and fail the attempt when it ended without a usable artifact (failed, cancelled,
 * or its artifact was not accepted here). Null once the child's artifact is the attempt's
 * answer: from there the stage validates it like any other (proposed, validated, approved,
 * definition of done, completed).
 */
export function stepSubagent(
  state: KernelState,
  stage: WorkflowStage & { readonly subagent: NonNullable<WorkflowStage['subagent']> },
  run: StageRunState,
): Payload[] | null {
  const subagent = run.subagent;
  if (subagent === null) {
    const started = (state.subagents[stage.id] ?? 0) + 1;
    return [
      {
        type: 'subagent_started',
        stageId: stage.id,
        attempt: run.attempt,
        childSessionId: childSessionIdOf(state.session.sessionId ?? '', stage.id, started),
        workflowId: stage.subagent.workflow,
        task: subagentTask(stage.subagent.task, state.session.task ?? ''),
      },
    ];
  }
  if (subagent.status === 'running') return [];
  if (subagent.failure !== null)
    return [stageFailed(run, subagent.failure.category, subagent.failure.message)];
  const turn = run.turn;
  if (turn === null || isTurnFinished(turn)) {
    // No model to revise it: a rejected artifact (or a person's denial) ends the attempt.
    const feedback = run.transcript
      .filter((entry) => entry.kind === 'validation_feedback')
      .map((entry) => entry.content);
    return [
      stageFailed(
        run,
        'validation',
        [
          `the artifact of sub-session ${subagent.childSessionId} was not accepted`,
          ...feedback,
        ].join('\n'),
      ),
    ];
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

import type { JsonValue } from '../../../events/canonical-json.js';
import type { WorkflowStage } from '../../../transitions/workflow.js';
import type { CommandRun, StageRunState } from '../../decider/stage-run.js';

/**
 * Why a verifier stage's attempt cannot pass on the recorded evidence, or null when it can.
 * The model's `passed` is a claim: `false` is taken at its word (it found a problem), `true`
 * counts only when no command the attempt ran failed without a later successful run of the same
 * command line. Failed checks already failed the attempt before this is asked.
 */
export function verdictFailure(
  stage: WorkflowStage,
  run: StageRunState,
  content: JsonValue,
): string | null {
  if (stage.role !== 'verifier') return null;
  const claim =
    typeof content === 'object' && content !== null && !Array.isArray(content)
      ? (content as { passed?: unknown; summary?: unknown })
      : {};
  const summary = typeof claim.summary === 'string' ? claim.summary : '';
  if (claim.passed === false)
    return `stage ${stage.id} reported that the change does not pass: ${summary || 'no summary'}`;
  const failing = unresolvedFailures(run.commands);
  if (failing.length === 0) return null;
  const lines = failing.map(
    (command) =>
      `- \`${command.command}\` exited ${command.exitCode ?? 'without an exit code'} (event #${command.sequence}):\n${command.output.slice(-1500)}`,
  );
  return `stage ${stage.id} claims passed, but the recorded evidence says otherwise; these commands failed and were not run again successfully:\n${lines.join('\n')}`;
}

/** Commands whose last run in the attempt failed. */
export function unresolvedFailures(commands: readonly CommandRun[]): CommandRun[] {
  const last = new Map<string, CommandRun>();
  for (const command of commands) last.set(command.command, command);
  return [...last.values()].filter((command) => !command.succeeded);
}

import { layeredGet, type LayeredRecord } from '../../base/layered-record.js';
import type { CorrexEvent } from '../../event-catalog.js';
import type { PayloadOf } from '../../events/event-definition.js';
import type { toolCallAssessed, WorldObservation } from '../../toolintent/toolintent-events.js';
import { hasCapability, type ToolDefinition } from '../../tools/tool-contract.js';
import type { WorkflowStage } from '../../transitions/workflow.js';
import type { StageRunState } from './stage-run.js';
import { stageFailed } from './stage-failed.js';

/**
 * Spec 001: three `reference-exists` blocks for the same prerequisite path in one stage attempt
 * are a missing workspace precondition, not tool-call noise: the attempt fails with category
 * `workspace_precondition`, which a stage that can write files retries in place and a workflow
 * may route to its recovery stage.
 */
export const REFERENCE_STRIKES = 3;

const RULE = 'reference-exists';

/** The missing paths an assessment blocked on (`reference-exists`), by their resolved path. */
export function missingReferences(
  payload: PayloadOf<typeof toolCallAssessed>,
  observations: LayeredRecord<WorldObservation>,
): string[] {
  const blocked = payload.findings.some(
    (finding) => finding.ruleId === RULE && finding.severity === 'block',
  );
  if (!blocked || payload.verdict !== 'BLOCK') return [];
  const paths = payload.targets
    .filter(
      (target) => !target.write && layeredGet(observations, target.resolved)?.kind === 'missing',
    )
    .map((target) => target.resolved);
  return [...new Set(paths)];
}

/** The `stage_failed` the third block of one path calls for, or null. */
export function referenceStrikeFailure(run: StageRunState): CorrexEvent['payload'] | null {
  const struck = Object.entries(run.referenceBlocks).find(
    ([, count]) => count >= REFERENCE_STRIKES,
  );
  if (struck === undefined) return null;
  return stageFailed(
    run,
    'workspace_precondition',
    `stage ${run.stageId} referred ${struck[1]} times to ${struck[0]}, which does not exist: the workspace lacks a prerequisite the stage needs`,
  );
}

/** Whether the stage holds a tool that can create a missing file (so it can fix it itself). */
export function canCreateFiles(
  stage: WorkflowStage,
  tools: ReadonlyMap<string, ToolDefinition>,
): boolean {
  return stage.allowedTools.some((name) => {
    const tool = tools.get(name);
    return tool !== undefined && hasCapability(tool, 'WRITES_FILES');
  });
}

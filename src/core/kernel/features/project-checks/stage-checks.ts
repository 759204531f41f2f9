import type { WorkflowStage } from '../../../transitions/workflow.js';
import { effectiveProjectChecks } from '../../../validation/project-check.js';
import { definitionOfDoneChecks, type StageCheck } from './dod-checks.js';
import type { KernelConfig } from '../../config/kernel-config.js';
import { featureEnabled } from '../kernel-features.js';
import type { KernelState } from '../../decider/kernel-state.js';
import { conversationalRunsChecks } from '../follow-up-turns/turn-step.js';

/** The roles whose stages must see the project's checks pass before they complete. */
const CHECKED_ROLES: ReadonlySet<string> = new Set(['verifier', 'reviewer']);

/**
 * The checks a stage runs once its artifact is accepted: its own definition of done, and (with
 * `checks-by-default`, for verifier and reviewer stages) the project's checks recorded at
 * session start with harness.yaml's changes. A stage's own check wins over a project check of
 * the same name.
 */
export function checksForStage(
  config: KernelConfig,
  state: KernelState,
  stage: WorkflowStage,
): StageCheck[] {
  const own = definitionOfDoneChecks(stage);
  // A conversational stage (follow-up turns) runs them once its turn changed files, reported
  // with its reply: advisory, the person decides what a failure means.
  if (conversationalRunsChecks(state.features.turns, stage)) {
    const named = new Set(own.map((check) => check.name));
    const project = effectiveProjectChecks(
      state.features.checks.projectChecks?.checks ?? [],
      config.checks,
    )
      .filter((check) => !named.has(check.name))
      .map((check) => ({ ...check, advisory: true, forgivesUnwritten: false }));
    return [...own, ...project];
  }
  if (!featureEnabled(config, 'checks') || !CHECKED_ROLES.has(stage.role)) return own;
  const named = new Set(own.map((check) => check.name));
  const recorded = state.features.checks.projectChecks;
  const project = effectiveProjectChecks(recorded?.checks ?? [], config.checks)
    .filter((check) => !named.has(check.name))
    .map((check) => ({ ...check, forgivesUnwritten: false }));
  return [...own, ...project];
}

import type { ContextCandidate } from '../../context/context-candidate.js';
import type { CorrexEvent } from '../../event-catalog.js';
import type { KernelConfig } from '../config/kernel-config.js';
import type {
  AcceptedArtifactFacts,
  CallApprovalRequest,
  FailedModelCallFacts,
  FailedModelCallOutcome,
  FeatureView,
  KernelFeature,
  ModelCallFacts,
  PackFacts,
  ProposedArtifactFacts,
  StageAt,
} from '../decider/kernel-feature.js';
import type { CallRecord, StageRunState } from '../decider/stage-run.js';
import type { Step } from '../decider/step.js';
import { budgetFeature } from './budget/budget-feature.js';
import type { BudgetState } from './budget/budget.js';
import { stageCheckpointsFeature } from './stage-checkpoints/stage-checkpoints-feature.js';
import type { CheckpointState } from './stage-checkpoints/stage-checkpoint.js';
import { critiqueFeature } from './critique-outcomes/critique-feature.js';
import type { CritiqueState } from './critique-outcomes/critique-state.js';
import { reviewFeature, type ReviewState } from './review-changes/review-feature.js';
import { checksFeature } from './project-checks/checks-feature.js';
import type { ChecksState } from './project-checks/checks-state.js';
import { briefFeature } from './brief-references/brief-feature.js';
import type { BriefState } from './brief-references/brief-state.js';
import { claimsFeature, type ClaimsState } from './claims-against-log/claims-feature.js';
import { retryFeature, type RetryState } from './retry/retry-feature.js';
import { diagnosticsFeature } from './language-diagnostics/diagnostics-feature.js';
import { verdictFeature } from './verdict-from-evidence/verdict-feature.js';
import { journalFeature } from './journal/journal-feature.js';
import { followUpTurnsFeature } from './follow-up-turns/follow-up-feature.js';
import type { TurnsState } from './follow-up-turns/turns-state.js';
import { approvalTimeoutFeature } from './approval-timeout/approval-timeout-feature.js';
import type { ApprovalWaits } from './approval-timeout/approval-waits.js';
import { transientWaitsFeature } from './transient-waits/transient-waits-feature.js';
import { canonicalOutputFeature } from './canonical-output/canonical-output-feature.js';
import { forkPathsFeature } from './fork-paths/fork-paths-feature.js';
import { manifestsFeature } from './manifest-by-reference/manifests-feature.js';
import type { ManifestHistory } from '../../inference/manifest-history.js';

/** Each registered feature's slice of `KernelState.features`, by the feature's name. */
export type FeatureStates = {
  readonly budget: BudgetState;
  readonly checkpoints: CheckpointState;
  readonly critique: CritiqueState;
  readonly review: ReviewState;
  readonly checks: ChecksState;
  readonly brief: BriefState;
  readonly claims: ClaimsState;
  readonly retry: RetryState;
  readonly diagnostics: null;
  readonly verdict: null;
  readonly journal: null;
  readonly turns: TurnsState;
  readonly approvalTimeout: ApprovalWaits;
  readonly transientWaits: null;
  readonly canonicalOutput: boolean;
  readonly forkPaths: boolean;
  readonly manifests: ManifestHistory;
};

type RegisteredFeature = {
  [Name in keyof FeatureStates]: KernelFeature<Name, FeatureStates[Name]>;
}[keyof FeatureStates];

/**
 * The kernel's features, in order. Append-only: the order is recorded behaviour (the hooks of
 * one fixed point run in this order, and their events are recorded in it). A new feature is one
 * folder, one line here and its slice's line in `FeatureStates`.
 */
export const KERNEL_FEATURES: readonly RegisteredFeature[] = [
  budgetFeature,
  stageCheckpointsFeature,
  critiqueFeature,
  reviewFeature,
  checksFeature,
  briefFeature,
  claimsFeature,
  retryFeature,
  diagnosticsFeature,
  verdictFeature,
  journalFeature,
  followUpTurnsFeature,
  approvalTimeoutFeature,
  transientWaitsFeature,
  canonicalOutputFeature,
  forkPathsFeature,
  manifestsFeature,
];

/** Whether the session runs `feature`'s hooks: the one place a feature's flag is read. */
export function featureOn(config: KernelConfig, feature: RegisteredFeature): boolean {
  return feature.flag === null || config.behaviour.flags.has(feature.flag.name);
}

export function initialFeatures(): FeatureStates {
  return Object.fromEntries(
    KERNEL_FEATURES.map((feature) => [feature.name, feature.state.initial]),
  ) as FeatureStates;
}

/** Whether the session runs the hooks of the feature named `name` (read through `featureOn`). */
export function featureEnabled(config: KernelConfig, name: keyof FeatureStates): boolean {
  const feature = KERNEL_FEATURES.find((f) => f.name === name);
  return feature !== undefined && featureOn(config, feature);
}

/**
 * Folds one event into every slice (`run`: the stage attempt running before it); the same object
 * back when no slice changed.
 */
export function evolveFeatures(
  features: FeatureStates,
  event: CorrexEvent,
  run: StageRunState | null,
): FeatureStates {
  let next: Record<string, unknown> | null = null;
  for (const feature of KERNEL_FEATURES) {
    const slice = features[feature.name];
    const evolved = (feature as KernelFeature<string, unknown>).state.evolve(slice, event, run);
    if (evolved !== slice) {
      next ??= { ...features };
      next[feature.name] = evolved;
    }
  }
  return next === null ? features : (next as FeatureStates);
}

/** What the ladder hands the hooks: the core facts and every slice (each hook sees its own). */
export type FeatureCore = Omit<FeatureView<unknown>, 'slice'> & {
  readonly features: FeatureStates;
};

function viewOf<S>(core: FeatureCore, slice: S): FeatureView<S> {
  return {
    config: core.config,
    slice,
    mode: core.mode,
    lastTimestamp: core.lastTimestamp,
    lastSequence: core.lastSequence,
    workspace: core.workspace,
  };
}

/**
 * The first feature's step between stages, before the next stage starts (an effect to await or
 * events), or null when every feature is done there.
 */
export function stepBetweenStages(core: FeatureCore, next: StageAt, task: string): Step | null {
  for (const feature of KERNEL_FEATURES) {
    const hook = (feature as KernelFeature<string, unknown>).hooks.betweenStages;
    if (hook === undefined || !featureOn(core.config, feature)) continue;
    const step = hook(viewOf(core, core.features[feature.name]), next, task);
    if (step !== null) return step;
  }
  return null;
}

/** What the features add to a stage's context pack, in registry order. */
export function featureCandidates(core: FeatureCore, pack: PackFacts): ContextCandidate[] {
  const candidates: ContextCandidate[] = [];
  for (const feature of KERNEL_FEATURES) {
    const hook = (feature as KernelFeature<string, unknown>).hooks.contextCandidates;
    if (hook === undefined || !featureOn(core.config, feature)) continue;
    candidates.push(...hook(viewOf(core, core.features[feature.name]), pack));
  }
  return candidates;
}

/** The first feature's step for a proposed artifact, before validation, or null. */
export function beforeValidation(core: FeatureCore, proposed: ProposedArtifactFacts): Step | null {
  for (const feature of KERNEL_FEATURES) {
    const hook = (feature as KernelFeature<string, unknown>).hooks.proposedArtifact;
    if (hook === undefined || !featureOn(core.config, feature)) continue;
    const step = hook(viewOf(core, core.features[feature.name]), proposed);
    if (step !== null) return step;
  }
  return null;
}

/** The events the features record just before `stage_started` of `next`, in registry order. */
export function eventsBeforeStage(core: FeatureCore, next: StageAt): CorrexEvent['payload'][] {
  const events: CorrexEvent['payload'][] = [];
  for (const feature of KERNEL_FEATURES) {
    const hook = (feature as KernelFeature<string, unknown>).hooks.beforeStage;
    if (hook === undefined || !featureOn(core.config, feature)) continue;
    events.push(...hook(viewOf(core, core.features[feature.name]), next));
  }
  return events;
}

/** The first feature's step that comes before the workflow's phase in a running session, or null. */
export function beforeWorkflow(core: FeatureCore): Step | null {
  for (const feature of KERNEL_FEATURES) {
    const hook = (feature as KernelFeature<string, unknown>).hooks.beforeWorkflow;
    if (hook === undefined || !featureOn(core.config, feature)) continue;
    const step = hook(viewOf(core, core.features[feature.name]));
    if (step !== null) return step;
  }
  return null;
}

/** The first feature's wait before the next model call (ahead of `beforeModelCall`), or null. */
export function waitBeforeModelCall(core: FeatureCore): Step | null {
  for (const feature of KERNEL_FEATURES) {
    const hook = (feature as KernelFeature<string, unknown>).hooks.waitBeforeModelCall;
    if (hook === undefined || !featureOn(core.config, feature)) continue;
    const step = hook(viewOf(core, core.features[feature.name]));
    if (step !== null) return step;
  }
  return null;
}

/** The first feature's answer to a failed model call, or null (the attempt fails). */
export function afterFailedModelCall(
  core: FeatureCore,
  run: StageRunState,
  failed: FailedModelCallFacts,
): FailedModelCallOutcome | null {
  for (const feature of KERNEL_FEATURES) {
    const hook = (feature as KernelFeature<string, unknown>).hooks.failedModelCall;
    if (hook === undefined || !featureOn(core.config, feature)) continue;
    const outcome = hook(viewOf(core, core.features[feature.name]), run, failed);
    if (outcome !== null) return outcome;
  }
  return null;
}

/** The first feature's step that replaces the next model call, or null. */
export function beforeModelCall(
  core: FeatureCore,
  run: StageRunState,
  call: ModelCallFacts,
): Step | null {
  for (const feature of KERNEL_FEATURES) {
    const hook = (feature as KernelFeature<string, unknown>).hooks.beforeModelCall;
    if (hook === undefined || !featureOn(core.config, feature)) continue;
    const step = hook(viewOf(core, core.features[feature.name]), run, call);
    if (step !== null) return step;
  }
  return null;
}

/** The first feature's step once an accepted artifact's checks passed (a hold or a failure), or null. */
export function afterAcceptedChecks(
  core: FeatureCore,
  accepted: AcceptedArtifactFacts,
): Step | null {
  for (const feature of KERNEL_FEATURES) {
    const hook = (feature as KernelFeature<string, unknown>).hooks.acceptedChecks;
    if (hook === undefined || !featureOn(core.config, feature)) continue;
    const step = hook(viewOf(core, core.features[feature.name]), accepted);
    if (step !== null) return step;
  }
  return null;
}

/** The first feature's step after an accepted artifact, before the stage completes, or null. */
export function afterAcceptedArtifact(
  core: FeatureCore,
  accepted: AcceptedArtifactFacts,
): Step | null {
  for (const feature of KERNEL_FEATURES) {
    const hook = (feature as KernelFeature<string, unknown>).hooks.acceptedArtifact;
    if (hook === undefined || !featureOn(core.config, feature)) continue;
    const step = hook(viewOf(core, core.features[feature.name]), accepted);
    if (step !== null) return step;
  }
  return null;
}

/** The `approval_requested` to record for a tool call, as each feature in turn leaves it. */
export function requestedApproval(
  core: FeatureCore,
  request: CallApprovalRequest,
): CallApprovalRequest {
  let requested = request;
  for (const feature of KERNEL_FEATURES) {
    const hook = (feature as KernelFeature<string, unknown>).hooks.approvalRequested;
    if (hook === undefined || !featureOn(core.config, feature)) continue;
    requested = hook(viewOf(core, core.features[feature.name]), requested);
  }
  return requested;
}

/** The first feature's step for a tool call awaiting approval, or null (the plain wait). */
export function whileAwaitingApproval(core: FeatureCore, call: CallRecord): Step | null {
  for (const feature of KERNEL_FEATURES) {
    const hook = (feature as KernelFeature<string, unknown>).hooks.awaitingApproval;
    if (hook === undefined || !featureOn(core.config, feature)) continue;
    const step = hook(viewOf(core, core.features[feature.name]), call);
    if (step !== null) return step;
  }
  return null;
}

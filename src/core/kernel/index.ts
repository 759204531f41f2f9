/**
 * The kernel's face: everything outside src/core/kernel imports the kernel from here (a
 * dependency-cruiser rule holds it). What is not listed is the kernel's own business.
 */
export { KERNEL_VERSION, behaviourFlags } from './config/behaviour.js';
export { DEFAULT_KERNEL_LIMITS, createKernelConfig } from './config/kernel-config.js';
export type {
  JournalSummaryAuthor,
  KernelConfig,
  KernelConfigOptions,
  KernelLimits,
} from './config/kernel-config.js';
export {
  kernelConfigFromConfiguration,
  sessionConfiguredPayload,
  toolFromRecord,
} from './config/session-configuration.js';
export type { RecordedTool } from './config/session-configuration.js';
export { answerTextOf } from './decider/artifact-content.js';
export { decide, pendingEffect } from './decider/decide.js';
export { prefixPathsInsideFork } from './features/fork-paths/fork-paths.js';
export { isInputEvent } from './decider/input-events.js';
export type { Decision } from './decider/decide.js';
export type { Effect } from './decider/effect.js';
export type { KernelCommand, KernelInput } from './decider/kernel-input.js';
export { kernelProjection, runOf } from './decider/kernel-state.js';
export type { KernelState } from './decider/kernel-state.js';
export { buildStageRequest } from './decider/stage-request.js';
export { INITIAL_BUDGET, evolveBudget, tokenCost } from './features/budget/budget.js';
export type { SessionBudgets } from './features/budget/budget.js';
export { isSummaryRequestId } from './features/journal/summary-request-id.js';
export { describeCallExplanation, explainCall } from './queries/call-explanation.js';
export { gateSession } from './queries/merge-gate.js';
export { whatIfPolicy } from './queries/policy-what-if.js';
export { proposedCallPaths, whatIfProposedCall } from './queries/proposed-call-what-if.js';
export type {
  ProposedCall,
  ProposedCallVerdict,
  ProposedCallWhatIf,
} from './queries/proposed-call-what-if.js';
export type { WhatIfReport } from './queries/policy-what-if.js';
export { provenanceFacts } from './queries/provenance-facts.js';
export type { ChangedFile, ProvenanceFacts } from './queries/provenance-facts.js';
export { planUndo, recordedChanges } from './queries/session-changes.js';
export type { UndoStep } from './queries/session-changes.js';
export { sessionCost } from './queries/session-cost.js';
export { eventsOfTurn, sessionTurns } from './queries/session-turns.js';
export type { SessionTurn } from './queries/session-turns.js';
export {
  recordedProfiles,
  recordsCachedInputPrices,
  sessionSpend,
  ownSessionSpend,
  sessionSpendProjection,
  spendOf,
} from './queries/session-spend.js';
export type { SpendState } from './queries/session-spend.js';
export { UnknownSessionError, appendToSession } from './runner/append-decided.js';
export type { RecordingContext } from './runner/append-decided.js';
export type { KernelObserver } from './runner/kernel-observer.js';
export type {
  AnalysisRun,
  DetectedChecks,
  DiagnosticsRun,
  HookRunner,
  KernelPorts,
  LanguageDiagnostics,
  ProjectCheckDetector,
  StaticAnalysisRunner,
  Timer,
  ToolExecution,
  ToolExecutionRequest,
  ToolRunner,
} from './runner/kernel-ports.js';
export { recordCommand } from './runner/record-command.js';
export { recordStart } from './runner/record-start.js';
export { recordedKernelConfig, replaySession } from './runner/replay-session.js';
export type {
  ReplayDivergence,
  ReplayReport,
  SessionReplayOptions,
} from './runner/replay-session.js';
export { runSession, startSession } from './runner/run-session.js';
export type { RunOutcome, RunSessionOptions, SessionRun } from './runner/run-session.js';

/**
 * `correx`: the decider, its events and the contracts adapters implement. Nothing here opens a
 * database, a socket or a model: stores, providers, the server and the Node runtime adapters are
 * in their own entries (`correx/sqlite`, `correx/postgres`, `correx/stores`, `correx/providers`,
 * `correx/runtime`, `correx/server`, `correx/testing`). Explicit named exports only.
 */

// --- errors and base ports ---
export { CorrexError } from './core/base/correx-error.js';
export { type Clock, createFixedClock } from './core/base/clock.js';
export type { IdSource } from './core/base/id-source.js';
export { systemClock } from './infrastructure/system/system-clock.js';
export { createUuidV7IdSource } from './infrastructure/system/uuid-v7-id-source.js';

// --- events and the log's contract ---
export { canonicalJson, type JsonValue, type JsonObject } from './core/events/canonical-json.js';
export { defineEvent, type EventDefinition } from './core/events/event-definition.js';
export { createEventCatalog, type EventCatalog } from './core/events/event-catalog.js';
export type { NewEvent, StoredEvent } from './core/events/event-envelope.js';
export type {
  EventStore,
  AppendOptions,
  ReadOptions,
  SubscribeOptions,
  SessionSummary,
} from './core/events/event-store.js';
export type { ChainVerification } from './core/events/hash-chain.js';
export { ConcurrencyError } from './core/events/concurrency-error.js';
export { DuplicateEventError } from './core/events/duplicate-event-error.js';
export { InvalidEventError, InvalidAppendError } from './core/events/invalid-event-error.js';
export { CorruptEventError } from './core/events/corrupt-event-error.js';
export { StoreClosedError } from './core/events/store-closed-error.js';
export { createInMemoryEventStore } from './core/events/in-memory-event-store.js';
export type { Projection } from './core/events/projection.js';
export { replay } from './core/events/replay.js';
export type { SnapshotStore } from './core/events/snapshot-store.js';
export {
  correxEventCatalog,
  type EventPayload,
  type CorrexEvent,
  type CorrexEventStore,
} from './core/event-catalog.js';
export type { ArtifactStore } from './core/artifacts/artifact-store.js';
export { createInMemoryArtifactStore } from './core/artifacts/in-memory-artifact-store.js';
export type { Artifact } from './core/artifacts/artifact.js';

// --- the decider ---
export { decide, pendingEffect, type Decision } from './core/kernel/index.js';
export type { Effect } from './core/kernel/index.js';
export type { KernelCommand, KernelInput } from './core/kernel/index.js';
export {
  createKernelConfig,
  type KernelConfig,
  type KernelConfigOptions,
} from './core/kernel/index.js';
export { KERNEL_VERSION, behaviourFlags } from './core/kernel/index.js';
export { kernelProjection, type KernelState } from './core/kernel/index.js';
export {
  runSession,
  startSession,
  type RunSessionOptions,
  type RunOutcome,
  type SessionRun,
} from './core/kernel/index.js';
export {
  replaySession,
  type SessionReplayOptions,
  type ReplayReport,
} from './core/kernel/index.js';
export { recordCommand } from './core/kernel/index.js';
export type { KernelObserver } from './core/kernel/index.js';
export { sessionProjection, type SessionState } from './core/sessions/session-projection.js';
export type { SessionStatus } from './core/sessions/session-status.js';

// --- contracts adapters implement ---
export type {
  KernelPorts,
  ToolRunner,
  ToolExecution,
  ToolExecutionRequest,
  StaticAnalysisRunner,
  Timer,
} from './core/kernel/index.js';
export type { InferenceProvider } from './core/inference/inference-provider.js';
export type { InferenceRequest } from './core/inference/inference-request.js';
export type { InferenceResult, ToolCallProposal } from './core/inference/inference-result.js';
export {
  InferenceError,
  type InferenceFailureCategory,
} from './core/inference/inference-failure.js';
export { ModelProfileSchema, type ModelProfile } from './core/inference/model-profile.js';
export type { WorldProbe } from './core/toolintent/world-probe.js';
export type { SessionLocker, SessionLock } from './infrastructure/locks/session-locker.js';
export { SessionBusyError } from './infrastructure/locks/session-locker.js';

// --- what a session is configured with ---
export { parseWorkflow, type Workflow } from './core/transitions/workflow.js';
export type { WorkflowDefinition } from './core/transitions/workflow-definition.js';
export { defaultCodingWorkflow } from './core/transitions/default-coding-workflow.js';
export { chatWorkflow } from './core/transitions/chat-workflow.js';
export { parseWorkspacePolicy, type WorkspacePolicy } from './core/policies/workspace-policy.js';
export { defineTool, type ToolDefinition as ToolContract } from './core/tools/tool-contract.js';
export { builtinTools } from './core/tools/builtin-tools.js';
export type { ToolCallRule, ToolCallContext } from './core/toolintent/tool-call-rule.js';
export { finding } from './core/toolintent/finding.js';
export { defaultToolCallRules } from './core/toolintent/default-rules.js';
export type { ApprovalTier, OperatorMode } from './core/approvals/approval-tier.js';

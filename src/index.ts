/**
 * correx's public library surface. Explicit named exports only: what is not listed here is
 * internal. Each module keeps its own block.
 */

// --- base ---
export { CorrexError } from './core/base/correx-error.js';
export { type Clock, createFixedClock, createSteppingClock } from './core/base/clock.js';
export { type IdSource, createCountingIdSource } from './core/base/id-source.js';
export { type Sha256, sha256Hex } from './core/base/sha256.js';

// --- events ---
export {
  canonicalJson,
  type JsonValue,
  type JsonObject,
  NonCanonicalValueError,
} from './core/events/canonical-json.js';
export {
  defineEvent,
  type EventDefinition,
  type Upcaster,
  type PayloadOf,
} from './core/events/event-definition.js';
export { createEventCatalog, type EventCatalog } from './core/events/event-catalog.js';
export { createEventCodec, type EventCodec } from './core/events/event-codec.js';
export type {
  NewEvent,
  EventEnvelope,
  StoredEvent,
  PayloadShape,
} from './core/events/event-envelope.js';
export type {
  EventStore,
  AppendOptions,
  ReadOptions,
  ReadAllOptions,
  SubscribeOptions,
  SubscriptionMessage,
  SessionSummary,
} from './core/events/event-store.js';
export { GENESIS_HASH, type ChainVerification } from './core/events/hash-chain.js';
export { ConcurrencyError } from './core/events/concurrency-error.js';
export { DuplicateEventError } from './core/events/duplicate-event-error.js';
export { InvalidEventError, InvalidAppendError } from './core/events/invalid-event-error.js';
export { CorruptEventError, type CorruptionReason } from './core/events/corrupt-event-error.js';
export { StoreClosedError } from './core/events/store-closed-error.js';
export {
  InMemoryEventStore,
  createInMemoryEventStore,
} from './core/events/in-memory-event-store.js';
export type { Projection } from './core/events/projection.js';
export {
  replay,
  replayAndSnapshot,
  type ReplayResult,
  type ReplayOptions,
} from './core/events/replay.js';
export type { Snapshot, SnapshotStore } from './core/events/snapshot-store.js';
export { createInMemorySnapshotStore } from './core/events/in-memory-snapshot-store.js';
export {
  correxEventCatalog,
  eventDefinitions,
  type EventPayload,
  type CorrexEvent,
  type CorrexEventStore,
} from './core/event-catalog.js';
export {
  SqliteEventStore,
  openSqliteEventStore,
  type SqliteEventStoreOptions,
} from './infrastructure/sqlite/sqlite-event-store.js';
export {
  SqliteSnapshotStore,
  openSqliteSnapshotStore,
} from './infrastructure/sqlite/sqlite-snapshot-store.js';
export {
  SqliteOpenError,
  type SqliteOptions,
  type SqliteSynchronous,
} from './infrastructure/sqlite/sqlite-database.js';
export { systemClock } from './infrastructure/system/system-clock.js';
export { createUuidV7IdSource } from './infrastructure/system/uuid-v7-id-source.js';
export { nodeSha256 } from './infrastructure/system/node-sha256.js';

// --- inference and context ---
export { ModelCapabilitySchema, type ModelCapability } from './core/inference/model-capability.js';
export {
  InferenceMessageSchema,
  ToolDefinitionSchema,
  InferenceLimitsSchema,
  InferenceRequestSchema,
  JsonSchemaDocumentSchema,
  type InferenceMessage,
  type ToolDefinition,
  type InferenceLimits,
  type InferenceRequest,
  type JsonSchemaDocument,
} from './core/inference/inference-request.js';
export {
  InferenceResultSchema,
  ToolCallProposalSchema,
  FinishReasonSchema,
  TokenUsageSchema,
  type InferenceResult,
  type ToolCallProposal,
  type FinishReason,
  type TokenUsage,
} from './core/inference/inference-result.js';
export {
  safeParseToolArguments,
  createToolCallProposal,
  type ToolArgumentsParse,
} from './core/inference/tool-call-arguments.js';
export {
  InferenceError,
  InferenceFailureCategorySchema,
  isRetryableCategory,
  type InferenceFailureCategory,
} from './core/inference/inference-failure.js';
export type { InferenceProvider } from './core/inference/inference-provider.js';
export { inferenceRequestDigest } from './core/inference/request-digest.js';
export {
  ContextManifestSchema,
  ContextLayerSchema,
  SourceRefSchema,
  type ContextManifest,
  type ContextLayer,
  type SourceRef,
  type ManifestEntry,
  type ManifestExclusion,
  type ExclusionReason,
  type Compression,
} from './core/inference/context-manifest.js';
export {
  inferenceRequested,
  inferenceCompleted,
  inferenceFailed,
  inferenceEvents,
  inferenceFailedPayload,
} from './core/inference/inference-events.js';
export {
  ModelProfileSchema,
  ModelProfileListSchema,
  type ModelProfile,
  type ModelProfileInput,
} from './core/inference/model-profile.js';
export {
  createInferenceRouter,
  parseModelProfiles,
  effectiveCapabilities,
  InvalidModelProfilesError,
  type InferenceRouter,
  type RouteRequest,
  type RouteDecision,
  type ProfileRejection,
} from './core/inference/inference-router.js';
export {
  createReplayInferenceProvider,
  recordedInferences,
  ReplayMissingRecordingError,
  type RecordedInference,
} from './core/inference/replay-inference-provider.js';
export {
  tokenUsageProjection,
  type SessionTokenUsage,
  type UsageTotals,
} from './core/inference/token-usage-projection.js';
export {
  createEstimatingTokenizer,
  estimateTokens,
  type Tokenizer,
} from './core/context/tokenizer.js';
export { compressHeadTail, omissionMarker } from './core/context/compress-head-tail.js';
export {
  isPinned,
  isCompressible,
  type ContextCandidate,
  type ContextEntryKind,
} from './core/context/context-candidate.js';
export {
  TokenBudgetSchema,
  type TokenBudget,
  type ContextEntry,
  type ContextPack,
} from './core/context/context-pack.js';
export {
  buildContextPack,
  safeBuildContextPack,
  PinnedContextOverBudgetError,
  type ContextPackInput,
  type ContextPackResult,
} from './core/context/build-context-pack.js';
export {
  ContextInputError,
  resolveContextPackSettings,
  type ContextPackOptions,
} from './core/context/context-pack-settings.js';
export { renderContextPack, contextPackDigest } from './core/context/render-context-pack.js';
export {
  OPERATING_GUIDANCE,
  operatingGuidanceCandidate,
} from './core/context/operating-guidance.js';
export { steeringNoteCandidate, type SteeringNote } from './core/context/steering-note.js';
export { toolArgsHintCandidate, type ToolArgsHint } from './core/context/tool-args-hint.js';
export {
  createOpenAICompatibleProvider,
  type OpenAICompatibleProviderOptions,
} from './infrastructure/providers/openai-compatible-provider.js';
export {
  createAnthropicProvider,
  type AnthropicProviderOptions,
} from './infrastructure/providers/anthropic-provider.js';
export {
  LlamaCppProvider,
  LlamaCppUnavailableError,
  LlamaCppModelNotFoundError,
  type LlamaCppProviderOptions,
} from './infrastructure/providers/llama-cpp-provider.js';
export {
  createScriptedProvider,
  loadScriptedTurns,
  ScriptedTurnSchema,
  ScriptedProviderError,
  type ScriptedTurn,
  type ScriptedProvider,
} from './infrastructure/providers/scripted-provider.js';
export { redactSecrets } from './infrastructure/providers/redact-secrets.js';
export {
  createLlamaCppTokenizer,
  type TokenizingModel,
} from './infrastructure/tokenizers/llama-cpp-tokenizer.js';
// --- end inference and context ---

// --- postgres store ---
export {
  PostgresEventStore,
  openPostgresEventStore,
  type PostgresEventStoreOptions,
  type PostgresStoreTarget,
} from './infrastructure/postgres/postgres-event-store.js';
export {
  PostgresSnapshotStore,
  openPostgresSnapshotStore,
  type PostgresSnapshotStoreOptions,
} from './infrastructure/postgres/postgres-snapshot-store.js';
export {
  migratePostgres,
  POSTGRES_SCHEMA_VERSION,
  type PostgresMigrateOptions,
  type PostgresMigrationReport,
} from './infrastructure/postgres/postgres-migrations.js';
export {
  PostgresConnectError,
  PostgresSchemaError,
  type PostgresConnectReason,
} from './infrastructure/postgres/postgres-errors.js';
export {
  DEFAULT_POSTGRES_SCHEMA,
  redactConnectionString,
  type PostgresPoolOptions,
} from './infrastructure/postgres/postgres-connection.js';
export {
  openStores,
  parseStoreLocation,
  StoreLocationError,
  type OpenStoresOptions,
  type OpenedStores,
  type StoreKind,
  type StoreLocation,
} from './infrastructure/open-store.js';
export {
  copySessions,
  StoreCopyError,
  type CopySessionsOptions,
  type SessionCopyReport,
} from './infrastructure/store-copy.js';
// --- end postgres store ---

// --- workflows, transitions, sessions, artifacts, validation ---
export {
  FAILURE_CATEGORIES,
  FailureCategorySchema,
  type FailureCategory,
} from './core/sessions/failure-category.js';
export {
  SESSION_STATUSES,
  SessionStatusSchema,
  LIFECYCLE_COMMANDS,
  isFinalStatus,
  type SessionStatus,
  type LifecycleCommandType,
} from './core/sessions/session-status.js';
export {
  sessionEvents,
  lifecycleRejected,
  stageStarted,
  stageCompleted,
  stageFailed,
} from './core/sessions/session-events.js';
export {
  transitionEvents,
  transitionTaken,
  transitionRejected,
  TRANSITION_REJECTIONS,
  type TransitionRejection,
} from './core/sessions/transition-events.js';
export {
  decideLifecycle,
  canApplyLifecycle,
  type LifecycleCommand,
  type LifecyclePayload,
  type LifecycleView,
} from './core/sessions/session-lifecycle.js';
export {
  sessionProjection,
  resumePointOf,
  type SessionState,
  type ResumePoint,
} from './core/sessions/session-projection.js';
export {
  WorkflowDefinitionSchema,
  StageDefinitionSchema,
  TransitionDefinitionSchema,
  TransitionConditionSchema,
  RetryPolicySchema,
  DefinitionOfDoneSchema,
  edgeName,
  type WorkflowDefinition,
  type WorkflowDefinitionInput,
  type StageDefinition,
  type TransitionDefinition,
  type TransitionCondition,
  type RetryPolicy,
  type DefinitionOfDone,
} from './core/transitions/workflow-definition.js';
export {
  findGraphIssues,
  WORKFLOW_ISSUE_CODES,
  type WorkflowIssue,
  type WorkflowIssueCode,
} from './core/transitions/workflow-graph.js';
export {
  parseWorkflow,
  safeParseWorkflow,
  type Workflow,
  type WorkflowStage,
  type ParseWorkflowOptions,
  type SafeParseWorkflowResult,
} from './core/transitions/workflow.js';
export { InvalidWorkflowError } from './core/transitions/invalid-workflow-error.js';
export {
  evaluateTransition,
  transitionStateOf,
  type StageOutcome,
  type TransitionState,
  type TransitionDecision,
} from './core/transitions/evaluate-transition.js';
export {
  defaultCodingWorkflow,
  createDefaultCodingWorkflow,
  defaultCodingWorkflowDefinition,
  PlanArtifactSchema,
  ChangeArtifactSchema,
  VerificationArtifactSchema,
  ReviewArtifactSchema,
  RecoveryArtifactSchema,
  type DefaultCodingWorkflowOptions,
} from './core/transitions/default-coding-workflow.js';
export {
  ArtifactSchema,
  ArtifactHashSchema,
  createArtifact,
  hashArtifact,
  hasValidHash,
  type Artifact,
  type ArtifactDraft,
  type ArtifactLineage,
} from './core/artifacts/artifact.js';
export { ArtifactIntegrityError, ArtifactLineageError } from './core/artifacts/artifact-errors.js';
export type { ArtifactStore } from './core/artifacts/artifact-store.js';
export {
  InMemoryArtifactStore,
  createInMemoryArtifactStore,
} from './core/artifacts/in-memory-artifact-store.js';
export {
  artifactEvents,
  artifactProposed,
  artifactAccepted,
} from './core/artifacts/artifact-events.js';
export { artifactProjection, type ArtifactsState } from './core/artifacts/artifact-projection.js';
export {
  validationEvents,
  validationFailed,
  VALIDATION_PHASES,
  type ValidationPhase,
} from './core/validation/validation-events.js';
export type {
  ArtifactValidator,
  SemanticInput,
  ValidationContext,
  WorkspaceObservation,
  AcceptedArtifactRef,
} from './core/validation/artifact-validator.js';
export {
  createValidatorRegistry,
  ValidatorRegistrationError,
  type ValidatorRegistry,
} from './core/validation/validator-registry.js';
export {
  validateArtifact,
  artifactApprovalKey,
  type ValidationRequest,
  type ValidationResult,
} from './core/validation/validate-artifact.js';
export { validationContextOf } from './core/validation/validation-context.js';
export {
  createDefaultValidatorRegistry,
  planFilesObservedValidator,
  reviewReferencesArtifactValidator,
} from './core/validation/default-validators.js';
export {
  SqliteArtifactStore,
  openSqliteArtifactStore,
  type SqliteArtifactStoreOptions,
} from './infrastructure/sqlite/sqlite-artifact-store.js';
export {
  parseWorkflowYaml,
  loadWorkflowYamlFile,
  loadWorkflowDirectory,
  WorkflowFileError,
} from './infrastructure/config/workflow-yaml.js';
// --- end workflows, transitions, sessions, artifacts, validation ---

// --- tools, plane-2 assessment, approvals, policies ---
export {
  ApprovalTierSchema,
  OperatorModeSchema,
  maxTier,
  tierRank,
  type ApprovalTier,
  type OperatorMode,
} from './core/approvals/approval-tier.js';
export {
  GrantScopeSchema,
  approvalBypassed,
  approvalGrantAdded,
  approvalGrantRevoked,
  type GrantScope,
} from './core/approvals/approval-events.js';
export {
  approvalGrantsProjection,
  activeGrants,
  findCoveringGrant,
  type ApprovalGrant,
  type ApprovalGrantsState,
  type ApprovalSubject,
} from './core/approvals/approval-grants.js';
export {
  decideApproval,
  type ApprovalDecision,
  type ApprovalEventPayload,
  type ApprovalInput,
} from './core/approvals/decide-approval.js';
export {
  WorkspacePolicySchema,
  PolicyOverlaySchema,
  DEFAULT_ALLOWED_EXECUTABLES,
  DEFAULT_NEVER_WRITABLE,
  InvalidPolicyError,
  parseWorkspacePolicy,
  parsePolicyOverlay,
  type WorkspacePolicy,
  type WorkspacePolicyInput,
  type PolicyOverlay,
} from './core/policies/workspace-policy.js';
export {
  mergePolicy,
  type MergedPolicy,
  type PolicyWidening,
} from './core/policies/merge-policy.js';
export { matchGlob } from './core/policies/path-glob.js';
export {
  ParamRoleSchema,
  ToolCapabilitySchema,
  defineTool,
  hasCapability,
  isMutatingTool,
  toolArgsJsonSchema,
  describeToolForModel,
  type ParamRole,
  type ToolCapability,
  // core/inference already exports a `ToolDefinition` (what a model is shown); this is the tool's contract.
  type ToolDefinition as ToolContract,
} from './core/tools/tool-contract.js';
export {
  builtinTools,
  readFileTool,
  writeFileTool,
  editFileTool,
  listDirTool,
  globTool,
  grepTool,
  execTool,
  httpFetchTool,
  copyFileTool,
  moveFileTool,
} from './core/tools/builtin-tools.js';
export {
  resolveToolPath,
  isPathInside,
  relativeInside,
  normalizeAbsolute,
  InvalidToolPathRootsError,
  MAX_TOOL_PATH_LENGTH,
  type ResolvedToolPath,
  type ToolPathResult,
  type ToolPathRejection,
  type ToolPathRoots,
} from './core/tools/tool-path.js';
export {
  toolCallStarted,
  toolReceipt,
  TouchedFileSchema,
  ToolOutcomeSchema,
  type TouchedFile,
  type ToolOutcome,
} from './core/tools/tool-events.js';
export {
  worldObserved,
  toolCallAssessed,
  egressAllowlistChanged,
  WorldObservationSchema,
  FindingSchema,
  type WorldObservation,
  type Finding,
  type AssessedTarget,
  type Verdict,
  type RiskLevel,
} from './core/toolintent/toolintent-events.js';
export {
  assessToolCall,
  pathsToObserve,
  approvalSubjectOf,
  type ProposedToolCall,
  type ToolCallAssessment,
} from './core/toolintent/assess-tool-call.js';
export {
  createAssessmentPolicy,
  defaultToolCallRules,
  type AssessmentPolicy,
} from './core/toolintent/default-rules.js';
export type {
  ToolCallRule,
  ToolCallContext,
  ToolSessionView,
} from './core/toolintent/tool-call-rule.js';
export { finding } from './core/toolintent/finding.js';
export {
  toolSessionProjection,
  toolSessionView,
  type ToolSessionState,
} from './core/toolintent/tool-session-projection.js';
export type { WorldProbe } from './core/toolintent/world-probe.js';
export {
  extractParamValues,
  type ExtractedValues,
  type ExtractedPath,
} from './core/toolintent/param-value-extractor.js';
export { analyzeExecCall, type ExecAnalysis } from './core/toolintent/exec-command-analysis.js';
export {
  parseShellCommandLine,
  type ShellCommand,
  type ShellWord,
} from './core/toolintent/shell-syntax.js';
export { hostAllowed, parseUrlTarget } from './core/toolintent/host-match.js';
export { mapRisk, type RiskAssessment } from './core/toolintent/risk-mapping.js';
export {
  createDiskWorldProbe,
  type DiskWorldProbeOptions,
} from './infrastructure/world-probe/disk-world-probe.js';
export {
  createBuiltinToolExecutors,
  type BuiltinToolExecutorOptions,
} from './infrastructure/tools/builtin-tool-executors.js';
export {
  executeToolCall,
  recheckTarget,
  UnknownToolError,
  WorldChangedError,
  UnassessedTargetError,
  type ToolExecutor,
  type ToolExecutionContext,
  type ToolReceipt,
} from './infrastructure/tools/tool-executor.js';
export { scrubbedEnvironment } from './infrastructure/tools/exec-tool.js';
// --- end tools, plane-2 assessment, approvals, policies ---

// --- kernel ---
export {
  decide,
  pendingEffect,
  derivedEventId,
  type Decision,
  type DecidedEvent,
} from './core/kernel/decide.js';
export { decideCommand } from './core/kernel/decide-command.js';
export type { Effect } from './core/kernel/effect.js';
export type { KernelCommand, KernelInput } from './core/kernel/kernel-input.js';
export {
  createKernelConfig,
  DEFAULT_KERNEL_LIMITS,
  InvalidKernelConfigError,
  type KernelConfig,
  type KernelConfigOptions,
  type KernelLimits,
} from './core/kernel/kernel-config.js';
export { KernelCommandError, KernelInvariantError } from './core/kernel/kernel-errors.js';
export {
  toolCallOutcomeEvents,
  toolCallRejected,
  toolCallInterrupted,
  toolCallClassified,
  TOOL_CALL_REJECTIONS,
  type ToolCallRejection,
  type CallClassification,
} from './core/tools/tool-call-outcome-events.js';
export {
  definitionOfDoneEvents,
  dodCheckRan,
} from './core/validation/definition-of-done-events.js';
export { journalEvents, journalCompacted } from './core/context/journal-events.js';
export type {
  KernelPorts,
  ToolRunner,
  ToolExecution,
  ToolExecutionRequest,
  StaticAnalysisRunner,
  AnalysisRequest,
  AnalysisRun,
} from './core/kernel/kernel-ports.js';
export {
  parseDiagnostics,
  evaluateChecks,
  type Diagnostic,
  type CheckVerdict,
} from './core/kernel/dod-checks.js';
export {
  kernelProjection,
  awaitsDecision,
  type KernelState,
  type StageRunState,
  type TurnRecord,
  type CallRecord,
  type AcceptedArtifact,
} from './core/kernel/kernel-state.js';
export { isInputEvent } from './core/kernel/input-events.js';
export { classifyInterruptedCall } from './core/kernel/classify-interrupted-call.js';
export { compactJournal } from './core/kernel/compact-journal.js';
export {
  runSession,
  startSession,
  KernelWiringError,
  SessionConfigurationMismatchError,
  type RunSessionOptions,
  type RunOutcome,
  type SessionRun,
} from './core/kernel/run-session.js';
export {
  replaySession,
  recordedKernelConfig,
  ConfigurationNotRecordedError,
  type SessionReplayOptions,
  type ReplayReport,
  type ReplayDivergence,
} from './core/kernel/replay-session.js';
export {
  describeKernelConfig,
  kernelConfigFromConfiguration,
  sessionConfiguredPayload,
  InvalidSessionConfigurationError,
  SessionConfigurationSchema,
  type SessionConfiguration,
} from './core/kernel/session-configuration.js';
export { recordCommand } from './core/kernel/record-command.js';
export {
  appendDecided,
  appendToSession,
  UnknownSessionError,
  type RecordingContext,
} from './core/kernel/append-decided.js';
export { createBuiltinToolRunner } from './infrastructure/kernel/builtin-tool-runner.js';
export { createNodeTimer } from './infrastructure/kernel/node-timer.js';
export type { KernelObserver } from './core/kernel/kernel-observer.js';
export { kernelMetricsProjection, type KernelMetrics } from './core/kernel/kernel-metrics.js';
export {
  createProcessStaticAnalysisRunner,
  type ProcessStaticAnalysisRunnerOptions,
} from './infrastructure/kernel/process-static-analysis-runner.js';
// --- end kernel ---

// --- router, providers from configuration, sandbox, server ---
export {
  createRouterFacade,
  type RouterFacade,
  type RouterFacadeOptions,
  type RouterReply,
  type RouterInputMode,
} from './core/router/router-facade.js';
export {
  steeringDeliveriesOf,
  describeSteeringDelivery,
  type SteeringDelivery,
} from './core/router/steering-delivery.js';
export {
  createProviders,
  ProviderSetupError,
  type ProviderSet,
} from './infrastructure/providers/provider-factory.js';
export {
  detectSandbox,
  describeSandbox,
  type SandboxAvailability,
} from './infrastructure/sandbox/sandbox-availability.js';
export type { SandboxSettings } from './infrastructure/sandbox/confined-process.js';
export { createCorrexServer } from './interfaces/server/correx-server.js';
export type { SessionHost, StartSessionRequest, HostedRun } from './interfaces/session-host.js';

import type { OperatorMode } from '../../approvals/approval-tier.js';
import type { BehaviourFlag } from '../../base/behaviour-flag.js';
import type { ContextCandidate } from '../../context/context-candidate.js';
import type { CorrexEvent } from '../../event-catalog.js';
import type { JsonValue } from '../../events/canonical-json.js';
import type { WorkflowStage } from '../../transitions/workflow.js';
import type { LayeredRecord } from '../../base/layered-record.js';
import type { KernelConfig } from '../config/kernel-config.js';
import type { CallRecord, StageRunState } from './stage-run.js';
import type { BuiltRequests, Step } from './step.js';

type Payload = CorrexEvent['payload'];

/**
 * What a feature's hook reads: the configuration, its own slice of state, and the few core facts
 * the ladder hands every hook. A hook sees no other feature's slice and not the whole state, so
 * a feature stays one folder (and the state's type does not depend on the features' hooks).
 */
export type FeatureView<S> = {
  readonly config: KernelConfig;
  readonly slice: S;
  readonly mode: OperatorMode;
  /** The timestamp of the last event: the only clock a hook reads. */
  readonly lastTimestamp: string | null;
  /** The sequence of the last event. */
  readonly lastSequence: number;
  /** The session's workspace (null before it is recorded). */
  readonly workspace: string | null;
};

/** The stage attempt a hook runs for. */
export type StageAt = { readonly stageId: string; readonly attempt: number };

/** What the ladder knows of an artifact the stage accepted, before the stage completes. */
export type AcceptedArtifactFacts = {
  readonly stage: WorkflowStage;
  readonly run: StageAt;
  readonly artifactHash: string;
  readonly content: JsonValue;
  /** The session's workspace (null before it is recorded). */
  readonly workspace: string | null;
  /** Every recorded check run of the session, in order. */
  readonly checkRuns: readonly { readonly sequence: number; readonly passed: boolean }[];
  /** The running attempt as folded (its recorded commands, diagnostics, checks). */
  readonly attempt: StageRunState;
  /** Real paths the session's tool calls wrote. */
  readonly written: LayeredRecord<true>;
};

/** What a `beforeModelCall` hook may use besides the attempt: its stage and the built requests. */
export type ModelCallFacts = {
  readonly stage: WorkflowStage;
  readonly built: BuiltRequests;
};

/** What the ladder knows when it builds a stage's context pack. */
export type PackFacts = {
  readonly stage: WorkflowStage;
  readonly run: StageAt;
  /** Only what was recorded before this sequence goes into the pack (a rebuilt request's). */
  readonly beforeSequence: number;
  /** Real paths the session's tool calls wrote, in the order first written. */
  readonly written: LayeredRecord<true>;
  /** The latest `stage_failed`, or null. */
  readonly lastStageFailure: {
    readonly stageId: string;
    readonly attempt: number;
    readonly message: string;
    readonly eventId: string;
    readonly sequence: number;
  } | null;
};

/** What the ladder knows of an artifact a stage proposed, before it is validated. */
export type ProposedArtifactFacts = {
  readonly stage: WorkflowStage;
  readonly run: StageAt;
  readonly artifactHash: string;
  readonly content: JsonValue;
  /** Real paths the session's tool calls wrote. */
  readonly written: LayeredRecord<true>;
};

/** A model call of the running attempt that failed: its stage and the failure as recorded. */
export type FailedModelCallFacts = {
  readonly stage: WorkflowStage;
  readonly failure: Extract<StageRunState['turn'], { status: 'failed' }>['failure'];
};

/** A feature's answer to a failed model call: make the call again (the next turn), or a step. */
export type FailedModelCallOutcome = 'call_again' | Step;

/** An `approval_requested` the ladder is about to record for a tool call. */
export type CallApprovalRequest = Extract<Payload, { type: 'approval_requested' }>;

/**
 * The fixed points at which the ladder (decider/next-step.ts, decider/stage-step.ts,
 * decider/call-step.ts) calls the features, in registry order. A hook of a feature whose flag
 * the session did not record is never called.
 */
export type FeatureHooks<S> = {
  /**
   * In a running session, before the workflow's phase is looked at: a step that comes first
   * (a follow-up turn's start), or null.
   */
  readonly beforeWorkflow?: (view: FeatureView<S>) => Step | null;
  /**
   * Between stages, before the next one starts: a step (an effect to await, or events), or null
   * once the feature has nothing more to do there. The ladder asks again after each step.
   */
  readonly betweenStages?: (view: FeatureView<S>, next: StageAt, task: string) => Step | null;
  /** Events recorded just before `stage_started` of `next`, in order. */
  readonly beforeStage?: (view: FeatureView<S>, next: StageAt) => readonly Payload[];
  /**
   * Before a model call of a running attempt, ahead of every feature's `beforeModelCall`: a wait
   * the call sits out first (the event that starts it, or the effect that waits), or null. Its
   * own point because a wait comes before any feature's step there (the budget's stop among
   * them), as it was recorded.
   */
  readonly waitBeforeModelCall?: (view: FeatureView<S>) => Step | null;
  /**
   * Before a model call of a running attempt: a step that replaces the call, or null. `run` is
   * the attempt as folded; `call` the stage and the requests this decision has built (a step
   * that requests a model call of its own records its request there).
   */
  readonly beforeModelCall?: (
    view: FeatureView<S>,
    run: StageRunState,
    call: ModelCallFacts,
  ) => Step | null;
  /**
   * A model call of the running attempt failed: make it again, or a step (the attempt's
   * failure, with its own message), or null when the feature leaves it to the ladder (the
   * attempt fails with the failure's message).
   */
  readonly failedModelCall?: (
    view: FeatureView<S>,
    run: StageRunState,
    failed: FailedModelCallFacts,
  ) => FailedModelCallOutcome | null;
  /** Items the feature adds to a stage's context pack, after the transcript, in registry order. */
  readonly contextCandidates?: (
    view: FeatureView<S>,
    pack: PackFacts,
  ) => readonly ContextCandidate[];
  /** A proposed artifact, before validation (not a sub-session's): a step, or null. */
  readonly proposedArtifact?: (
    view: FeatureView<S>,
    proposed: ProposedArtifactFacts,
  ) => Step | null;
  /**
   * After a stage's definition of done passed, before `acceptedArtifact`: a step that holds the
   * stage (an effect to await) or fails it, or null when the feature lets it complete.
   */
  readonly acceptedChecks?: (view: FeatureView<S>, accepted: AcceptedArtifactFacts) => Step | null;
  /** After a stage's artifact is accepted and checked, before `stage_completed`: a step, or null. */
  readonly acceptedArtifact?: (
    view: FeatureView<S>,
    accepted: AcceptedArtifactFacts,
  ) => Step | null;
  /**
   * When the ladder records `approval_requested` for a tool call (its assessment asks a person,
   * or a call a crash interrupted is asked about): the request as it is to be recorded. Each
   * feature gets the request the one before it returned, in registry order.
   */
  readonly approvalRequested?: (
    view: FeatureView<S>,
    request: CallApprovalRequest,
  ) => CallApprovalRequest;
  /**
   * While a tool call of the running attempt awaits a person's approval: a step in place of the
   * plain wait for the person (a wait with a deadline, or events that end the wait), or null.
   */
  readonly awaitingApproval?: (view: FeatureView<S>, call: CallRecord) => Step | null;
};

/**
 * One kernel feature as a registered slice: its name (its key in `KernelState.features`), the
 * behaviour flag that enables its hooks (null: always on), the events it owns, its own slice of
 * the state (folded from every event, whatever the flags: a slice only holds what was recorded),
 * and its hooks. The flag is read in one place only, `featureOn` (features/kernel-features.ts).
 */
export type KernelFeature<Name extends string, S> = {
  readonly name: Name;
  readonly flag: BehaviourFlag | null;
  readonly events: readonly Payload['type'][];
  readonly state: {
    readonly initial: S;
    /**
     * Pure; returns `slice` itself when the event changes nothing (the fold relies on it).
     * `run` is the stage attempt running before the event (null outside one), for a slice that
     * keeps what the event means for the attempt's calls.
     */
    readonly evolve: (slice: S, event: CorrexEvent, run: StageRunState | null) => S;
  };
  readonly hooks: FeatureHooks<S>;
};

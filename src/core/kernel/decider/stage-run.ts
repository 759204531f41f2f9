import type { ApprovalTier } from '../../approvals/approval-tier.js';
import type { Artifact } from '../../artifacts/artifact.js';
import { assertNever } from '../../base/assert-never.js';
import type { JsonValue } from '../../events/canonical-json.js';
import type { CorrexEvent } from '../../event-catalog.js';
import type { InferenceFailureCategory } from '../../inference/inference-failure.js';
import type { InferenceResult } from '../../inference/inference-result.js';
import { safeParseToolArguments } from '../../inference/tool-call-arguments.js';
import type { FailureCategory } from '../../sessions/failure-category.js';
import { artifactApprovalKey } from '../../validation/validate-artifact.js';
import { isArtifactApproval } from './artifact-approval-id.js';
import { answerTextOf, recordedArtifact } from './artifact-content.js';
import { callFingerprint } from './call-fingerprint.js';
import {
  endedSubagent,
  startedSubagent,
  type SubagentRun,
} from '../features/subagents/subagent-run.js';
import { isSummaryRequestId } from '../features/journal/summary-request-id.js';
import { transcriptEntryOf, type TranscriptEntry } from './transcript.js';
import type { LanguageDiagnostic } from '../../validation/definition-of-done-events.js';
import type { PreToolUseHookResult } from '../../toolintent/hook-events.js';

export type { SubagentRun };

export type CallStatus =
  'proposed' | 'awaiting_approval' | 'approved' | 'started' | 'interrupted' | 'done';

/** One proposed tool call of the current turn, as its events say it stands. */
export type CallRecord = {
  readonly callId: string;
  readonly tool: string;
  readonly argsRaw: string;
  /** Set when `argsRaw` is only the head of the model's unreadable text: its whole length. */
  readonly argsLength?: number;
  /** The decoded arguments, or null when the text was not a JSON object. */
  readonly args: { readonly [key: string]: JsonValue } | null;
  readonly status: CallStatus;
  /** Paths observed for this call since it was proposed (or since it was interrupted). */
  readonly observed: readonly string[];
  readonly tier: ApprovalTier | null;
  /** Resolved write targets from the assessment. */
  readonly writeTargets: readonly string[];
  /** Write targets and their pre-hashes from the latest `tool_call_started`. */
  readonly targets: readonly { readonly path: string; readonly sha256: string | null }[];
  readonly failed: boolean;
  /** Its assessment blocked on a missing reference: counted by path, not by fingerprint. */
  readonly referenceBlocked: boolean;
  /** The recorded verdicts of its `pre_tool_use` hooks (null: they have not run). */
  readonly hookResults: readonly PreToolUseHookResult[] | null;
  /**
   * Hosts off the allowlist this call was asked (or granted) network access to (flag
   * egress-asks-to-widen): once approved, it runs with them added to its allowlist.
   */
  readonly egressHosts?: readonly string[];
};

/** The answer's artifact, once proposed: what validation checks and a person may approve. */
export type ProposedArtifact = {
  readonly hash: string;
  readonly status: 'proposed' | 'rejected' | 'accepted';
  /** The artifact as proposed, rebuilt from the recorded answer and `artifact_proposed`. */
  readonly artifact: Artifact;
  /** A `requiresApproval` stage's gate: asked, granted, or denied (with who and why). */
  readonly approval: ArtifactApproval | null;
};

export type ArtifactApproval =
  | { readonly status: 'pending' | 'granted' }
  | { readonly status: 'denied'; readonly by: string; readonly reason: string };

type TurnIdentity = {
  readonly requestId: string;
  /** The sequence of `inference_requested`: the pack is built from what came before it. */
  readonly requestedSequence: number;
  readonly provider: string;
  readonly requestDigest: string;
  /** The tools the request offered (a finishing tool among them, behind `finishing-tool`). */
  readonly toolNames: readonly string[];
};

type Answered = TurnIdentity & {
  readonly result: InferenceResult;
  /** The `inference_completed` event (or `subagent_finished`), for artifact lineage. */
  readonly inferenceEventId: string;
};

/** The current inference turn of the running stage attempt, by where it stands. */
export type TurnRecord =
  | (TurnIdentity & { readonly status: 'requested' })
  | (TurnIdentity & {
      readonly status: 'failed';
      readonly failure: {
        readonly category: FailureCategory;
        readonly message: string;
        /**
         * The recorded wait before a new call (`retryAfterMs`) when the failure is transient (the
         * server was down, slow, or said slow down); null otherwise.
         */
        readonly transientWaitMs: number | null;
      };
    })
  | (Answered & { readonly status: 'answered' })
  | (Answered & {
      readonly status: 'acting';
      readonly calls: readonly CallRecord[];
      readonly artifact: ProposedArtifact | null;
    });

export type ActingTurn = Extract<TurnRecord, { status: 'acting' }>;

/** The kernel's view of the stage attempt that is running. */
export type StageRunState = {
  readonly stageId: string;
  readonly attempt: number;
  readonly turns: number;
  readonly turn: TurnRecord | null;
  /** What the model saw and did in this attempt, for the next context pack. */
  readonly transcript: readonly TranscriptEntry[];
  /** Failures per call fingerprint in this attempt. */
  readonly failures: { readonly [fingerprint: string]: number };
  /** `reference-exists` blocks per missing path in this attempt (three strikes fail it). */
  readonly referenceBlocks: { readonly [path: string]: number };
  /** Definition-of-done checks run since the artifact was accepted. */
  readonly checks: readonly CheckResult[];
  /** The sub-session of a `subagent` stage's attempt, once `subagent_started` is recorded. */
  readonly subagent: SubagentRun | null;
  /** The language server's diagnostics recorded in this attempt (`language_diagnostics_recorded`). */
  readonly diagnostics: RecordedDiagnostics | null;
  /** The commands this attempt ran (`exec` receipts), the evidence a verdict is checked against. */
  readonly commands: readonly CommandRun[];
  /** The model call writing the pending compaction's summary (`journal.summary: model`). */
  readonly summary: SummaryRequest | null;
  /** The transcript renders a model's JSON in canonical form (`decisions-from-canonical-output`). */
  readonly canonicalOutput: boolean;
  /**
   * Model calls of this attempt made again after a transient failure (`transient-provider-waits`):
   * they are not turns of the model, so the turn limit does not count them.
   */
  readonly providerRetries: number;
  /** The recorded waits since the attempt's last answer from a model (the bound reads it). */
  readonly providerWaitedMs: number;
};

/** A `journal_summary_requested` and what answered it (a failure leaves the summary to lines). */
export type SummaryRequest = {
  readonly requestId: string;
  readonly provider: string;
  readonly requestDigest: string;
  readonly throughSequence: number;
  readonly answer:
    | { readonly status: 'requested' }
    | { readonly status: 'answered'; readonly text: string }
    | { readonly status: 'failed' };
};

export type RecordedDiagnostics = {
  readonly server: string;
  readonly method: 'pull' | 'published' | 'unavailable';
  readonly files: readonly {
    readonly path: string;
    readonly diagnostics: readonly LanguageDiagnostic[];
  }[];
  readonly error: string | null;
  readonly sequence: number;
};

/** One recorded `exec` run of the attempt. */
export type CommandRun = {
  readonly callId: string;
  readonly command: string;
  readonly succeeded: boolean;
  readonly exitCode: number | null;
  readonly output: string;
  readonly sequence: number;
};

/** A recorded definition-of-done check (`dod_check_ran`). */
export type CheckResult = {
  readonly name: string;
  readonly outcome: 'completed' | 'timed_out' | 'aborted' | 'failed_to_start';
  readonly exitCode: number | null;
  readonly output: string;
  readonly sequence: number;
};

/** An `exec` receipt as evidence: the command line as run, and how it ended. */
function withCommand(
  run: StageRunState,
  receipt: Extract<CorrexEvent['payload'], { type: 'tool_receipt' }>,
  sequence: number,
): StageRunState {
  if (receipt.tool !== 'exec') return run;
  const args = receipt.args;
  const argv = Array.isArray(args['argv']) ? args['argv'].map(String) : null;
  const command =
    typeof args['command'] === 'string'
      ? args['command']
      : argv !== null
        ? argv.join(' ')
        : JSON.stringify(args);
  return {
    ...run,
    commands: [
      ...run.commands,
      {
        callId: receipt.callId,
        command,
        succeeded: receipt.outcome === 'succeeded',
        exitCode: receipt.exitCode,
        output: receipt.output,
        sequence,
      },
    ],
  };
}

/** A fresh attempt of a stage. */
export function startedRun(
  stageId: string,
  attempt: number,
  canonicalOutput = false,
): StageRunState {
  return {
    stageId,
    attempt,
    turns: 0,
    turn: null,
    transcript: [],
    failures: {},
    referenceBlocks: {},
    checks: [],
    subagent: null,
    diagnostics: null,
    commands: [],
    summary: null,
    canonicalOutput,
    providerRetries: 0,
    providerWaitedMs: 0,
  };
}

/** Folds one event into the running stage attempt. Pure; every event type is named. */
export function evolveRun(run: StageRunState, event: CorrexEvent): StageRunState {
  const payload = event.payload;
  const summary = summaryAnswered(run, payload);
  if (summary !== undefined) return summary === run.summary ? run : { ...run, summary };
  const entry = transcriptEntryOf(event, run.canonicalOutput);
  const withEntry = entry === null ? run : withTranscript(run, [...run.transcript, entry]);
  switch (payload.type) {
    case 'inference_requested': {
      // A call made again after a transient failure (only `transient-provider-waits` decides one).
      const retried = run.turn?.status === 'failed' ? run.turn.failure.transientWaitMs : null;
      return {
        ...withEntry,
        turns: run.turns + 1,
        providerRetries: retried === null ? run.providerRetries : run.providerRetries + 1,
        providerWaitedMs: retried === null ? run.providerWaitedMs : run.providerWaitedMs + retried,
        turn: {
          requestId: payload.requestId,
          requestedSequence: event.sequence,
          provider: payload.provider,
          requestDigest: payload.requestDigest,
          toolNames: payload.toolNames,
          status: 'requested',
        },
      };
    }
    case 'inference_completed': {
      const answered = mapTurn(withEntry, payload.requestId, (turn) => ({
        ...identityOf(turn),
        status: 'answered',
        result: payload.result,
        inferenceEventId: event.eventId,
      }));
      // An answer ends a streak of transient failures: the next one has the whole bound again.
      return answered.providerWaitedMs === 0 ? answered : { ...answered, providerWaitedMs: 0 };
    }
    case 'inference_failed':
      return mapTurn(withEntry, payload.requestId, (turn) => ({
        ...identityOf(turn),
        status: 'failed',
        failure: {
          category: stageFailureOf(payload.category),
          message: payload.message,
          transientWaitMs:
            TRANSIENT.has(payload.category) && (payload.retryAfterMs ?? 0) > 0
              ? payload.retryAfterMs!
              : null,
        },
      }));
    case 'tool_call_proposed': {
      const parsed = safeParseToolArguments(payload.argsRaw);
      const args = parsed.ok ? (parsed.args as { [key: string]: JsonValue }) : null;
      const call: CallRecord = {
        callId: payload.callId,
        tool: payload.tool,
        argsRaw: payload.argsRaw,
        ...(payload.argsLength === undefined ? {} : { argsLength: payload.argsLength }),
        args,
        status: 'proposed',
        observed: [],
        tier: null,
        writeTargets: [],
        targets: [],
        failed: false,
        referenceBlocked: false,
        hookResults: null,
      };
      return mapActing(withEntry, (turn) => ({ ...turn, calls: [...turn.calls, call] }));
    }
    case 'artifact_proposed':
      return mapActing(withEntry, (turn) => ({
        ...turn,
        artifact: {
          hash: payload.hash,
          status: 'proposed',
          artifact: recordedArtifact(event.sessionId, payload, answerTextOf(turn.result)),
          approval: null,
        },
      }));
    case 'validation_failed':
      return mapArtifact(withEntry, (artifact) =>
        artifact.hash === payload.hash ? { ...artifact, status: 'rejected' } : artifact,
      );
    case 'artifact_accepted':
      return mapArtifact(withEntry, (artifact) => ({
        ...artifact,
        hash: payload.hash,
        status: 'accepted',
      }));
    case 'tool_call_rejected':
      return finishCall(withEntry, payload.callId, ['proposed'], true);
    case 'world_observed':
      return payload.callId === null
        ? withEntry
        : mapCall(withEntry, payload.callId, ANY, (call) => ({
            ...call,
            observed: [...call.observed, payload.observation.path],
          }));
    case 'pre_tool_use_hooks_ran':
      return mapCall(withEntry, payload.callId, ['proposed'], (call) => ({
        ...call,
        hookResults: payload.results,
      }));
    case 'tool_call_assessed':
      return mapCall(withEntry, payload.callId, ['proposed'], (call) => ({
        ...call,
        tier: payload.tier,
        writeTargets: payload.targets
          .filter((target) => target.write && target.role !== 'URL')
          .map((target) => target.resolved),
        ...egressHostsOf(payload),
      }));
    case 'approval_requested':
      if (isArtifactApproval(payload.callId))
        return withArtifactApproval(withEntry, payload.callId, { status: 'pending' });
      return mapCall(withEntry, payload.callId, ['proposed', 'interrupted'], (call) => ({
        ...call,
        status: 'awaiting_approval',
      }));
    case 'approval_granted':
      if (isArtifactApproval(payload.callId))
        return withArtifactApproval(withEntry, payload.callId, { status: 'granted' });
      return mapCall(withEntry, payload.callId, ['proposed', 'awaiting_approval'], (call) => ({
        ...call,
        status: 'approved',
      }));
    case 'approval_denied':
      if (isArtifactApproval(payload.callId))
        return withArtifactApproval(withEntry, payload.callId, {
          status: 'denied',
          by: payload.by.id,
          reason: payload.reason,
        });
      return finishCall(withEntry, payload.callId, ['proposed', 'awaiting_approval'], true);
    case 'tool_call_started':
      return mapCall(withEntry, payload.callId, ['approved'], (call) => ({
        ...call,
        status: 'started',
        targets: payload.targets,
      }));
    case 'tool_receipt':
      // A receipt may still arrive for a call marked interrupted (its process was only slow).
      return finishCall(
        withCommand(withEntry, payload, event.sequence),
        payload.callId,
        ['started', 'interrupted'],
        payload.outcome !== 'succeeded',
      );
    case 'tool_call_interrupted':
      return mapCall(withEntry, payload.callId, ['started'], (call) => ({
        ...call,
        status: 'interrupted',
        observed: [],
      }));
    case 'tool_call_classified':
      if (payload.action === 'record')
        return finishCall(withEntry, payload.callId, ['interrupted'], false);
      if (payload.action === 'execute')
        return mapCall(withEntry, payload.callId, ['interrupted'], (call) => ({
          ...call,
          status: 'approved',
        }));
      return withEntry;
    case 'subagent_started':
      return payload.stageId === run.stageId && payload.attempt === run.attempt
        ? { ...withEntry, subagent: startedSubagent(payload, event.eventId) }
        : withEntry;
    case 'subagent_finished': {
      if (run.subagent?.childSessionId !== payload.childSessionId) return withEntry;
      if (run.subagent.status !== 'running') return withEntry;
      const ended = endedSubagent(run.subagent, payload);
      // A completed child's artifact is the attempt's answer: a turn answered with its content
      // and no calls, whose "inference event" is `subagent_finished`; validated as a model's.
      return {
        ...withEntry,
        subagent: ended.subagent,
        turn:
          ended.answer === null
            ? run.turn
            : {
                requestId: payload.childSessionId,
                requestedSequence: event.sequence,
                provider: 'subagent',
                requestDigest: '',
                toolNames: [],
                status: 'answered',
                result: ended.answer,
                inferenceEventId: event.eventId,
              },
      };
    }
    case 'journal_summary_requested':
      if (payload.stageId !== run.stageId || payload.attempt !== run.attempt) return withEntry;
      return {
        ...withEntry,
        summary: {
          requestId: payload.requestId,
          provider: payload.provider,
          requestDigest: payload.requestDigest,
          throughSequence: payload.throughSequence,
          answer: { status: 'requested' },
        },
      };
    case 'journal_compacted':
      if (payload.stageId !== run.stageId || payload.attempt !== run.attempt) return withEntry;
      return {
        ...run,
        summary: null,
        transcript: [
          // Ordered where the entries it replaces were, before the ones it kept.
          {
            kind: 'summary',
            role: 'user',
            content: payload.summary,
            eventId: event.eventId,
            sequence: payload.throughSequence,
          },
          ...run.transcript.filter((item) => item.sequence > payload.throughSequence),
        ],
      };
    case 'language_diagnostics_recorded':
      return payload.stageId === run.stageId && payload.attempt === run.attempt
        ? {
            ...withEntry,
            diagnostics: {
              server: payload.server,
              method: payload.method,
              files: payload.files,
              error: payload.error,
              sequence: event.sequence,
            },
          }
        : withEntry;
    case 'dod_check_ran':
      return payload.stageId === run.stageId && payload.attempt === run.attempt
        ? {
            ...withEntry,
            checks: [
              ...run.checks,
              {
                name: payload.name,
                outcome: payload.outcome,
                exitCode: payload.exitCode,
                output: payload.output,
                sequence: event.sequence,
              },
            ],
          }
        : withEntry;
    // The attempt's own beginning and end, and what the session and its lifecycle track.
    case 'project_checks_detected':
    case 'brief_checked':
    case 'brief_echo_compared':
    case 'review_findings_recorded':
    case 'critique_outcomes_correlated':
    case 'session_created':
    case 'session_configured':
    case 'workflow_started':
    case 'workflow_completed':
    case 'workflow_failed':
    case 'workflow_cancelled':
    case 'orchestration_paused':
    case 'orchestration_resumed':
    case 'stage_started':
    case 'stage_completed':
    case 'stage_failed':
    case 'lifecycle_rejected':
    case 'transition_taken':
    case 'transition_rejected':
    case 'approval_grant_added':
    case 'approval_grant_revoked':
    case 'approval_bypassed':
    case 'egress_allowlist_changed':
    case 'steering_note_added':
    case 'workspace_restored':
    case 'retry_delay_started':
    case 'retry_delay_elapsed':
    case 'approval_timed_out': // the approval timeout's (features/approval-timeout)
    case 'redirect_requested':
    case 'stage_redirected':
    case 'redirect_rejected':
    case 'budget_exhausted':
    case 'budget_raised':
    case 'stage_checkpoint_recorded':
    case 'stage_start_reconciled':
    case 'session_retried':
    case 'session_forked':
    case 'turn_requested':
    case 'turn_workspace_checked':
    case 'turn_reply_recorded':
      return withEntry;
    default:
      return assertNever(payload, 'event folded into a stage attempt');
  }
}

/**
 * For an answer to a summary request (`payload` is its `inference_completed` or
 * `inference_failed`), the attempt's summary request after it: the answer folded in when the
 * attempt waits on it, else unchanged (the attempt was redirected, say). Undefined for any
 * other event. A summary's answer is for the compaction, never a turn: no journal entry.
 */
function summaryAnswered(
  run: StageRunState,
  payload: CorrexEvent['payload'],
): SummaryRequest | null | undefined {
  if (payload.type !== 'inference_completed' && payload.type !== 'inference_failed')
    return undefined;
  if (!isSummaryRequestId(payload.requestId)) return undefined;
  const pending = run.summary;
  if (pending?.answer.status !== 'requested' || pending.requestId !== payload.requestId)
    return pending;
  return {
    ...pending,
    answer:
      payload.type === 'inference_completed'
        ? { status: 'answered', text: payload.result.text }
        : { status: 'failed' },
  };
}

/** A model call's failure as its stage attempt's (a category new to this release maps 1:1). */
/** Failures a wait can cure: the server was not there or not ready, too slow, or said slow down. */
const TRANSIENT: ReadonlySet<InferenceFailureCategory> = new Set([
  'provider_down',
  'timeout',
  'rate_limit',
]);

function stageFailureOf(category: InferenceFailureCategory): FailureCategory {
  if (category === 'malformed_response') return 'inference';
  // Only recorded since `configuration` exists; older sessions never carry it.
  if (category === 'configuration') return 'configuration';
  return 'provider';
}

function identityOf(turn: TurnRecord): TurnIdentity {
  return {
    requestId: turn.requestId,
    requestedSequence: turn.requestedSequence,
    provider: turn.provider,
    requestDigest: turn.requestDigest,
    toolNames: turn.toolNames,
  };
}

/** Records the gate's answer on the turn's proposed artifact, if the approval names it. */
function withArtifactApproval(
  run: StageRunState,
  callId: string,
  approval: ArtifactApproval,
): StageRunState {
  return mapArtifact(run, (artifact) =>
    artifact.status === 'proposed' && artifactApprovalKey(artifact.hash) === callId
      ? { ...artifact, approval }
      : artifact,
  );
}

function finishCall(
  run: StageRunState,
  callId: string,
  from: readonly CallStatus[],
  failed: boolean,
): StageRunState {
  const turn = run.turn;
  const call = turn?.status === 'acting' ? turn.calls.find((c) => c.callId === callId) : undefined;
  if (call === undefined || !from.includes(call.status)) return run;
  const mapped = mapCall(run, callId, from, (record) => ({ ...record, status: 'done', failed }));
  // A missing reference has its own budget (three strikes per path), not the fingerprint's.
  if (!failed || call.referenceBlocked) return mapped;
  const fingerprint = callFingerprint(call.tool, call.args, call.argsRaw);
  return {
    ...mapped,
    failures: { ...run.failures, [fingerprint]: (run.failures[fingerprint] ?? 0) + 1 },
  };
}

const ANY: readonly CallStatus[] = [
  'proposed',
  'awaiting_approval',
  'approved',
  'started',
  'interrupted',
  'done',
];

/**
 * Changes a call only from the statuses its event may follow, so a stray event (an approval
 * appended for a call that already ran) can never send a finished call round again.
 */
export function mapCall(
  run: StageRunState,
  callId: string,
  from: readonly CallStatus[],
  change: (call: CallRecord) => CallRecord,
): StageRunState {
  return mapActingOnly(run, (turn) => {
    // Copied only when a call changes: most events name one call of a turn that may hold many.
    let calls: CallRecord[] | undefined;
    for (let index = 0; index < turn.calls.length; index++) {
      const call = turn.calls[index]!;
      if (call.callId !== callId || !from.includes(call.status)) continue;
      calls ??= turn.calls.slice();
      calls[index] = change(call);
    }
    return calls === undefined ? turn : { ...turn, calls };
  });
}

function mapTurn(
  run: StageRunState,
  requestId: string,
  change: (turn: TurnRecord) => TurnRecord,
): StageRunState {
  return run.turn?.requestId === requestId ? withTurn(run, change(run.turn)) : run;
}

/** An answered turn starts acting (calls or an artifact); an acting one goes on. */
function mapActing(run: StageRunState, change: (turn: ActingTurn) => ActingTurn): StageRunState {
  const turn = run.turn;
  if (turn === null) return run;
  if (turn.status === 'acting') return { ...run, turn: change(turn) };
  if (turn.status !== 'answered') return run;
  return { ...run, turn: change({ ...turn, status: 'acting', calls: [], artifact: null }) };
}

function mapActingOnly(
  run: StageRunState,
  change: (turn: ActingTurn) => ActingTurn,
): StageRunState {
  return run.turn?.status === 'acting' ? withTurn(run, change(run.turn)) : run;
}

/**
 * The run with its turn or transcript replaced. Fields listed, not spread: nearly every event does
 * this, and V8 copies a spread with overrides on its slow path.
 */
function withTurn(run: StageRunState, turn: TurnRecord | null): StageRunState {
  return stageRunWith(run, turn, run.transcript);
}

function withTranscript(run: StageRunState, transcript: readonly TranscriptEntry[]): StageRunState {
  return stageRunWith(run, run.turn, transcript);
}

function stageRunWith(
  run: StageRunState,
  turn: TurnRecord | null,
  transcript: readonly TranscriptEntry[],
): StageRunState {
  return {
    stageId: run.stageId,
    attempt: run.attempt,
    turns: run.turns,
    turn,
    transcript,
    failures: run.failures,
    referenceBlocks: run.referenceBlocks,
    checks: run.checks,
    subagent: run.subagent,
    diagnostics: run.diagnostics,
    commands: run.commands,
    summary: run.summary,
    canonicalOutput: run.canonicalOutput,
    providerRetries: run.providerRetries,
    providerWaitedMs: run.providerWaitedMs,
  };
}

function mapArtifact(
  run: StageRunState,
  change: (artifact: ProposedArtifact) => ProposedArtifact,
): StageRunState {
  return mapActingOnly(run, (turn) =>
    turn.artifact === null ? turn : { ...turn, artifact: change(turn.artifact) },
  );
}

/** Counts an assessment's missing references in the run and marks its call as blocked by them. */
export function countReferenceBlocks(
  run: StageRunState,
  callId: string,
  paths: readonly string[],
): StageRunState {
  if (paths.length === 0) return run;
  const referenceBlocks = { ...run.referenceBlocks };
  for (const path of paths) referenceBlocks[path] = (referenceBlocks[path] ?? 0) + 1;
  return mapCall({ ...run, referenceBlocks }, callId, ANY, (call) => ({
    ...call,
    referenceBlocked: true,
  }));
}

/** A turn is over when its artifact was rejected, or it proposed calls and every one is done. */
export function isTurnFinished(turn: TurnRecord): boolean {
  if (turn.status !== 'acting') return false;
  if (turn.artifact !== null) return turn.artifact.status === 'rejected';
  return turn.calls.every((call) => call.status === 'done');
}

/** The first call of an acting turn that is not done. */
export function currentCall(turn: TurnRecord | null): CallRecord | undefined {
  return turn?.status === 'acting' ? turn.calls.find((call) => call.status !== 'done') : undefined;
}

/**
 * The hosts an assessment asked or granted network access to beyond the allowlist (findings
 * `egress_widen`, `egress_granted`, only under flag egress-asks-to-widen): its URL targets.
 */
function egressHostsOf(payload: {
  readonly findings: readonly { readonly code: string }[];
  readonly targets: readonly { readonly role: string; readonly resolved: string }[];
}): { egressHosts?: readonly string[] } {
  if (!payload.findings.some((f) => f.code === 'egress_widen' || f.code === 'egress_granted'))
    return {};
  const hosts = payload.targets.filter((t) => t.role === 'URL' && t.resolved !== '');
  return { egressHosts: [...new Set(hosts.map((t) => t.resolved))].sort() };
}

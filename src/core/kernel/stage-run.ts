import type { ApprovalTier } from '../approvals/approval-tier.js';
import type { JsonValue } from '../events/canonical-json.js';
import type { CorrexEvent } from '../event-catalog.js';
import type { InferenceResult } from '../inference/inference-result.js';
import { safeParseToolArguments } from '../inference/tool-call-arguments.js';
import type { FailureCategory } from '../sessions/failure-category.js';
import { artifactApprovalKey } from '../validation/validate-artifact.js';
import { isArtifactApproval } from './artifact-approval-id.js';
import { callFingerprint } from './call-fingerprint.js';
import { endedSubagent, startedSubagent, type SubagentRun } from './subagent-run.js';
import { transcriptEntryOf, type TranscriptEntry } from './transcript.js';

export type { SubagentRun };

export type CallStatus =
  'proposed' | 'awaiting_approval' | 'approved' | 'started' | 'interrupted' | 'done';

/** One proposed tool call of the current turn, as its events say it stands. */
export type CallRecord = {
  readonly callId: string;
  readonly tool: string;
  readonly argsRaw: string;
  /** The decoded arguments, or null when the text was not a JSON object. */
  readonly args: { readonly [key: string]: JsonValue } | null;
  readonly fingerprint: string;
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
};

/** The current inference turn of the running stage attempt. */
export type TurnRecord = {
  readonly requestId: string;
  /** The sequence of `inference_requested`: the pack is built from what came before it. */
  readonly requestedSequence: number;
  readonly provider: string;
  readonly requestDigest: string;
  readonly status: 'requested' | 'answered' | 'failed' | 'acting';
  readonly result: InferenceResult | null;
  /** The `inference_completed` event, for artifact lineage. */
  readonly inferenceEventId: string | null;
  readonly failure: { readonly category: FailureCategory; readonly message: string } | null;
  readonly calls: readonly CallRecord[];
  readonly artifact: {
    readonly hash: string;
    readonly status: 'proposed' | 'rejected' | 'accepted';
    /** A `requiresApproval` stage's gate: asked, granted, or denied (with who and why). */
    readonly approval: ArtifactApproval | null;
  } | null;
};

export type ArtifactApproval =
  | { readonly status: 'pending' | 'granted' }
  | { readonly status: 'denied'; readonly by: string; readonly reason: string };

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
};

/** A recorded definition-of-done check (`dod_check_ran`). */
export type CheckResult = {
  readonly name: string;
  readonly outcome: 'completed' | 'timed_out' | 'aborted' | 'failed_to_start';
  readonly exitCode: number | null;
  readonly output: string;
};

/** Folds one event into the running stage attempt. Pure. */
export function evolveRun(run: StageRunState, event: CorrexEvent): StageRunState {
  const payload = event.payload;
  const entry = transcriptEntryOf(event);
  const withEntry = entry === null ? run : { ...run, transcript: [...run.transcript, entry] };
  switch (payload.type) {
    case 'inference_requested':
      return {
        ...withEntry,
        turns: run.turns + 1,
        turn: {
          requestId: payload.requestId,
          requestedSequence: event.sequence,
          provider: payload.provider,
          requestDigest: payload.requestDigest,
          status: 'requested',
          result: null,
          inferenceEventId: null,
          failure: null,
          calls: [],
          artifact: null,
        },
      };
    case 'inference_completed':
      return mapTurn(withEntry, payload.requestId, (turn) => ({
        ...turn,
        status: 'answered',
        result: payload.result,
        inferenceEventId: event.eventId,
      }));
    case 'inference_failed':
      return mapTurn(withEntry, payload.requestId, (turn) => ({
        ...turn,
        status: 'failed',
        failure: {
          category: payload.category === 'malformed_response' ? 'inference' : 'provider',
          message: payload.message,
        },
      }));
    case 'tool_call_proposed': {
      const parsed = safeParseToolArguments(payload.argsRaw);
      const args = parsed.ok ? (parsed.args as { [key: string]: JsonValue }) : null;
      const call: CallRecord = {
        callId: payload.callId,
        tool: payload.tool,
        argsRaw: payload.argsRaw,
        args,
        fingerprint: callFingerprint(payload.tool, args, payload.argsRaw),
        status: 'proposed',
        observed: [],
        tier: null,
        writeTargets: [],
        targets: [],
        failed: false,
        referenceBlocked: false,
      };
      return mapAnyTurn(withEntry, (turn) => ({
        ...turn,
        status: 'acting',
        calls: [...turn.calls, call],
      }));
    }
    case 'artifact_proposed':
      return mapAnyTurn(withEntry, (turn) => ({
        ...turn,
        status: 'acting',
        artifact: { hash: payload.hash, status: 'proposed', approval: null },
      }));
    case 'validation_failed':
      return mapAnyTurn(withEntry, (turn) =>
        turn.artifact?.hash === payload.hash
          ? { ...turn, artifact: { ...turn.artifact, status: 'rejected' } }
          : turn,
      );
    case 'tool_call_rejected':
      return finishCall(withEntry, payload.callId, ['proposed'], true);
    case 'world_observed':
      return payload.callId === null
        ? withEntry
        : mapCall(withEntry, payload.callId, ANY, (call) => ({
            ...call,
            observed: [...call.observed, payload.observation.path],
          }));
    case 'tool_call_assessed':
      return mapCall(withEntry, payload.callId, ['proposed'], (call) => ({
        ...call,
        tier: payload.tier,
        writeTargets: payload.targets
          .filter((target) => target.write && target.role !== 'URL')
          .map((target) => target.resolved),
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
        withEntry,
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
      if (payload.action === 'record') {
        return finishCall(withEntry, payload.callId, ['interrupted'], false);
      }
      if (payload.action === 'execute') {
        return mapCall(withEntry, payload.callId, ['interrupted'], (call) => ({
          ...call,
          status: 'approved',
        }));
      }
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
                status: 'answered',
                result: ended.answer,
                inferenceEventId: event.eventId,
                failure: null,
                calls: [],
                artifact: null,
              },
      };
    }
    case 'journal_compacted':
      if (payload.stageId !== run.stageId || payload.attempt !== run.attempt) return withEntry;
      return {
        ...run,
        transcript: [
          // Ordered where the entries it replaces were, before the ones it kept.
          {
            kind: 'summary',
            role: 'user',
            content: payload.summary,
            eventId: event.eventId,
            sequence: payload.throughSequence,
          },
          ...run.transcript.filter((entry) => entry.sequence > payload.throughSequence),
        ],
      };
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
              },
            ],
          }
        : withEntry;
    default:
      return withEntry;
  }
}

/** Records the gate's answer on the turn's proposed artifact, if the approval names it. */
function withArtifactApproval(
  run: StageRunState,
  callId: string,
  approval: ArtifactApproval,
): StageRunState {
  return mapAnyTurn(run, (turn) =>
    turn.artifact !== null &&
    turn.artifact.status === 'proposed' &&
    artifactApprovalKey(turn.artifact.hash) === callId
      ? { ...turn, artifact: { ...turn.artifact, approval } }
      : turn,
  );
}

function finishCall(
  run: StageRunState,
  callId: string,
  from: readonly CallStatus[],
  failed: boolean,
): StageRunState {
  const call = run.turn?.calls.find((candidate) => candidate.callId === callId);
  if (call === undefined || !from.includes(call.status)) return run;
  const mapped = mapCall(run, callId, from, (record) => ({ ...record, status: 'done', failed }));
  // A missing reference has its own budget (three strikes per path), not the fingerprint's.
  if (!failed || call.referenceBlocked) return mapped;
  return {
    ...mapped,
    failures: { ...run.failures, [call.fingerprint]: (run.failures[call.fingerprint] ?? 0) + 1 },
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
function mapCall(
  run: StageRunState,
  callId: string,
  from: readonly CallStatus[],
  change: (call: CallRecord) => CallRecord,
): StageRunState {
  return mapAnyTurn(run, (turn) => ({
    ...turn,
    calls: turn.calls.map((call) =>
      call.callId === callId && from.includes(call.status) ? change(call) : call,
    ),
  }));
}

function mapTurn(
  run: StageRunState,
  requestId: string,
  change: (turn: TurnRecord) => TurnRecord,
): StageRunState {
  return run.turn?.requestId === requestId ? { ...run, turn: change(run.turn) } : run;
}

export function mapAnyTurn(
  run: StageRunState,
  change: (turn: TurnRecord) => TurnRecord,
): StageRunState {
  return run.turn === null ? run : { ...run, turn: change(run.turn) };
}

import type { EventPayload } from '../../event-catalog.js';
import type { InferenceRequest } from '../../inference/inference-request.js';
import type { ApprovalTier } from '../../approvals/approval-tier.js';
import type { AssessedTarget, Finding } from '../../toolintent/toolintent-events.js';

/**
 * A request to the outside world that `decide` leaves pending in the state. The effect runner
 * performs it through a port and records the result as input events; replay never performs one.
 */
export type Effect =
  | {
      readonly type: 'infer';
      readonly requestId: string;
      /** The provider instance the router chose (a model profile's `provider`). */
      readonly provider: string;
      readonly request: InferenceRequest;
      /** What `inference_requested` recorded; the runner checks the rebuilt request against it. */
      readonly requestDigest: string;
    }
  | {
      readonly type: 'probe';
      readonly callId: string;
      readonly paths: readonly string[];
      /**
       * Later calls of the turn probed in the same effect (flag batched-read-only-probes): each,
       * like this one, a built-in read-only call, so nothing runs before their turn that could
       * change what they observe.
       */
      readonly alongside?: readonly ProbedCall[];
    }
  | {
      readonly type: 'execute';
      readonly callId: string;
      readonly tool: string;
      readonly args: { readonly [key: string]: unknown };
      /** Write targets and the hashes recorded at `tool_call_started` (for the TOCTOU re-check). */
      readonly targets: readonly { readonly path: string; readonly sha256: string | null }[];
      /** Hosts a person approved for this call beyond the allowlist (egress-asks-to-widen). */
      readonly egressHosts?: readonly string[];
    }
  /** Run one definition-of-done check of the stage in the workspace. */
  | {
      readonly type: 'run_analysis';
      readonly stageId: string;
      readonly attempt: number;
      readonly name: string;
      readonly command: string;
    }
  /** Ask a language server for the diagnostics of files the session wrote. */
  | {
      readonly type: 'run_diagnostics';
      readonly stageId: string;
      readonly attempt: number;
      readonly files: readonly string[];
    }
  /** Read the workspace's project files once, at session start, for the project's checks. */
  | { readonly type: 'detect_checks' }
  /** Wait until the runner's clock reaches `until` (at most `delayMs`), then record `retry_delay_elapsed`. */
  | { readonly type: 'wait'; readonly until: string; readonly delayMs: number }
  /**
   * Drive the stage's sub-session to its end: start it (`start` with `parent`) when it has no
   * events yet, otherwise re-attach and resume it; then record `subagent_finished`.
   */
  | {
      readonly type: 'run_subagent';
      readonly childSessionId: string;
      readonly workflowId: string;
      readonly task: string;
      readonly stageId: string;
      readonly attempt: number;
      /** The `subagent_started` event, the child's correlation. */
      readonly startedEventId: string;
    }
  /**
   * Run the user's `pre_tool_use` hooks (by name, from the recorded configuration) on a call
   * that the rules have judged, then record `pre_tool_use_hooks_ran`; the assessment follows.
   */
  | {
      readonly type: 'run_pre_tool_use_hooks';
      readonly callId: string;
      readonly stageId: string;
      readonly tool: string;
      readonly args: { readonly [key: string]: unknown };
      readonly hooks: readonly string[];
      /** What the rules found and resolved, for the hooks to see. */
      readonly findings: readonly Finding[];
      readonly targets: readonly AssessedTarget[];
      readonly tier: ApprovalTier;
    }
  /**
   * Nothing to run: the session waits until a person grants or denies `callId`. With a
   * `deadline` (the policy's `approvalTimeoutMs`), a runner that finds it passed records
   * `approval_timed_out` instead.
   */
  | { readonly type: 'await_approval'; readonly callId: string; readonly deadline?: string };

/** A call's paths to observe. */
export type ProbedCall = { readonly callId: string; readonly paths: readonly string[] };

type Payload = EventPayload;
type ResultOf<T extends Payload['type']> = Extract<Payload, { type: T }>;

/**
 * What each effect is answered by: the result event types it records, and whether a recorded
 * result answers this very effect (the request, call, check or child it names). The one place
 * these facts live; the runner, replay's check and the catalog test read them from here.
 */
export const effectResults = {
  infer: {
    results: ['inference_completed', 'inference_failed'],
    answers: (effect, payload) =>
      (payload.type === 'inference_completed' || payload.type === 'inference_failed') &&
      effect.requestId === payload.requestId,
  },
  probe: {
    results: ['world_observed'],
    answers: (effect, payload) =>
      payload.type === 'world_observed' &&
      [effect, ...(effect.alongside ?? [])].some(
        (probed) =>
          probed.callId === payload.callId && probed.paths.includes(payload.observation.path),
      ),
  },
  execute: {
    results: ['tool_receipt'],
    answers: (effect, payload) =>
      payload.type === 'tool_receipt' && effect.callId === payload.callId,
  },
  run_analysis: {
    results: ['dod_check_ran'],
    answers: (effect, payload) => payload.type === 'dod_check_ran' && effect.name === payload.name,
  },
  run_diagnostics: {
    results: ['language_diagnostics_recorded'],
    answers: (effect, payload) =>
      payload.type === 'language_diagnostics_recorded' &&
      effect.stageId === payload.stageId &&
      effect.attempt === payload.attempt,
  },
  detect_checks: {
    results: ['project_checks_detected'],
    answers: (_effect, payload) => payload.type === 'project_checks_detected',
  },
  wait: {
    results: ['retry_delay_elapsed'],
    answers: (effect, payload) =>
      payload.type === 'retry_delay_elapsed' && effect.until === payload.until,
  },
  run_subagent: {
    results: ['subagent_finished'],
    answers: (effect, payload) =>
      payload.type === 'subagent_finished' && effect.childSessionId === payload.childSessionId,
  },
  run_pre_tool_use_hooks: {
    results: ['pre_tool_use_hooks_ran'],
    answers: (effect, payload) =>
      payload.type === 'pre_tool_use_hooks_ran' && effect.callId === payload.callId,
  },
  // Answered by a person's `approval_granted` / `approval_denied` (a command, not a result), or
  // past its deadline by `approval_timed_out`.
  await_approval: {
    results: ['approval_timed_out'],
    answers: (effect, payload) =>
      payload.type === 'approval_timed_out' &&
      effect.callId === payload.callId &&
      effect.deadline === payload.deadline,
  },
} satisfies {
  readonly [Type in Effect['type']]: {
    readonly results: readonly Payload['type'][];
    answers(effect: Extract<Effect, { type: Type }>, payload: Payload): boolean;
  };
};

/** Every result type some effect records. */
export const effectResultTypes: ReadonlySet<string> = new Set(
  Object.values(effectResults).flatMap((entry) => entry.results as readonly string[]),
);

/** Whether `payload` is a result that answers `effect` (false for no effect). */
export function answersEffect(effect: Effect | undefined, payload: Payload): boolean {
  if (effect === undefined) return false;
  const entry = effectResults[effect.type] as {
    answers(effect: Effect, payload: Payload): boolean;
  };
  return entry.answers(effect, payload);
}

export type { ResultOf };

import type { InferenceRequest } from '../inference/inference-request.js';

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
  | { readonly type: 'probe'; readonly callId: string; readonly paths: readonly string[] }
  | {
      readonly type: 'execute';
      readonly callId: string;
      readonly tool: string;
      readonly args: { readonly [key: string]: unknown };
      /** Write targets and the hashes recorded at `tool_call_started` (for the TOCTOU re-check). */
      readonly targets: readonly { readonly path: string; readonly sha256: string | null }[];
    }
  /** Run one definition-of-done check of the stage in the workspace. */
  | {
      readonly type: 'run_analysis';
      readonly stageId: string;
      readonly attempt: number;
      readonly name: string;
      readonly command: string;
    }
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
  /** Nothing to run: the session waits until a person grants or denies `callId`. */
  | { readonly type: 'await_approval'; readonly callId: string };

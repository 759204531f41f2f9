import { canonicalJson } from '../../../events/canonical-json.js';
import type { CorrexEvent } from '../../../event-catalog.js';
import type { InferenceResult } from '../../../inference/inference-result.js';
import type { FailureCategory } from '../../../sessions/failure-category.js';

type Payload = CorrexEvent['payload'];

/** A stage attempt's sub-session, as `subagent_started` and `subagent_finished` say it stands. */
export type SubagentRun = {
  readonly childSessionId: string;
  readonly workflowId: string;
  readonly task: string;
  /** The `subagent_started` event: the child's first events carry it as their correlation. */
  readonly eventId: string;
  readonly status: 'running' | 'completed' | 'failed' | 'cancelled';
  /** Why the attempt fails because of the child (set once it ended without a usable artifact). */
  readonly failure: { readonly category: FailureCategory; readonly message: string } | null;
};

export function startedSubagent(
  payload: Extract<Payload, { type: 'subagent_started' }>,
  eventId: string,
): SubagentRun {
  return {
    childSessionId: payload.childSessionId,
    workflowId: payload.workflowId,
    task: payload.task,
    eventId,
    status: 'running',
    failure: null,
  };
}

/**
 * A sub-session's end: why it fails the attempt (a failed child: its own failure's category; a
 * cancelled one: `policy`; no artifact: `validation`), or the answer its artifact gives, as a
 * model result whose text is the artifact's content.
 */
export function endedSubagent(
  subagent: SubagentRun,
  payload: Extract<Payload, { type: 'subagent_finished' }>,
): { readonly subagent: SubagentRun; readonly answer: InferenceResult | null } {
  const child = subagent.childSessionId;
  const failure =
    payload.status === 'cancelled'
      ? (payload.failure ?? {
          category: 'policy' as const,
          message: `sub-session ${child} was cancelled`,
        })
      : payload.status === 'failed'
        ? (payload.failure ?? {
            category: 'validation' as const,
            message: `sub-session ${child} failed`,
          })
        : payload.artifact === undefined
          ? {
              category: 'validation' as const,
              message: `sub-session ${child} completed without an accepted artifact`,
            }
          : null;
  const ended = { ...subagent, status: payload.status, failure };
  if (failure !== null || payload.artifact === undefined) return { subagent: ended, answer: null };
  return {
    subagent: ended,
    answer: {
      text: canonicalJson(payload.artifact.content),
      toolCalls: [],
      finishReason: 'stop',
      usage: { inputTokens: 0, outputTokens: 0 },
      modelId: `subagent:${subagent.workflowId}`,
      latencyMs: 0,
    },
  };
}

import type { CorrexEvent } from '../../event-catalog.js';
import type { Projection } from '../../events/projection.js';

/**
 * What a session's log says about its own run, as signals shaped for tracing and metrics: a
 * stage attempt is a span (start, end, duration, outcome), a model call's token counts and a
 * transition, approval or artifact are span events with attributes. Derived from recorded
 * events only (timestamps included), so a live observer and a projection over a stored log see
 * exactly the same values, and nothing here can feed back into `decide`.
 */
export type MetricSignal =
  | { readonly kind: 'stage_timing'; readonly timing: StageTiming }
  | { readonly kind: 'transition'; readonly transition: TransitionSignal }
  | { readonly kind: 'tokens'; readonly tokens: TokenSignal }
  | { readonly kind: 'approval'; readonly approval: ApprovalSignal }
  | { readonly kind: 'artifact'; readonly artifact: ArtifactSignal };

/** One finished stage attempt: an OpenTelemetry span `stage <stageId>`. */
export type StageTiming = {
  readonly stageId: string;
  readonly attempt: number;
  readonly outcome: 'completed' | 'failed' | 'redirected' | 'cancelled';
  readonly startedAt: string;
  readonly endedAt: string;
  readonly durationMs: number;
};

export type TransitionSignal = {
  readonly from: string;
  /** The next stage, or null when the transition ended the workflow. */
  readonly to: string | null;
  readonly end: 'completed' | 'failed' | null;
  readonly condition: string;
  readonly edge: string;
  readonly traversal: number;
  readonly at: string;
};

export type TokenSignal = {
  readonly requestId: string;
  readonly stageId: string | null;
  readonly provider: string;
  readonly input: number;
  readonly output: number;
};

export type ApprovalSignal = {
  readonly callId: string;
  readonly decision: 'requested' | 'granted' | 'denied' | 'bypassed';
  /** Who decided (`human`, `auto`, `grant`), or null for a request or a bypass. */
  readonly by: { readonly kind: string; readonly id: string } | null;
  readonly at: string;
};

export type ArtifactSignal = {
  readonly hash: string;
  readonly kind: string;
  readonly stageId: string;
  readonly status: 'proposed' | 'accepted';
  readonly parents: readonly string[];
};

/** Every signal of a session so far, plus the open stage span. Plain JSON. */
export type KernelMetrics = {
  readonly stages: readonly StageTiming[];
  readonly transitions: readonly TransitionSignal[];
  readonly tokens: readonly TokenSignal[];
  readonly approvals: readonly ApprovalSignal[];
  readonly artifacts: readonly ArtifactSignal[];
  readonly totals: { readonly inputTokens: number; readonly outputTokens: number };
  readonly open: { readonly stageId: string; readonly attempt: number; readonly at: string } | null;
  /** Lineage of proposed artifacts, so an acceptance can name its parents. */
  readonly parents: { readonly [hash: string]: readonly string[] };
};

const initial = (): KernelMetrics => ({
  stages: [],
  transitions: [],
  tokens: [],
  approvals: [],
  artifacts: [],
  totals: { inputTokens: 0, outputTokens: 0 },
  open: null,
  parents: {},
});

/** The signals one event adds, given the metrics before it. Pure. */
export function metricSignals(metrics: KernelMetrics, event: CorrexEvent): MetricSignal[] {
  const payload = event.payload;
  const at = event.timestamp;
  const close = (outcome: StageTiming['outcome']): MetricSignal[] => {
    const open = metrics.open;
    if (open === null) return [];
    const durationMs = Math.max(0, Date.parse(at) - Date.parse(open.at));
    const timing = { stageId: open.stageId, attempt: open.attempt, outcome, startedAt: open.at };
    return [{ kind: 'stage_timing', timing: { ...timing, endedAt: at, durationMs } }];
  };
  switch (payload.type) {
    case 'stage_completed':
      return close('completed');
    case 'stage_failed':
      return close('failed');
    case 'stage_redirected':
      return close('redirected');
    case 'workflow_cancelled':
      return close('cancelled');
    case 'transition_taken':
      return [
        {
          kind: 'transition',
          transition: {
            from: payload.from,
            to: payload.to ?? null,
            end: payload.end ?? null,
            condition: payload.condition,
            edge: payload.edge,
            traversal: payload.traversal,
            at,
          },
        },
      ];
    case 'inference_completed': {
      const usage = payload.result.usage;
      const tokens = {
        requestId: payload.requestId,
        stageId: metrics.open?.stageId ?? null,
        provider: payload.provider,
        input: usage?.inputTokens ?? 0,
        output: usage?.outputTokens ?? 0,
      };
      return [{ kind: 'tokens', tokens }];
    }
    case 'approval_requested':
    case 'approval_bypassed':
      return [approval(payload.callId, payload.type, null, at)];
    case 'approval_granted':
    case 'approval_denied':
      return [approval(payload.callId, payload.type, payload.by, at)];
    case 'artifact_proposed':
    case 'artifact_accepted': {
      const parents =
        payload.type === 'artifact_proposed'
          ? payload.parents
          : (metrics.parents[payload.hash] ?? []);
      const status = payload.type === 'artifact_proposed' ? 'proposed' : 'accepted';
      return [
        {
          kind: 'artifact',
          artifact: {
            hash: payload.hash,
            kind: payload.kind,
            stageId: payload.stageId,
            status,
            parents,
          },
        },
      ];
    }
    default:
      return [];
  }
}

function approval(
  callId: string,
  type: `approval_${'requested' | 'bypassed' | 'granted' | 'denied'}`,
  by: { readonly kind: string; readonly id: string } | null,
  at: string,
): MetricSignal {
  const decision = type.slice('approval_'.length) as ApprovalSignal['decision'];
  return { kind: 'approval', approval: { callId, decision, by, at } };
}

/** Folds an event (and the signals it adds) into the metrics. Pure. */
export function evolveMetrics(
  metrics: KernelMetrics,
  event: CorrexEvent,
  signals: readonly MetricSignal[] = metricSignals(metrics, event),
): KernelMetrics {
  let next = metrics;
  const payload = event.payload;
  if (payload.type === 'stage_started')
    next = {
      ...next,
      open: { stageId: payload.stageId, attempt: payload.attempt, at: event.timestamp },
    };
  if (payload.type === 'artifact_proposed')
    next = { ...next, parents: { ...next.parents, [payload.hash]: payload.parents } };
  for (const signal of signals) {
    switch (signal.kind) {
      case 'stage_timing':
        next = { ...next, stages: [...next.stages, signal.timing], open: null };
        break;
      case 'transition':
        next = { ...next, transitions: [...next.transitions, signal.transition] };
        break;
      case 'tokens':
        next = {
          ...next,
          tokens: [...next.tokens, signal.tokens],
          totals: {
            inputTokens: next.totals.inputTokens + signal.tokens.input,
            outputTokens: next.totals.outputTokens + signal.tokens.output,
          },
        };
        break;
      case 'approval':
        next = { ...next, approvals: [...next.approvals, signal.approval] };
        break;
      case 'artifact':
        next = { ...next, artifacts: [...next.artifacts, signal.artifact] };
        break;
    }
  }
  return next;
}

/** The metrics projection of a session's log: what an observer would have been told, live. */
export const kernelMetricsProjection: Projection<KernelMetrics, CorrexEvent['payload']> = {
  name: 'kernel-metrics',
  version: 1,
  initial,
  evolve: (metrics, event) => evolveMetrics(metrics, event as CorrexEvent),
};

import type { Projection } from '../events/projection.js';
import type { PayloadShape } from '../events/event-envelope.js';

export type UsageTotals = {
  readonly calls: number;
  readonly failedCalls: number;
  readonly inputTokens: number;
  /** Of `inputTokens`, those the providers reported read from their prompt cache. */
  readonly cachedInputTokens: number;
  readonly outputTokens: number;
  /** What the context packs were estimated at when requested. */
  readonly estimatedTokens: number;
};

export type SessionTokenUsage = {
  readonly session: UsageTotals;
  readonly byStage: { readonly [stageId: string]: UsageTotals };
  /** Open requests: requestId → stageId, until their result arrives. */
  readonly pending: { readonly [requestId: string]: string };
};

const zero: UsageTotals = {
  calls: 0,
  failedCalls: 0,
  inputTokens: 0,
  cachedInputTokens: 0,
  outputTokens: 0,
  estimatedTokens: 0,
};

function add(totals: UsageTotals | undefined, delta: Partial<UsageTotals>): UsageTotals {
  const base = totals ?? zero;
  return {
    calls: base.calls + (delta.calls ?? 0),
    failedCalls: base.failedCalls + (delta.failedCalls ?? 0),
    inputTokens: base.inputTokens + (delta.inputTokens ?? 0),
    cachedInputTokens: base.cachedInputTokens + (delta.cachedInputTokens ?? 0),
    outputTokens: base.outputTokens + (delta.outputTokens ?? 0),
    estimatedTokens: base.estimatedTokens + (delta.estimatedTokens ?? 0),
  };
}

type InferencePayload =
  | {
      type: 'inference_requested' | 'journal_summary_requested';
      requestId: string;
      stageId: string;
      tokenEstimate: number;
    }
  | {
      type: 'inference_completed';
      requestId: string;
      result: { usage: { inputTokens: number; cachedInputTokens?: number; outputTokens: number } };
    }
  | { type: 'inference_failed'; requestId: string };

/**
 * Token usage per stage and per session, folded from recorded inference events only (what the
 * providers reported), never from estimates of what might have been sent. Other events pass
 * through untouched.
 */
export const tokenUsageProjection: Projection<SessionTokenUsage, PayloadShape> = {
  name: 'token-usage',
  version: 1,
  initial: () => ({ session: zero, byStage: {}, pending: {} }),
  evolve(state, event) {
    const payload = event.payload as InferencePayload | PayloadShape;
    switch (payload.type) {
      case 'inference_requested':
      case 'journal_summary_requested': {
        const p = payload as Extract<
          InferencePayload,
          { type: 'inference_requested' | 'journal_summary_requested' }
        >;
        const delta = { estimatedTokens: p.tokenEstimate };
        return {
          session: add(state.session, delta),
          byStage: { ...state.byStage, [p.stageId]: add(state.byStage[p.stageId], delta) },
          pending: { ...state.pending, [p.requestId]: p.stageId },
        };
      }
      case 'inference_completed':
      case 'inference_failed': {
        const p = payload as Extract<
          InferencePayload,
          { type: 'inference_completed' | 'inference_failed' }
        >;
        const stageId = state.pending[p.requestId];
        const delta: Partial<UsageTotals> =
          p.type === 'inference_completed'
            ? {
                calls: 1,
                inputTokens: p.result.usage.inputTokens,
                cachedInputTokens: p.result.usage.cachedInputTokens ?? 0,
                outputTokens: p.result.usage.outputTokens,
              }
            : { calls: 1, failedCalls: 1 };
        const { [p.requestId]: _done, ...pending } = state.pending;
        return {
          session: add(state.session, delta),
          byStage:
            stageId === undefined
              ? state.byStage
              : { ...state.byStage, [stageId]: add(state.byStage[stageId], delta) },
          pending,
        };
      }
      default:
        return state;
    }
  },
};

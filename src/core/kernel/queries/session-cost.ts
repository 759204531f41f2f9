import type { CorrexEvent } from '../../event-catalog.js';
import type { ModelProfile } from '../../inference/model-profile.js';
import { tokenCost } from '../features/budget/budget.js';
import { recordedProfiles, recordsCachedInputPrices } from './session-spend.js';

/** What a session's model calls cost, by the prices its profiles recorded. */
export type SessionCost = {
  /** Whether any recorded profile has prices; without, every cost is 0 and means "unknown". */
  readonly priced: boolean;
  readonly total: number;
  readonly byStage: ReadonlyMap<string, number>;
  /** Per model call, by request id. */
  readonly byRequest: ReadonlyMap<string, number>;
};

/**
 * Folds a session's cost from its events, with the rule the session ran under (cached input at
 * its own price only with flag `cached-input-prices`), so `show`, `sessions` and summaries agree
 * with the cost budget the kernel checked.
 */
export function sessionCost(events: Iterable<CorrexEvent>): SessionCost {
  let profiles: readonly ModelProfile[] = [];
  let cachedPriced = false;
  const requests = new Map<string, { profileId: string; stageId: string }>();
  const byStage = new Map<string, number>();
  const byRequest = new Map<string, number>();
  let total = 0;
  for (const event of events) {
    const payload = event.payload;
    if (payload.type === 'session_configured') {
      profiles = recordedProfiles(payload);
      cachedPriced = recordsCachedInputPrices(payload);
    } else if (
      payload.type === 'inference_requested' ||
      payload.type === 'journal_summary_requested'
    ) {
      requests.set(payload.requestId, { profileId: payload.profileId, stageId: payload.stageId });
    } else if (payload.type === 'inference_completed') {
      const request = requests.get(payload.requestId);
      const prices = profiles.find((profile) => profile.id === request?.profileId)?.prices;
      if (request === undefined || prices === undefined) continue;
      const usage = payload.result.usage;
      const cost = tokenCost(
        {
          input: usage.inputTokens,
          output: usage.outputTokens,
          cached: usage.cachedInputTokens ?? 0,
        },
        prices,
        cachedPriced,
      );
      byRequest.set(payload.requestId, cost);
      byStage.set(request.stageId, (byStage.get(request.stageId) ?? 0) + cost);
      total += cost;
    }
  }
  return {
    priced: profiles.some((profile) => profile.prices !== undefined),
    total,
    byStage,
    byRequest,
  };
}

import type { CorrexEvent } from '../../event-catalog.js';
import { ModelProfileListSchema, type ModelProfile } from '../../inference/model-profile.js';
import {
  costOf,
  evolveBudget,
  INITIAL_BUDGET,
  type BudgetState,
} from '../features/budget/budget.js';
import { CACHED_INPUT_PRICES } from '../config/kernel-flags.js';

/** What a session has spent so far: tokens and, when any of its profiles has prices, dollars. */
export type SessionSpend = {
  readonly tokens: { readonly input: number; readonly output: number };
  /** US dollars by the recorded profiles' prices; null when no profile of the session has prices. */
  readonly costUsd: number | null;
};

export type SpendState = {
  readonly budget: BudgetState;
  readonly profiles: readonly ModelProfile[];
  /** The session's pricing rule: cached input at its own price (flag `cached-input-prices`). */
  readonly cachedInputPriced: boolean;
};

/**
 * Folds a session's spend from its log: the token counts of each completed model call, priced
 * by the model profiles `session_configured` recorded, the same sums the cost budget and
 * `correx show` use. Pure, so any later reader of the log gets the same numbers.
 */
export const sessionSpendProjection = {
  initial: (): SpendState => ({ budget: INITIAL_BUDGET, profiles: [], cachedInputPriced: false }),
  evolve(state: SpendState, event: CorrexEvent): SpendState {
    const payload = event.payload;
    const budget = evolveBudget(state.budget, event);
    if (payload.type !== 'session_configured') return { ...state, budget };
    return {
      budget,
      profiles: recordedProfiles(payload),
      cachedInputPriced: recordsCachedInputPrices(payload),
    };
  },
};

export function spendOf(state: SpendState): SessionSpend {
  const tokens = { input: 0, output: 0 };
  for (const used of Object.values(state.budget.used)) {
    tokens.input += used.input;
    tokens.output += used.output;
  }
  const priced = state.profiles.some((profile) => profile.prices !== undefined);
  return {
    tokens,
    costUsd: priced ? costOf(state.budget.used, state.profiles, state.cachedInputPriced) : null,
  };
}

/** The spend of a whole log at once. */
export function sessionSpend(events: Iterable<CorrexEvent>): SessionSpend {
  let state = sessionSpendProjection.initial();
  for (const event of events) state = sessionSpendProjection.evolve(state, event);
  return spendOf(state);
}

/**
 * What the session spent itself: for a fork, only its model calls after the copied prefix (the
 * parent's calls are the parent's spend), priced by the fork's own profiles; for any other
 * session its whole spend. What an eval run of a fork scores, so every model forked from one
 * point is charged for its own calls alone.
 */
export function ownSessionSpend(events: Iterable<CorrexEvent>): SessionSpend {
  let state = sessionSpendProjection.initial();
  for (const event of events) {
    state = sessionSpendProjection.evolve(state, event);
    if (event.payload.type === 'session_forked') state = { ...state, budget: INITIAL_BUDGET };
  }
  return spendOf(state);
}

/** Whether a recorded configuration ran with the cached-input pricing rule. */
export function recordsCachedInputPrices(payload: { readonly configuration: unknown }): boolean {
  const flags = (payload.configuration as { flags?: unknown } | null)?.flags;
  return Array.isArray(flags) && flags.includes(CACHED_INPUT_PRICES.name);
}

/** The model profiles a session recorded (with their prices); none if the record is unreadable. */
export function recordedProfiles(payload: { readonly configuration: unknown }): ModelProfile[] {
  const models = (payload.configuration as { models?: unknown } | null)?.models;
  const parsed = ModelProfileListSchema.safeParse(models);
  return parsed.success ? parsed.data : [];
}

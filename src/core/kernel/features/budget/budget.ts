import type { BudgetKind } from '../../../sessions/budget-events.js';
import type { CorrexEvent } from '../../../event-catalog.js';
import type { ModelProfile } from '../../../inference/model-profile.js';
import type { KernelConfig, SessionBudgets } from '../../config/kernel-config.js';
import { CACHED_INPUT_PRICES } from '../../config/kernel-flags.js';

export type { SessionBudgets };

/** `cached` is the part of `input` the provider read from its prompt cache. */
type Tokens = { readonly input: number; readonly output: number; readonly cached?: number };

/** What the session has spent, folded from its events (the recorded timestamps are the clock). */
export type BudgetState = {
  readonly startedAt: string | null;
  /** The profile each model call in flight was routed to. */
  readonly pending: { readonly [requestId: string]: string };
  readonly used: { readonly [profileId: string]: Tokens };
  /** Limits a person raised after a stop. */
  readonly raised: { readonly [budget in BudgetKind]?: number };
  /** The budget the session stopped at, until a person raises it. */
  readonly stop: { readonly budget: BudgetKind; readonly limit: number } | null;
};

export const INITIAL_BUDGET: BudgetState = {
  startedAt: null,
  pending: {},
  used: {},
  raised: {},
  stop: null,
};

export function evolveBudget(state: BudgetState, event: CorrexEvent): BudgetState {
  const payload = event.payload;
  switch (payload.type) {
    case 'session_created':
      return { ...state, startedAt: event.timestamp };
    case 'inference_requested':
    case 'journal_summary_requested':
      return { ...state, pending: { ...state.pending, [payload.requestId]: payload.profileId } };
    case 'inference_completed': {
      const profileId = state.pending[payload.requestId];
      if (profileId === undefined) return state;
      const { [payload.requestId]: _done, ...pending } = state.pending;
      const before = state.used[profileId] ?? { input: 0, output: 0 };
      const usage = payload.result.usage;
      const cached = (before.cached ?? 0) + (usage.cachedInputTokens ?? 0);
      return {
        ...state,
        pending,
        used: {
          ...state.used,
          [profileId]: {
            input: before.input + usage.inputTokens,
            output: before.output + usage.outputTokens,
            ...(cached === 0 ? {} : { cached }),
          },
        },
      };
    }
    case 'budget_exhausted':
      return { ...state, stop: { budget: payload.budget, limit: payload.limit } };
    case 'budget_raised':
      return {
        ...state,
        raised: { ...state.raised, [payload.budget]: payload.limit },
        stop: state.stop?.budget === payload.budget ? null : state.stop,
      };
    default:
      return state;
  }
}

type Prices = NonNullable<ModelProfile['prices']>;

/**
 * US dollars for tokens at `prices`. With `cachedInputPriced` (flag `cached-input-prices`) the
 * cached part of the input is charged at the cached-input price (the input price when none is
 * given); before, all input was charged at the input price.
 */
export function tokenCost(tokens: Tokens, prices: Prices, cachedInputPriced: boolean): number {
  const cached = cachedInputPriced ? Math.min(tokens.cached ?? 0, tokens.input) : 0;
  const cachedPrice = prices.cachedInputPerMillion ?? prices.inputPerMillion;
  return (
    ((tokens.input - cached) * prices.inputPerMillion +
      cached * cachedPrice +
      tokens.output * prices.outputPerMillion) /
    1e6
  );
}

/** The session's cost in US dollars so far, by each profile's prices (unpriced profiles cost 0). */
export function costOf(
  used: BudgetState['used'],
  profiles: readonly ModelProfile[],
  cachedInputPriced = false,
): number {
  let cost = 0;
  for (const [profileId, tokens] of Object.entries(used)) {
    const prices = profiles.find((profile) => profile.id === profileId)?.prices;
    if (prices === undefined) continue;
    cost += tokenCost(tokens, prices, cachedInputPriced);
  }
  return cost;
}

/** The first budget the session has reached, with its limit and what was used; null if none. */
export function reachedBudget(
  config: KernelConfig,
  budget: BudgetState,
  now: string | null,
): { budget: BudgetKind; limit: number; used: number } | null {
  const budgets = config.budgets;
  if (budgets === undefined) return null;
  const limitOf = (kind: BudgetKind, configured: number | undefined) =>
    budget.raised[kind] ?? configured;
  const tokens = Object.values(budget.used).reduce(
    (sum, used) => sum + used.input + used.output,
    0,
  );
  const checks: [BudgetKind, number | undefined, () => number][] = [
    ['tokens', limitOf('tokens', budgets.maxTokens), () => tokens],
    [
      'cost',
      limitOf('cost', budgets.maxCostUsd),
      () =>
        costOf(
          budget.used,
          config.router.profiles,
          config.behaviour.flags.has(CACHED_INPUT_PRICES.name),
        ),
    ],
    [
      'duration',
      limitOf('duration', budgets.maxDurationMs),
      () =>
        budget.startedAt === null || now === null
          ? 0
          : Math.max(0, Date.parse(now) - Date.parse(budget.startedAt)),
    ],
  ];
  for (const [kind, limit, used] of checks) {
    if (limit === undefined) continue;
    const spent = used();
    if (spent >= limit) return { budget: kind, limit, used: spent };
  }
  return null;
}

const UNIT: Readonly<Record<BudgetKind, (value: number) => string>> = {
  tokens: (value) => `${Math.round(value)} tokens`,
  cost: (value) => `$${value.toFixed(4)}`,
  duration: (value) => `${Math.round(value / 1000)} s`,
};

/** One sentence: which budget, what was used against what limit. */
export function budgetMessage(reached: {
  budget: BudgetKind;
  limit: number;
  used: number;
}): string {
  const unit = UNIT[reached.budget];
  return `the session reached its ${reached.budget} budget (${unit(reached.used)} of ${unit(reached.limit)})`;
}

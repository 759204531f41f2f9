import { SESSION_BUDGETS } from '../../config/kernel-flags.js';
import type { KernelFeature } from '../../decider/kernel-feature.js';
import { emit, IDLE } from '../../decider/step.js';
import {
  budgetMessage,
  evolveBudget,
  INITIAL_BUDGET,
  reachedBudget,
  type BudgetState,
} from './budget.js';

/**
 * Session budgets (flag `session-budgets`): what the session spent is folded from its model
 * calls; before a model call, a budget the session has reached is recorded once; then the
 * session waits for a person to raise it (prompt mode) or fails (other modes).
 */
export const budgetFeature: KernelFeature<'budget', BudgetState> = {
  name: 'budget',
  flag: SESSION_BUDGETS,
  events: ['budget_exhausted', 'budget_raised'],
  state: { initial: INITIAL_BUDGET, evolve: evolveBudget },
  hooks: {
    beforeModelCall({ config, slice, mode, lastTimestamp }, run) {
      const reached = reachedBudget(config, slice, lastTimestamp);
      if (reached === null) return null;
      if (slice.stop === null) return emit({ type: 'budget_exhausted', ...reached });
      if (mode === 'prompt') return IDLE;
      return emit({
        type: 'workflow_failed',
        category: 'budget',
        message: budgetMessage(reached),
        stageId: run.stageId,
      });
    },
  },
};

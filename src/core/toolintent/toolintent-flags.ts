import { defineBehaviourFlag, type BehaviourFlag } from '../base/behaviour-flag.js';

export const WRITE_BUDGET = defineBehaviourFlag({
  name: 'write-budget',
  description:
    "A file write that would carry the session's written content past the policy's writeBudgetBytes is blocked (rule write-budget).",
});

/** The behaviour flags plane-2 assessment branches on (see core/base/behaviour-flag.ts). */
export const toolIntentFlags: readonly BehaviourFlag[] = [WRITE_BUDGET];

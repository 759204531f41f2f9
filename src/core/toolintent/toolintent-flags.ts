import type { BehaviourFlag } from '../base/behaviour-flag.js';

/** The behaviour flags plane-2 assessment branches on (see core/base/behaviour-flag.ts). */
export const toolIntentFlags: readonly BehaviourFlag[] = [];

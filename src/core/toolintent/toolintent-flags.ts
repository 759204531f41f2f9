import { defineBehaviourFlag, type BehaviourFlag } from '../base/behaviour-flag.js';

/** A call is assessed only after the user's `pre_tool_use` hooks answered; their verdicts are findings. */
export const PRE_TOOL_USE_HOOKS = defineBehaviourFlag({
  name: 'pre-tool-use-hooks',
  description:
    "a call with pre_tool_use hooks configured waits for their recorded verdicts, which join the assessment's findings (block, raise the tier, or fail closed)",
});

/** The behaviour flags plane-2 assessment branches on (see core/base/behaviour-flag.ts). */
export const toolIntentFlags: readonly BehaviourFlag[] = [PRE_TOOL_USE_HOOKS];

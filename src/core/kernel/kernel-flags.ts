import { defineBehaviourFlag, type BehaviourFlag } from '../base/behaviour-flag.js';

/*
 * The behaviour flags the kernel's decisions branch on (see core/base/behaviour-flag.ts). A
 * session recorded without one re-derives exactly what it did before the change.
 */

export const MALFORMED_ARGS_SAY_WHY = defineBehaviourFlag({
  name: 'malformed-args-say-why',
  description:
    'A malformed_args rejection of arguments that could not be read says why (invalid JSON, a number JSON cannot hold, too deep, a lone surrogate) instead of "not a JSON object".',
});

export const INTERRUPTED_EXEC_IS_UNKNOWN = defineBehaviourFlag({
  name: 'interrupted-exec-is-unknown',
  description:
    'An interrupted call of a tool that executes code is never "not applied" because its redirect targets are unchanged: it is unknown (asked, or re-run only when policy declares it idempotent).',
});

export const EVERY_PROPOSAL_HAS_AN_OUTCOME = defineBehaviourFlag({
  name: 'every-proposal-has-an-outcome',
  description:
    'A proposal that repeats a failing call past the limit is refused (tool_call_rejected, repeated_failure) before the attempt fails, so every proposal ends with exactly one outcome.',
});

export const APPROVAL_TIMEOUT = defineBehaviourFlag({
  name: 'approval-timeout',
  description:
    "A call waiting for approval longer than the policy's approvalTimeoutMs is denied by timeout (approval_timed_out, then approval_denied by timeout), never approved.",
});

export const kernelFlags: readonly BehaviourFlag[] = [
  MALFORMED_ARGS_SAY_WHY,
  INTERRUPTED_EXEC_IS_UNKNOWN,
  EVERY_PROPOSAL_HAS_AN_OUTCOME,
  APPROVAL_TIMEOUT,
];

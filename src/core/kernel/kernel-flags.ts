import { defineBehaviourFlag, type BehaviourFlag } from '../base/behaviour-flag.js';

/*
 * The behaviour flags the kernel's decisions branch on (see core/base/behaviour-flag.ts). A
 * session recorded without one re-derives exactly what it did before the change.
 */

/**
 * Journal compaction folds earlier summaries line by line and keeps the newest lines within
 * `compactJournalMaxTokens`, so a compaction's size is capped and the bytes all compactions
 * write grow linearly with turns (before, each copied every earlier summary whole).
 */
export const BOUNDED_JOURNAL_SUMMARY = defineBehaviourFlag({
  name: 'bounded-journal-summary',
  description:
    'journal compaction is capped at compactJournalMaxTokens and never copies earlier summaries whole',
});

/** Before each model call the session's budgets are checked; reaching one stops the session. */
export const SESSION_BUDGETS = defineBehaviourFlag({
  name: 'session-budgets',
  description:
    'a session with budgets (tokens, cost, duration) stops before a model call that would exceed one',
});

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
  BOUNDED_JOURNAL_SUMMARY,
  SESSION_BUDGETS,
  MALFORMED_ARGS_SAY_WHY,
  INTERRUPTED_EXEC_IS_UNKNOWN,
  EVERY_PROPOSAL_HAS_AN_OUTCOME,
  APPROVAL_TIMEOUT,
];

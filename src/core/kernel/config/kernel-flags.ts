import { defineBehaviourFlag, type BehaviourFlag } from '../../base/behaviour-flag.js';

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

/** Cached input tokens cost the profile's cached-input price in the session's cost budget. */
export const CACHED_INPUT_PRICES = defineBehaviourFlag({
  name: 'cached-input-prices',
  description:
    "a session's cost charges cached input tokens at the profile's cachedInputPerMillion price (before: at the input price)",
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

/**
 * The stage transcript reaches the model as native tool messages: an assistant turn carrying its
 * tool calls, then one tool result per call (refused, denied and interrupted calls included),
 * instead of text lines (`Tool call 1: …`, `Result of call …`).
 */
export const NATIVE_TOOL_TRANSCRIPT = defineBehaviourFlag({
  name: 'native-tool-transcript',
  description:
    'the stage transcript is rendered as native tool calls and one tool result per call, not as text',
});

/**
 * A stage whose model profile calls tools finishes by calling `finish_<artifact>` with the
 * artifact as its arguments; a plain-text answer is a validation failure naming that tool. The
 * JSON-answer form stays for profiles declared without tool calling.
 */
export const FINISHING_TOOL = defineBehaviourFlag({
  name: 'finishing-tool',
  description:
    'a tool-calling stage ends by calling finish_<artifact> whose parameters are the artifact schema',
});

/**
 * The context budget of a stage request also pays for what travels beside the messages: the tool
 * definitions and the response schema (a provider renders them into the prompt too), so the pack
 * plus them fits the window and `tokenEstimate` counts them.
 */
export const BUDGET_REQUEST_DEFINITIONS = defineBehaviourFlag({
  name: 'budget-request-definitions',
  description:
    'the context budget and token estimate of a request include its tool definitions and response schema',
});

/**
 * The project's checks (package.json scripts, pytest, go test, cargo test, a Makefile `test`
 * target, and harness.yaml `checks:`) are detected at session start as a recorded observation,
 * and the required ones run before a verifier or reviewer stage can complete.
 */
export const CHECKS_BY_DEFAULT = defineBehaviourFlag({
  name: 'checks-by-default',
  description:
    "detect the project's checks at session start and run the required ones before verify and review complete",
});

/**
 * A verifier stage's verdict comes from the recorded evidence: it passes only when the model
 * reports `passed: true` and no check or exec run of the attempt failed without a later pass.
 */
export const VERDICT_FROM_EVIDENCE = defineBehaviourFlag({
  name: 'verdict-from-evidence',
  description:
    "a verify stage passes only on recorded evidence; the model's passed field cannot override a failed check or command",
});

/**
 * An artifact's `filesChanged` is compared with the recorded write receipts: naming a file whose
 * write was denied, or that nothing recorded wrote, is a validation failure; a workflow that
 * fails on a stage's failure names it.
 */
export const CLAIMS_AGAINST_LOG = defineBehaviourFlag({
  name: 'claims-against-log',
  description:
    "an artifact's filesChanged must match recorded writes; a workflow failure names the stage failure that caused it",
});

/**
 * The task's references (paths, symbols, commands, issue ids) are extracted at session start and
 * its paths probed; a missing one is flagged before planning, and a plan's restatement is
 * compared with the brief (dropped and invented references), both shown in later packs.
 */
export const BRIEF_REFERENCES = defineBehaviourFlag({
  name: 'brief-references',
  description:
    "extract the task's references at session start, flag missing paths, and compare the plan with the brief",
});

/**
 * Before a verifier or reviewer stage completes, a language server's diagnostics for the
 * TypeScript and JavaScript files the session wrote are recorded; an error fails the attempt.
 */
export const LSP_DIAGNOSTICS = defineBehaviourFlag({
  name: 'lsp-diagnostics',
  description:
    "record a language server's diagnostics for written files before verify and review complete; an error fails the attempt",
});

/**
 * A review's rework notes become findings with ids; at the next review the log says whether the
 * rework changed what each named and whether the checks after it passed (CritiqueOutcomeCorrelator).
 */
export const CRITIQUE_OUTCOMES = defineBehaviourFlag({
  name: 'critique-outcomes',
  description:
    'record review findings with ids and correlate at the next review whether the rework changed the named files and passed its checks',
});

/** A reviewer's pack carries the session's file changes as a diff built from the recorded calls. */
export const REVIEW_SEES_CHANGES = defineBehaviourFlag({
  name: 'review-sees-changes',
  description: "a reviewer's pack shows the session's recorded file changes as a diff",
});

/**
 * The StageCheckpointReconciler (issue #17): a `stage_checkpoint_recorded` before every stage
 * attempt (every file the session's recorded changes touched, as last left), and a
 * `stage_start_reconciled` when a stage is entered again, naming its earlier checkpoint and
 * the files changed since; the stage starts from the workspace as left.
 */
export const STAGE_CHECKPOINTS = defineBehaviourFlag({
  name: 'stage-checkpoints',
  description:
    'a stage_checkpoint_recorded (the workspace as the log knows it) before every stage attempt, and a stage_start_reconciled (as left, files changed since its last checkpoint) when a stage is entered again',
});

/**
 * A failed session can be retried by a person (`session_retried`): it runs again from the stage
 * that failed, in a new attempt. A session recorded without the flag refuses the command.
 */
export const RETRY_FAILED_SESSION = defineBehaviourFlag({
  name: 'retry-failed-session',
  description:
    'a failed session accepts a retry command (session_retried) and goes on from the stage that failed',
});

/** A command whose program cannot be named (`[""]`, `[" sh"]`, a NUL) is malformed, not a policy question. */
export const MALFORMED_COMMAND_REJECTED = defineBehaviourFlag({
  name: 'malformed-command-rejected',
  description:
    'an exec argv whose program is empty, padded with white space or holds a control character, or a command or argument holding NUL, is rejected as malformed_args instead of assessed',
});

/**
 * When a stage attempt ends in the middle of a turn's calls (a refused repeat, the third block of
 * a missing path), each call of that turn not yet decided is refused (`attempt_ended`) first.
 */
export const ENDED_ATTEMPT_REFUSES_THE_REST = defineBehaviourFlag({
  name: 'ended-attempt-refuses-the-rest',
  description:
    'an attempt that ends while calls of its turn are still undecided refuses each of them (tool_call_rejected, attempt_ended) before stage_failed, so every proposal of a batch ends with exactly one outcome',
});

/**
 * What the kernel derives from a model's JSON (schema issue lists, the arguments a call runs
 * with, its calls and JSON answers as the next request renders them) comes from the canonical
 * form, never from the order the model wrote its keys in.
 */
export const DECISIONS_FROM_CANONICAL_OUTPUT = defineBehaviourFlag({
  name: 'decisions-from-canonical-output',
  description:
    "validation issue lists are sorted, a call's arguments and an artifact's content are read with canonical key order, and the transcript renders a model's JSON in canonical form, so no decision depends on the model's key order",
});

/**
 * A call the kernel refuses before assessing it (unknown, ungranted, arguments against the
 * schema) whose argument text is longer than 16 KiB is recorded as its first 2 KiB with the
 * whole text's length and SHA-256, as unreadable argument text already is.
 */
export const BOUNDED_REFUSED_ARGUMENTS = defineBehaviourFlag({
  name: 'bounded-refused-arguments',
  description:
    "a refused call's argument text over 16 KiB is recorded as its head with its length and SHA-256 (in inference_completed and tool_call_proposed), and its refusal says why",
});

/**
 * An interrupted `write_file` whose target now holds neither the bytes recorded before the call
 * nor the content it writes was changed by someone else since (a person's edit, a symlink
 * pointed elsewhere): writing again would overwrite that change or write where the call never
 * did, so a person decides, although `write_file` is idempotent (issue #33.4).
 */
export const INTERRUPTED_WRITE_ASKS_WHEN_CHANGED = defineBehaviourFlag({
  name: 'interrupted-write-asks-when-changed',
  description:
    'An interrupted write_file whose target holds neither its recorded pre-image nor the content it writes is asked about (a person decides whether it runs again), never re-run because the tool is idempotent.',
});

/**
 * A model call that fails transiently (provider_down, timeout, rate_limit) with a recorded wait
 * is made again in the same stage attempt after that wait, instead of failing the attempt, until
 * the waits since the attempt's last answer would pass `TRANSIENT_WAIT_BOUND_MS`. A retried call
 * is not a turn of the model.
 */
export const TRANSIENT_PROVIDER_WAITS = defineBehaviourFlag({
  name: 'transient-provider-waits',
  description:
    'a transiently failed model call (server down or loading, timeout, rate limit) is made again after its recorded wait, within a bound, without spending a stage attempt',
});

/**
 * A call of an MCP tool that may write (not read-only) is a change like an exec command: the
 * workspace is compared before and after it and its receipt lists what changed, with
 * pre-images, so `filesChanged`, `correx diff` and `correx undo` cover an MCP server's writes
 * (issue #37.5).
 */
export const MCP_CHANGE_RECORDS = defineBehaviourFlag({
  name: 'mcp-change-records',
  description:
    "an MCP tool call that may write lists the workspace files it created, changed or deleted in its receipt (with pre-images), as an exec command's does",
});

/**
 * Follow-up turns (issue #36): a session whose workflow ended (completed, failed, cancelled)
 * takes another request (`turn_requested`); the workspace is compared with what the log left
 * (`turn_workspace_checked`) and the workflow starts again, its packs carrying the earlier
 * turns; a conversational stage records its reply (`turn_reply_recorded`) and runs the
 * project's checks when its turn changed files.
 */
export const FOLLOW_UP_TURNS = defineBehaviourFlag({
  name: 'follow-up-turns',
  description:
    'a finished session takes a follow-up turn (turn_requested): the workspace is compared with what the log left (turn_workspace_checked), the workflow starts again with the earlier turns in its packs, and a conversational stage records its reply with the checks it ran (turn_reply_recorded)',
});

/**
 * A fork (`session_forked`) interprets its copied prefix in its own workspace: every path the
 * prefix recorded inside the parent's workspace is read as the same path inside the fork's, so
 * the fork's decisions (an artifact's claims, a plan's observed files, a call re-assessed, the
 * checkpoints it probes) see the prefix as if it had run there (issue #39).
 */
export const FORK_PATHS_ONTO_WORKSPACE = defineBehaviourFlag({
  name: 'fork-paths-onto-workspace',
  description:
    "a fork reads the paths its copied prefix recorded inside the parent's workspace as the same paths inside its own workspace",
});

/**
 * Each model call's context manifest is recorded by reference (`manifestRef`, issue #38): every
 * item by its digest, each list as its change from the session's previous manifest, an item whole
 * only the first time the session records it. Before, every call recorded the whole manifest
 * (about 9 KB a call, three quarters of a session's bytes). Readers rebuild the whole manifest
 * with `readRequestManifest` (core/inference/manifest-history.ts).
 */
export const MANIFEST_BY_REFERENCE = defineBehaviourFlag({
  name: 'manifest-by-reference',
  description:
    "inference_requested records its context manifest by reference (manifestRef): item digests and the change from the session's previous manifest, each item whole once",
});

/**
 * A model's answer records each tool call's arguments once, as the model's text (`argsRaw`):
 * `inference_completed` leaves out the parsed copy (`args`) when it is exactly what the text
 * parses to, and readers parse the text (`answerCallArgs`). A file a model writes was stored
 * four times per call (issue #38); this is one of them. Read in `recorded-answer.ts`.
 */
export const ANSWER_ARGUMENTS_AS_TEXT = defineBehaviourFlag({
  name: 'answer-arguments-as-text',
  description:
    "inference_completed records a tool call's arguments as the model's text alone (argsRaw), leaving out the parsed copy (args) when it is exactly what the text parses to",
});

/**
 * The paths of the current call and of the proposed calls after it are probed in one effect
 * while each is a built-in read-only tool with no pre_tool_use hook (issue #38): nothing that
 * runs between their probes and their turn can change what they observed. A turn of N such
 * calls makes one probe round trip instead of N; its events are the same, the observations
 * recorded first.
 */
export const BATCHED_READ_ONLY_PROBES = defineBehaviourFlag({
  name: 'batched-read-only-probes',
  description:
    'a run of consecutive read-only built-in calls (no pre_tool_use hook) has its paths probed in one effect, before the first of them is assessed',
});

export const kernelFlags: readonly BehaviourFlag[] = [
  BOUNDED_JOURNAL_SUMMARY,
  SESSION_BUDGETS,
  MALFORMED_ARGS_SAY_WHY,
  INTERRUPTED_EXEC_IS_UNKNOWN,
  EVERY_PROPOSAL_HAS_AN_OUTCOME,
  APPROVAL_TIMEOUT,
  NATIVE_TOOL_TRANSCRIPT,
  FINISHING_TOOL,
  BUDGET_REQUEST_DEFINITIONS,
  CHECKS_BY_DEFAULT,
  VERDICT_FROM_EVIDENCE,
  CLAIMS_AGAINST_LOG,
  BRIEF_REFERENCES,
  LSP_DIAGNOSTICS,
  CRITIQUE_OUTCOMES,
  REVIEW_SEES_CHANGES,
  CACHED_INPUT_PRICES,
  STAGE_CHECKPOINTS,
  RETRY_FAILED_SESSION,
  MALFORMED_COMMAND_REJECTED,
  ENDED_ATTEMPT_REFUSES_THE_REST,
  DECISIONS_FROM_CANONICAL_OUTPUT,
  BOUNDED_REFUSED_ARGUMENTS,
  INTERRUPTED_WRITE_ASKS_WHEN_CHANGED,
  TRANSIENT_PROVIDER_WAITS,
  MCP_CHANGE_RECORDS,
  FOLLOW_UP_TURNS,
  FORK_PATHS_ONTO_WORKSPACE,
  MANIFEST_BY_REFERENCE,
  ANSWER_ARGUMENTS_AS_TEXT,
  BATCHED_READ_ONLY_PROBES,
];

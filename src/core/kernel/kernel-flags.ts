import { defineBehaviourFlag, type BehaviourFlag } from '../base/behaviour-flag.js';

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

/** The behaviour flags the kernel branches on (see core/base/behaviour-flag.ts). */
export const kernelFlags: readonly BehaviourFlag[] = [
  CHECKS_BY_DEFAULT,
  VERDICT_FROM_EVIDENCE,
  CLAIMS_AGAINST_LOG,
  BRIEF_REFERENCES,
  LSP_DIAGNOSTICS,
  CRITIQUE_OUTCOMES,
  REVIEW_SEES_CHANGES,
];

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { behaviourFlags } from '../../src/core/kernel/config/behaviour.js';

/**
 * A behaviour flag is read in the module that owns it, and only there: a flag checked in one
 * place is one branch to keep while sessions record it, and one place to fold when a release
 * retires it (docs/kernel.md, "Flags with a lifecycle"). Flags read in several modules today
 * are listed below; the list only shrinks.
 */
const root = join(import.meta.dirname, '..', '..');

/** Flags whose branches are spread over several modules, with those modules (debt, issue #35). */
const SPREAD: Readonly<Record<string, readonly string[]>> = {
  BOUNDED_JOURNAL_SUMMARY: [
    'src/core/kernel/config/session-configuration.ts',
    'src/core/kernel/features/journal/compact-journal.ts',
  ],
  BOUNDED_REFUSED_ARGUMENTS: [
    'src/core/kernel/decider/call-step.ts',
    'src/core/kernel/runner/performers/perform-infer.ts',
  ],
  CACHED_INPUT_PRICES: [
    'src/core/kernel/features/budget/budget.ts',
    'src/core/kernel/queries/session-spend.ts',
  ],
  DECISIONS_FROM_CANONICAL_OUTPUT: [
    'src/core/kernel/decider/call-step.ts',
    'src/core/kernel/decider/stage-step.ts',
    'src/core/kernel/features/canonical-output/canonical-output-feature.ts',
  ],
  EXEC_BASH: [
    'src/core/kernel/runner/performers/perform-execute.ts',
    'src/core/toolintent/shell-analysis/exec-command-analysis.ts',
  ],
  EXEC_SIBLING_CLASSIFICATION: [
    'src/core/toolintent/rules/write-rules.ts',
    'src/core/toolintent/shell-analysis/exec-command-analysis.ts',
  ],
  FILE_TOOL_TARGETS_REGULAR: [
    'src/core/toolintent/rules/path-rules.ts',
    'src/core/toolintent/rules/target-kind-rule.ts',
  ],
  FINISHING_TOOL: [
    'src/core/kernel/decider/stage-answer.ts',
    'src/core/kernel/decider/stage-request.ts',
  ],
};

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourcesUnder(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The constant each flag is defined as, by flag name, read from the modules that define them. */
function flagConstants(): Map<string, string> {
  const constants = new Map<string, string>();
  for (const path of sourcesUnder(join(root, 'src', 'core')).filter((p) =>
    p.endsWith('-flags.ts'),
  )) {
    const text = readFileSync(path, 'utf8');
    for (const match of text.matchAll(
      /export const ([A-Z0-9_]+) = defineBehaviourFlag\(\{\s*name: '([a-z0-9-]+)'/g,
    ))
      constants.set(match[2]!, match[1]!);
  }
  return constants;
}

describe('behaviour flags', () => {
  const constants = flagConstants();
  const sources = sourcesUnder(join(root, 'src'))
    .filter((path) => !path.endsWith('-flags.ts'))
    .map((path) => ({ path: relative(root, path), text: readFileSync(path, 'utf8') }));
  const readers = (constant: string) =>
    sources
      .filter(({ text }) => new RegExp(`\\b${constant}\\b`).test(text))
      .map(({ path }) => path)
      .sort();

  it('every flag of the release is defined as a constant the scan finds, with its release', () => {
    expect(behaviourFlags.map((flag) => flag.name).filter((name) => !constants.has(name))).toEqual(
      [],
    );
    for (const flag of behaviourFlags) expect(flag.since).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('each flag is read in exactly one module, apart from the listed ones', () => {
    const spread: Record<string, string[]> = {};
    const unread: string[] = [];
    for (const constant of constants.values()) {
      const modules = readers(constant);
      if (modules.length === 0) unread.push(constant);
      if (modules.length > 1) spread[constant] = modules;
    }
    expect(unread).toEqual([]);
    // A new entry here is a flag read in a second module: read it where it is owned instead.
    // A listed flag now read in one module: take it off SPREAD.
    expect(spread).toEqual(SPREAD);
  });

  it('the kernel features read their flags only in their own folder', () => {
    expect(readers('SESSION_BUDGETS')).toEqual([
      'src/core/kernel/features/budget/budget-feature.ts',
    ]);
    expect(readers('STAGE_CHECKPOINTS')).toEqual([
      'src/core/kernel/features/stage-checkpoints/stage-checkpoints-feature.ts',
    ]);
    expect(readers('CRITIQUE_OUTCOMES')).toEqual([
      'src/core/kernel/features/critique-outcomes/critique-feature.ts',
    ]);
    expect(readers('REVIEW_SEES_CHANGES')).toEqual([
      'src/core/kernel/features/review-changes/review-feature.ts',
    ]);
    expect(readers('CHECKS_BY_DEFAULT')).toEqual([
      'src/core/kernel/features/project-checks/checks-feature.ts',
    ]);
    expect(readers('BRIEF_REFERENCES')).toEqual([
      'src/core/kernel/features/brief-references/brief-feature.ts',
    ]);
    expect(readers('LSP_DIAGNOSTICS')).toEqual([
      'src/core/kernel/features/language-diagnostics/diagnostics-feature.ts',
    ]);
    expect(readers('VERDICT_FROM_EVIDENCE')).toEqual([
      'src/core/kernel/features/verdict-from-evidence/verdict-feature.ts',
    ]);
    expect(readers('CLAIMS_AGAINST_LOG')).toEqual([
      'src/core/kernel/features/claims-against-log/claims-feature.ts',
    ]);
    expect(readers('APPROVAL_TIMEOUT')).toEqual([
      'src/core/kernel/features/approval-timeout/approval-timeout-feature.ts',
    ]);
    expect(readers('TRANSIENT_PROVIDER_WAITS')).toEqual([
      'src/core/kernel/features/transient-waits/transient-waits-feature.ts',
    ]);
    expect(readers('FORK_PATHS_ONTO_WORKSPACE')).toEqual([
      'src/core/kernel/features/fork-paths/fork-paths-feature.ts',
    ]);
    expect(readers('MANIFEST_BY_REFERENCE')).toEqual([
      'src/core/kernel/features/manifest-by-reference/manifests-feature.ts',
    ]);
  });
});

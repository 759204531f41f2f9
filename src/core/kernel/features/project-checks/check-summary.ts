import type { RecordedCheckRun } from './checks-state.js';

/** The latest run of each check, in the order the checks first ran. */
export function latestCheckRuns(runs: readonly RecordedCheckRun[]): RecordedCheckRun[] {
  const latest = new Map<string, RecordedCheckRun>();
  for (const run of runs) latest.set(run.name, run);
  return [...latest.values()];
}

/**
 * One line about the session's checks for `workflow_completed`: each check's latest result with
 * its evidence. A workflow only completes while its required checks pass, so a failure listed
 * here is an advisory check's (or a definition-of-done check forgiven for unwritten files).
 */
export function checkSummary(runs: readonly RecordedCheckRun[]): string | null {
  const latest = latestCheckRuns(runs);
  if (latest.length === 0) return null;
  const parts = latest.map(
    (run) =>
      `${run.name} ${run.passed ? 'passed' : `failed (exit ${run.exitCode ?? 'none'})`} (event #${run.sequence})`,
  );
  const failed = latest.filter((run) => !run.passed).length;
  return `checks: ${parts.join('; ')}${failed > 0 ? `; ${failed} not passing, not required` : ''}`;
}

import type { CorrexEvent } from '../../core/event-catalog.js';

type CheckRun = { stageId: string; passed: boolean; exitCode: number | null; sequence: number };

/**
 * What a session's checks say, from its log: the checks detected at its start, and each check's
 * runs (stage, result, the event's sequence number as evidence). Lines for `show` and for the
 * end of `run`; none when the session neither detected nor ran a check.
 */
export function checkReportLines(events: Iterable<CorrexEvent>): string[] {
  let detected: { names: string[]; sequence: number; problems: string[] } | null = null;
  const runs = new Map<string, { command: string; runs: CheckRun[] }>();
  for (const event of events) {
    const payload = event.payload;
    if (payload.type === 'project_checks_detected')
      detected = {
        names: payload.checks.map((check) => `${check.name} (${check.command}, ${check.source})`),
        sequence: event.sequence,
        problems: payload.problems.map((problem) => `${problem.file} ${problem.message}`),
      };
    if (payload.type === 'dod_check_ran') {
      const entry = runs.get(payload.name) ?? { command: payload.command, runs: [] };
      entry.runs.push({
        stageId: payload.stageId,
        passed: payload.outcome === 'completed' && payload.exitCode === 0,
        exitCode: payload.exitCode,
        sequence: event.sequence,
      });
      runs.set(payload.name, entry);
    }
  }
  if (detected === null && runs.size === 0) return [];
  const lines: string[] = [];
  if (detected !== null)
    lines.push(
      `checks    found at start (event #${detected.sequence}): ${detected.names.join(', ') || 'none'}`,
      ...detected.problems.map((problem) => `          could not read: ${problem}`),
    );
  if (runs.size === 0) lines.push('checks    none ran');
  for (const [name, entry] of runs) {
    const last = entry.runs.at(-1)!;
    const history = entry.runs
      .map(
        (run) =>
          `${run.stageId} ${run.passed ? 'passed' : `failed (exit ${run.exitCode ?? 'none'})`} #${run.sequence}`,
      )
      .join(', ');
    lines.push(
      `check     ${name} (${entry.command}): ${last.passed ? 'passed' : 'FAILED'} last; runs: ${history}`,
    );
  }
  return lines;
}

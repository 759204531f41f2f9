import type { CorrexEvent } from '../../core/event-catalog.js';

type CheckRun = { stageId: string; passed: boolean; exitCode: number | null; sequence: number };

/**
 * What a session's evidence says, from its log: the checks detected at its start, each check's
 * runs (stage, result, the event's sequence number), the language server's diagnostics and the
 * paths the brief names that were missing. Lines for `show` and for the end of `run`; none for
 * a session that recorded none of these.
 */
export function checkReportLines(events: Iterable<CorrexEvent>): string[] {
  let detected: { names: string[]; sequence: number; problems: string[] } | null = null;
  const runs = new Map<string, { command: string; runs: CheckRun[] }>();
  const other: string[] = [];
  for (const event of events) {
    const payload = event.payload;
    if (payload.type === 'brief_checked' && payload.missing.length > 0)
      other.push(
        `brief     names missing paths: ${payload.missing.map((m) => `${m.path} (event #${m.observedSequence})`).join(', ')}`,
      );
    if (payload.type === 'review_findings_recorded')
      for (const finding of payload.findings)
        other.push(`finding   ${finding.id} (event #${event.sequence}): ${finding.note}`);
    if (payload.type === 'critique_outcomes_correlated') {
      const addressed = payload.outcomes.filter((o) => o.changed && o.checksPassed !== false);
      other.push(
        `rework    ${addressed.length} of ${payload.outcomes.length} findings led to a change that passed its checks (event #${event.sequence}): ${payload.outcomes
          .map(
            (o) =>
              `${o.id} ${o.changed ? 'changed' : 'unchanged'}, checks ${o.checksPassed === null ? 'not run' : o.checksPassed ? 'passed' : 'failed'}`,
          )
          .join('; ')}`,
      );
    }
    if (payload.type === 'language_diagnostics_recorded') {
      const errors = payload.files.reduce(
        (sum, file) => sum + file.diagnostics.filter((d) => d.severity === 'error').length,
        0,
      );
      other.push(
        payload.method === 'unavailable'
          ? `types     ${payload.stageId}: not checked (event #${event.sequence}): ${payload.error ?? `${payload.server} unavailable`}`
          : `types     ${payload.stageId}: ${payload.server}, ${payload.files.length} file(s), ${errors} error(s) (event #${event.sequence})`,
      );
    }
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
  if (detected === null && runs.size === 0) return other;
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
  return [...lines, ...other];
}

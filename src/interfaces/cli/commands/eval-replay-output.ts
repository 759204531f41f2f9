import type { ReplayGateReport } from '../../eval/replay-gate.js';

type Problem = {
  readonly file: string;
  readonly sessionId: string | null;
  readonly sequence: number | null;
  readonly reason: string;
};

/** The terminal lines of `correx eval replay`: one per session, details under each divergence. */
export function printReplayGate(
  report: ReplayGateReport,
  problems: readonly Problem[],
  timing: { readonly wallMs: number; readonly cpuMs: number },
): string[] {
  const lines: string[] = [];
  for (const problem of problems)
    lines.push(
      `✗ ${problem.file}${problem.sessionId === null ? '' : `  ${problem.sessionId}`}${problem.sequence === null ? '' : ` #${problem.sequence}`}: ${problem.reason}`,
    );
  for (const session of report.sessions) {
    const where = session.source === session.sessionId ? '' : `${session.source}  `;
    if (session.ok) {
      lines.push(`✓ ${where}${session.sessionId}  ${session.events} events identical`);
      continue;
    }
    if (session.error !== undefined) {
      lines.push(`✗ ${where}${session.sessionId}  cannot replay: ${session.error}`);
      continue;
    }
    const divergence = session.divergence!;
    const type = divergence.recorded.type ?? divergence.derived.type ?? 'event';
    lines.push(
      `✗ ${where}${session.sessionId}  DIVERGES at #${divergence.sequence} ${type}: ${divergence.reason}`,
    );
    if (divergence.fields.length > 0) lines.push(`    fields    ${divergence.fields.join(', ')}`);
    lines.push(
      `    derived   ${short(divergence.derived.sha256)} ${divergence.derivedText ?? '(nothing)'}`,
    );
    lines.push(
      `    recorded  ${short(divergence.recorded.sha256)} ${divergence.recordedText ?? '(nothing)'}`,
    );
  }
  const failed = report.sessions.filter((session) => !session.ok).length;
  lines.push(
    `eval replay: ${report.sessions.length} sessions, ${report.events} events, ${report.decided} decisions re-derived in ${(timing.wallMs / 1000).toFixed(1)} s (${(timing.cpuMs / 1000).toFixed(1)} s CPU), no model or tool called — ${
      failed === 0 && problems.length === 0
        ? 'all identical'
        : `${failed} diverged${problems.length === 0 ? '' : `, ${problems.length} corpus problems`}`
    }`,
  );
  return lines;
}

function short(sha256: string | null): string {
  return sha256 === null ? '-' : `sha256:${sha256.slice(0, 12)}`;
}

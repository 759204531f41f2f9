import { commandOutputExcerpt } from './command-output-excerpt.js';
import { relative, isAbsolute } from 'node:path';
import { visibleText } from '../../core/base/visible-text.js';
import type { ChangedFile, RunSummary } from './run-summary.js';

/** A path inside the workspace as the person knows it (relative); any other as recorded. */
function shownPath(path: string, workspace: string | null): string {
  if (workspace === null) return path;
  const inside = relative(workspace, path);
  return inside === '' || inside.startsWith('..') || isAbsolute(inside) ? path : inside;
}

function clipLine(text: string, length: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= length ? line : `${line.slice(0, length - 1)}…`;
}

function lineCounts(file: ChangedFile): string {
  if (file.added === null || file.removed === null) return '(lines not known: bytes not kept)';
  return `+${file.added} -${file.removed}`;
}

/**
 * The human version of a run's summary, printed at the end of `correx run`/`resume`: how it
 * ended (with the exit code), the checks' latest results, the files changed with their +/- lines,
 * tokens and cost, and the commands to look further or go on.
 */
export function runSummaryLines(summary: RunSummary): string[] {
  const workspace = summary.workspace;
  const turns = summary.turns ?? [];
  const lines = [
    '',
    `── summary of session ${summary.sessionId}${summary.turn === undefined ? '' : `, turn ${summary.turn} of ${turns.length}`}`,
  ];
  const scoped = turns.find((turn) => turn.turn === summary.turn);
  if (scoped !== undefined) {
    lines.push(`request   ${visibleText(clipLine(scoped.text, 160))}`);
    if (scoped.workspaceChanged.length > 0)
      lines.push(
        `edited    outside correx before this turn, kept: ${scoped.workspaceChanged.map((path) => visibleText(shownPath(path, workspace))).join(', ')}`,
      );
  }
  const waiting = summary.waitingFor;
  // A failure's message may carry a command's whole output: its first line goes on the outcome
  // line, the rest below it as lines (an excerpt), never as one line of `\n` escapes.
  const [firstLine = '', ...moreLines] = (summary.failureReason?.message ?? '')
    .replace(/\n+$/, '')
    .split('\n');
  const why =
    summary.failureReason !== null
      ? `: ${summary.failureReason.category}: ${visibleText(firstLine)}`
      : waiting?.kind === 'approval'
        ? `, waiting for approval of ${waiting.calls.map((call) => `${call.callId} (${call.tool}, ${call.tier})`).join(', ')}${waiting.sessionId === summary.sessionId ? '' : ` in sub-session ${waiting.sessionId}`}`
        : waiting?.kind === 'budget'
          ? `, stopped at its ${waiting.budget} budget (${waiting.limit})`
          : waiting?.kind === 'resume'
            ? ', not finished: resume it to go on'
            : '';
  lines.push(`outcome   ${summary.status}${why} (exit ${summary.exitCode})`);
  if (summary.failureReason !== null && moreLines.length > 0)
    for (const line of commandOutputExcerpt(moreLines.join('\n')))
      lines.push(`          │ ${line}`);
  lines.push(
    summary.checks.length === 0
      ? 'checks    none ran'
      : `checks    ${summary.checks.map((check) => `${check.name} ${check.passed ? 'passed' : `FAILED (exit ${check.exitCode ?? 'none'})`}`).join(', ')}`,
  );
  if (summary.filesChanged.length === 0) lines.push('files     none changed');
  else {
    const known = summary.filesChanged.every(
      (file) => file.added !== null && file.removed !== null,
    );
    const added = summary.filesChanged.reduce((sum, file) => sum + (file.added ?? 0), 0);
    const removed = summary.filesChanged.reduce((sum, file) => sum + (file.removed ?? 0), 0);
    lines.push(
      `files     ${summary.filesChanged.length} changed${known ? `, +${added} -${removed}` : ''}`,
    );
    const paths = summary.filesChanged.map((file) => visibleText(shownPath(file.path, workspace)));
    const width = Math.max(...paths.map((path) => path.length));
    summary.filesChanged.forEach((file, index) =>
      lines.push(
        `          ${paths[index]!.padEnd(width)}  ${lineCounts(file)}${file.change === 'modified' ? '' : ` (${file.change})`}`,
      ),
    );
  }
  lines.push(
    `tokens    ${summary.tokens.input} in, ${summary.tokens.output} out${summary.cost === null ? '' : `; cost $${summary.cost.toFixed(4)}`}`,
  );
  if (scoped?.reply !== null && scoped?.reply !== undefined) {
    const [first = '', ...rest] = scoped.reply.replace(/\n+$/, '').split('\n');
    lines.push(`reply     ${visibleText(first)}`);
    for (const line of rest) lines.push(`          ${visibleText(line)}`);
  }
  // The whole session's summary lists its turns, each on its own.
  if (summary.turn === undefined)
    for (const turn of turns) {
      lines.push(
        `turn ${String(turn.turn).padEnd(4)} ${(turn.outcome ?? 'running').padEnd(9)} #${turn.fromSequence}-${turn.toSequence}, ${turn.filesChanged} file(s), ${turn.tokens.input} in, ${turn.tokens.output} out${turn.cost === null ? '' : `, $${turn.cost.toFixed(4)}`}: ${visibleText(clipLine(turn.text, 100))}`,
      );
      if (turn.workspaceChanged.length > 0)
        lines.push(
          `          edited outside correx before it: ${turn.workspaceChanged.map((path) => visibleText(shownPath(path, workspace))).join(', ')}`,
        );
      if (turn.reply !== null)
        lines.push(`          reply: ${visibleText(clipLine(turn.reply, 140))}`);
    }
  summary.next.forEach((command, index) =>
    lines.push(`${index === 0 ? 'next      ' : '          '}${command}`),
  );
  return lines;
}

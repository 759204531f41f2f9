import { visibleText } from '../../core/base/visible-text.js';

const HEAD_LINES = 10;
const TAIL_LINES = 20;
const LINE_CHARS = 240;

/**
 * The lines of a failed command's output a person needs: all of it when short, else its first
 * 10 and last 20 lines (where the error usually is) around a count of what was left out. Each
 * line is escaped (output is the command's, never trusted) and clipped.
 */
export function commandOutputExcerpt(output: string): string[] {
  const lines = output.replace(/\n+$/, '').split('\n');
  if (lines.length === 1 && lines[0] === '') return [];
  const shown =
    lines.length <= HEAD_LINES + TAIL_LINES + 1
      ? lines.map(clipLine)
      : [
          ...lines.slice(0, HEAD_LINES).map(clipLine),
          `… ${lines.length - HEAD_LINES - TAIL_LINES} lines omitted …`,
          ...lines.slice(-TAIL_LINES).map(clipLine),
        ];
  return shown;
}

function clipLine(line: string): string {
  const visible = visibleText(line.replace(/\r$/, ''));
  return visible.length <= LINE_CHARS ? visible : `${visible.slice(0, LINE_CHARS - 1)}…`;
}

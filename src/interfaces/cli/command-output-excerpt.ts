import { visibleText } from '../../core/base/visible-text.js';

const HEAD_LINES = 10;
const TAIL_LINES = 20;
const LINE_CHARS = 240;
/** The most lines the middle of a long output contributes (what a failed assertion says). */
const TELLING_LINES = 24;

/**
 * A line that says why a test failed: an assertion's message, its expected and actual values, a
 * diff's `+`/`-` lines, an error's first line, a failure marker. Stack frames (`at …`) are not.
 */
const TELLING =
  /\b(expected|actual|received|assert\w*|error|fail\w*|not ok|mismatch|differ\w*)\b|^\s*[+-]\s|^\s*[-+]{3}\s|[✗✕×≠]/i;
const STACK_FRAME = /^\s+at\s/;

/**
 * The lines of a failed command's output a person needs: all of it when short, else its first
 * 10 and last 20 lines (where the error usually is) and, from the middle, the lines that say why
 * it failed (an assertion's expected and actual lines, a diff), never stack frames, with a count
 * of what was left out between. Each line is escaped (output is the command's, never trusted)
 * and clipped.
 */
export function commandOutputExcerpt(output: string): string[] {
  const lines = output.replace(/\n+$/, '').split('\n');
  if (lines.length === 1 && lines[0] === '') return [];
  if (lines.length <= HEAD_LINES + TAIL_LINES + 1) return lines.map(clipLine);
  const kept = new Set<number>();
  for (let index = 0; index < HEAD_LINES; index++) kept.add(index);
  for (let index = lines.length - TAIL_LINES; index < lines.length; index++) kept.add(index);
  let telling = 0;
  for (let index = HEAD_LINES; index < lines.length - TAIL_LINES; index++) {
    if (telling >= TELLING_LINES) break;
    const line = lines[index]!;
    if (STACK_FRAME.test(line) || !TELLING.test(line) || kept.has(index)) continue;
    kept.add(index);
    telling += 1;
  }
  const shown: string[] = [];
  let previous = -1;
  for (const index of [...kept].sort((a, b) => a - b)) {
    const gap = index - previous - 1;
    if (gap > 0) shown.push(`… ${gap} ${gap === 1 ? 'line' : 'lines'} omitted …`);
    shown.push(clipLine(lines[index]!));
    previous = index;
  }
  return shown;
}

function clipLine(line: string): string {
  const visible = visibleText(line.replace(/\r$/, ''));
  return visible.length <= LINE_CHARS ? visible : `${visible.slice(0, LINE_CHARS - 1)}…`;
}

import { visibleLines, visibleLinesJsonEscaped } from '../../core/base/visible-text.js';

/** The colours correx itself writes (green, red, dim, reset): the only escapes let through. */
const OWN_COLOURS = new RegExp(`(${String.fromCharCode(0x1b)}\\[(?:0|2|31|32)m)`);

/**
 * The last guard before a terminal: whatever a command prints, only correx's own colour codes
 * reach it raw; any other escape (a clipboard write, a screen clear, a hyperlink, hidden text)
 * and every invisible character is shown escaped. Lines and tabs are kept.
 */
export function terminalSafe(text: string): string {
  return text
    .split(OWN_COLOURS)
    .map((part, index) => (index % 2 === 1 ? part : visibleLines(part)))
    .join('');
}

/**
 * The same guard for a pipe or a file (`correx diff > f`, `| less -R`, a CI log a person reads
 * later): every escape but correx's colours is escaped too, written as JSON's `\uXXXX`, so
 * `--json` output keeps the exact values it had (JSON never holds a raw control character
 * outside a string) and text views, which escape recorded text themselves, are unchanged.
 */
export function pipeSafe(text: string): string {
  return text
    .split(OWN_COLOURS)
    .map((part, index) => (index % 2 === 1 ? part : visibleLinesJsonEscaped(part)))
    .join('');
}

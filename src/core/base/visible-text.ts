/**
 * Text from a log, a workspace or a model made safe to show: every character that could change
 * how the rest is seen (controls and terminal escapes, bidi overrides, zero-width and other
 * invisible format characters, tag characters, line separators, lone surrogates) is written as a
 * visible escape instead. The one function every human-facing view (CLI, web) and every name in
 * tool output shown to a model goes through, so `src/a\u{202E}b.ts`, `ESC]52;...` or a file
 * named `x\nAPPROVED: yes.ts` cannot pass for something else.
 *
 * Backslashes are left as they are: the text stays readable, and a literal `\n` typed into a name
 * is shown as the four characters it is.
 */

/**
 * Controls (Cc: C0, DEL, C1), format characters (Cf: bidi controls, zero-width, soft hyphen, BOM,
 * tags U+E0000–E007F), line and paragraph separators, lone surrogates, and the fillers that render
 * as blank space (Hangul fillers, braille blank, combining grapheme joiner).
 */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\u034F\u115F\u1160\u2800\u3164\uFFA0]/gu;
const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeOne(character: string): string {
  const named = NAMED[character];
  if (named !== undefined) return named;
  const code = character.codePointAt(0)!;
  if (code < 0x100) return `\\x${code.toString(16).padStart(2, '0')}`;
  return `\\u{${code.toString(16).toUpperCase().padStart(4, '0')}}`;
}

/** `text` on one line with every hidden character escaped (a path, a name, a reason). */
export function visibleText(text: string): string {
  return text.replace(HIDDEN, escapeOne);
}

/** `text` with line feeds and tabs kept and every other hidden character escaped (output, a diff). */
export function visibleLines(text: string): string {
  return text.replace(HIDDEN, (character) =>
    character === '\n' || character === '\t' ? character : escapeOne(character),
  );
}

/**
 * `visibleLines`, with each hidden character written as JSON's `\uXXXX` (astral ones as their
 * surrogate pair). Inside a JSON string that is the very same value, so output bound for a pipe
 * or a file stays valid, equal JSON while no text in it can carry a terminal escape.
 */
export function visibleLinesJsonEscaped(text: string): string {
  return text.replace(HIDDEN, (character) =>
    character === '\n' || character === '\t'
      ? character
      : Array.from(
          { length: character.length },
          (_, index) => `\\u${character.charCodeAt(index).toString(16).padStart(4, '0')}`,
        ).join(''),
  );
}

/** Whether `text` has a character `visibleText` would escape. */
export function hasHiddenCharacters(text: string): boolean {
  HIDDEN.lastIndex = 0;
  const found = HIDDEN.test(text);
  HIDDEN.lastIndex = 0;
  return found;
}

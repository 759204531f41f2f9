/**
 * What bash reads differently from a POSIX shell, for the parser's `bash` mode (flag
 * `exec-bash`): ANSI-C quoting is decoded when bash parses the line, so its value is known;
 * and bash evaluates a variable's value as an arithmetic expression wherever it does
 * arithmetic (`$((x))`, `[[ x -eq 1 ]]`, an array subscript, `declare -i`), where a subscript
 * inside that value runs command substitutions (`x='a[$(id)]'; echo $((x))` runs `id`). The
 * parser cannot follow values, so these forms are refused, not judged loosely.
 */

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  a: '\u0007',
  b: '\b',
  e: '\u001b',
  E: '\u001b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/**
 * The body of `$'...'` (from just after the opening quote): its decoded text and where it
 * ends (the index after the closing quote), or null when unterminated. Escapes as bash 5
 * decodes them; an unknown escape keeps its backslash.
 */
export function readAnsiCQuote(
  source: string,
  start: number,
): { readonly text: string; readonly end: number } | null {
  let text = '';
  let index = start;
  while (index < source.length) {
    const c = source[index]!;
    if (c === "'") return { text, end: index + 1 };
    if (c !== '\\') {
      text += c;
      index++;
      continue;
    }
    const next = source[index + 1];
    if (next === undefined) return null;
    const simple = SIMPLE_ESCAPES[next];
    if (simple !== undefined) {
      text += simple;
      index += 2;
      continue;
    }
    const numeric =
      /^(?:([0-7]{1,3})|x([0-9a-fA-F]{1,2})|u([0-9a-fA-F]{1,4})|U([0-9a-fA-F]{1,8})|c(.))/.exec(
        source.slice(index + 1),
      );
    if (numeric === null) {
      text += `\\${next}`;
      index += 2;
      continue;
    }
    const [whole, octal, hex, short, long, control] = numeric;
    const code =
      octal !== undefined
        ? parseInt(octal, 8) & 0xff
        : hex !== undefined
          ? parseInt(hex, 16)
          : short !== undefined
            ? parseInt(short, 16)
            : long !== undefined
              ? parseInt(long, 16)
              : control!.charCodeAt(0) & 0x1f;
    text += code > 0x10ffff ? '\ufffd' : String.fromCodePoint(code);
    index += 1 + whole.length;
  }
  return null;
}

/** The operators of `[[ ... ]]` that evaluate both operands as arithmetic. */
export const ARITHMETIC_TESTS = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge']);

/** A plain integer, which arithmetic evaluation reads as itself. */
export const isIntegerLiteral = (text: string): boolean => /^-?[0-9]+$/.test(text);

/** A `${...}` body that indexes an array with something other than a literal or `@`/`*`. */
export function hasEvaluatedSubscript(body: string): boolean {
  const match = /^[#!]?[A-Za-z_][A-Za-z0-9_]*\[([^\]]*)\]/.exec(body);
  return match !== null && !/^(@|\*|-?[0-9]+)$/.test(match[1]!);
}

/** Text that bash may take as a subscript holding a command substitution. */
export const hasSubstitutionInSubscript = (text: string): boolean =>
  /\[[^\]]*(\$\(|`|\$\{)/.test(text);

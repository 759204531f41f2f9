/**
 * Counts tokens. Exact implementations wrap a model's own tokenizer (node-llama-cpp when a model
 * is loaded); `createEstimatingTokenizer` is the documented fallback. Budgets are enforced with
 * whichever tokenizer the pack was built with, and its name is recorded in the manifest.
 */
export interface Tokenizer {
  readonly name: string;
  count(text: string): number;
}

/**
 * A deterministic estimate meant to over-count rather than under-count for BPE tokenizers of
 * current chat models (English prose averages about 4 characters a token, code fewer):
 * - a run of ASCII letters and digits costs ceil(length / 4) tokens,
 * - every other visible ASCII character (punctuation, operators, brackets) costs 1,
 * - a run of whitespace costs 1 if it contains a newline or is longer than one space, else 0,
 * - every non-ASCII code point costs 1 (CJK and emoji are often more than one token in BPE
 *   vocabularies, but rarely more than one per code point in modern ones).
 * It is an estimate: use an exact tokenizer where budgets are tight.
 */
export function createEstimatingTokenizer(): Tokenizer {
  return { name: 'estimate-v1', count: estimateTokens };
}

export function estimateTokens(text: string): number {
  let tokens = 0;
  let word = 0;
  let space = 0;
  let spaceHasNewline = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const isWordChar =
      (code >= 48 && code <= 57) ||
      (code >= 65 && code <= 90) ||
      (code >= 97 && code <= 122) ||
      code === 95;
    const isSpace = code === 32 || code === 9 || code === 10 || code === 13;
    if (!isWordChar && word > 0) {
      tokens += (word + 3) >> 2;
      word = 0;
    }
    if (!isSpace && space > 0) {
      if (spaceHasNewline || space > 1) tokens += 1;
      space = 0;
      spaceHasNewline = false;
    }
    if (isWordChar) {
      word += 1;
    } else if (isSpace) {
      space += 1;
      if (code === 10) spaceHasNewline = true;
    } else if (code >= 0xd800 && code <= 0xdbff) {
      // A surrogate pair is one code point: count it once.
      tokens += 1;
      i += 1;
    } else {
      tokens += 1;
    }
  }
  if (word > 0) tokens += (word + 3) >> 2;
  if (space > 0 && (spaceHasNewline || space > 1)) tokens += 1;
  return tokens;
}

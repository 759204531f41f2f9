import type { Tokenizer } from './tokenizer.js';

export type Compressed = { readonly content: string; readonly tokens: number };

/** The marker put where text was cut; it says how much is missing so the model knows. */
export function omissionMarker(omittedCharacters: number): string {
  return `\n[... ${omittedCharacters} characters omitted by correx ...]\n`;
}

/**
 * Keeps the head and the tail of `content` with a marker between them, as long as the result
 * counts at most `maxTokens` with `tokenizer`. Every candidate length is checked with the
 * tokenizer itself, so the bound holds for exact tokenizers too. Returns `undefined` when not
 * even the marker fits. Returns the content unchanged when it already fits.
 */
export function compressHeadTail(
  content: string,
  maxTokens: number,
  tokenizer: Tokenizer,
): Compressed | undefined {
  const whole = tokenizer.count(content);
  if (whole <= maxTokens) return { content, tokens: whole };
  const render = (keep: number): string => {
    const headEnd = safeCut(content, Math.ceil(keep / 2));
    const tailStart = safeCut(content, content.length - Math.floor(keep / 2));
    return (
      content.slice(0, headEnd) + omissionMarker(tailStart - headEnd) + content.slice(tailStart)
    );
  };
  let best: Compressed | undefined;
  let low = 0;
  let high = content.length - 1;
  while (low <= high) {
    const keep = (low + high) >>> 1;
    const text = render(keep);
    const tokens = tokenizer.count(text);
    if (tokens <= maxTokens) {
      best = { content: text, tokens };
      low = keep + 1;
    } else {
      high = keep - 1;
    }
  }
  return best;
}

/** Moves a cut off the middle of a surrogate pair. */
function safeCut(text: string, index: number): number {
  const code = text.charCodeAt(index - 1);
  return code >= 0xd800 && code <= 0xdbff ? index - 1 : index;
}

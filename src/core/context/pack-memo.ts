import type { Sha256 } from '../base/sha256.js';
import type { Tokenizer } from './tokenizer.js';

/**
 * What the pack builder derives from an entry's text alone (its token count, its SHA-256),
 * remembered across a session's model calls. Each call's pack is mostly the previous call's
 * entries plus what happened since; without the memo every call counts and hashes all of them
 * again. Keyed by the text itself and by the function that derived the value, so a value
 * cannot go stale: the same text through the same tokenizer or hash gives the same answer.
 * Pure: remembering changes how much work a call does, never what it gives (a test records a
 * session with and without it and compares the stored bytes).
 */
export type PackMemo = {
  /** `tokenizer.count(text)`, remembered. */
  readonly tokens: (tokenizer: Tokenizer, text: string) => number;
  /** `sha256(text)`, remembered. */
  readonly digest: (sha256: Sha256, text: string) => string;
};

// Two generations of this many characters of keys each: a session's live pack is far smaller,
// and a text that left the pack long ago is forgotten with the generation that held it.
const GENERATION_CHARS = 8_000_000;

export function createPackMemo(generationChars = GENERATION_CHARS): PackMemo {
  const tokens = new WeakMap<Tokenizer, TextMemo<number>>();
  const digests = new WeakMap<Sha256, TextMemo<string>>();
  return {
    tokens(tokenizer, text) {
      let memo = tokens.get(tokenizer);
      if (memo === undefined) tokens.set(tokenizer, (memo = new TextMemo(generationChars)));
      return memo.get(text, (t) => tokenizer.count(t));
    },
    digest(sha256, text) {
      let memo = digests.get(sha256);
      if (memo === undefined) digests.set(sha256, (memo = new TextMemo(generationChars)));
      return memo.get(text, sha256);
    },
  };
}

/** A value per text, in two generations bounded by the characters of their keys. */
class TextMemo<Value> {
  #current = new Map<string, Value>();
  #previous = new Map<string, Value>();
  #chars = 0;

  constructor(readonly generationChars: number) {}

  get(text: string, derive: (text: string) => Value): Value {
    const hit = this.#current.get(text);
    if (hit !== undefined) return hit;
    const value = this.#previous.get(text) ?? derive(text);
    if (this.#chars + text.length > this.generationChars) {
      // The older generation goes; what was used since it began lives on in the newer one.
      this.#previous = this.#current;
      this.#current = new Map();
      this.#chars = 0;
    }
    this.#current.set(text, value);
    this.#chars += text.length;
    return value;
  }
}

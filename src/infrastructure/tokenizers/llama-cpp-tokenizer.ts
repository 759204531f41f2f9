import type { Tokenizer } from '../../core/context/tokenizer.js';

/** The part of a loaded node-llama-cpp model a tokenizer needs. */
export type TokenizingModel = { tokenize(text: string): readonly unknown[] };

/** Exact token counts from a loaded GGUF model's own vocabulary. */
export function createLlamaCppTokenizer(model: TokenizingModel, modelName: string): Tokenizer {
  return {
    name: `llama-cpp:${modelName}`,
    count: (text) => (text === '' ? 0 : model.tokenize(text).length),
  };
}

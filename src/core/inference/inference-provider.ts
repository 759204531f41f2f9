import type { InferenceRequest } from './inference-request.js';
import type { InferenceResult } from './inference-result.js';

/**
 * The port every model backend implements (remote APIs, a local GGUF, scripted turns, replay).
 * `infer` resolves with the model's proposal or rejects with an `InferenceError` whose category
 * the retry policy acts on. Aborting `signal` stops the underlying request or generation and
 * rejects with category `cancelled`. `onText`, when given, is told the answer's text as it is
 * generated (a live view for a person; the resolved result stays what is recorded): a provider
 * that cannot stream tells it nothing.
 */
export interface InferenceProvider {
  /** Stable name used in events and model profiles, e.g. `openai-compatible:local`. */
  readonly name: string;
  infer(
    request: InferenceRequest,
    signal?: AbortSignal,
    onText?: InferenceTextObserver,
  ): Promise<InferenceResult>;
}

/** Told each piece of a model's answer text as it arrives; it only watches. */
export type InferenceTextObserver = (delta: string) => void;

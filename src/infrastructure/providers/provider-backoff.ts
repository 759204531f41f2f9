import type { InferenceProvider } from '../../core/inference/inference-provider.js';
import {
  InferenceError,
  type InferenceFailureCategory,
} from '../../core/inference/inference-failure.js';

export type ProviderBackoffOptions = {
  /** The first delay after a failure (default 500 ms); each further one doubles it. */
  readonly baseMs?: number;
  /** The longest delay (default 30 s). */
  readonly capMs?: number;
  /** A number in [0, 1): the jitter (default Math.random). */
  readonly random?: () => number;
  /** Milliseconds since the epoch (default Date.now). */
  readonly now?: () => number;
};

/** The failures a wait helps with: the server was not there, too slow, or said slow down. */
const BACKED_OFF: ReadonlySet<InferenceFailureCategory> = new Set([
  'provider_down',
  'timeout',
  'rate_limit',
]);

/**
 * A provider whose unreachable-server failures ask for a growing delay before the next call:
 * the delay is carried as the failure's `retryAfterMs`, which the effect runner records in
 * `inference_failed` and the kernel already waits out (`retry_delay_started`/`_elapsed`), so
 * the clock and the jitter stay out of core and replay reads the delay from the log. Exponential
 * with a cap and "equal jitter" (half fixed, half random), so each delay is at least the
 * previous one's most. A success, or a quiet spell longer than twice the cap, starts over.
 * A delay the provider asked for itself (Retry-After) is the least wait: a longer one is kept.
 */
export function withProviderBackoff(
  provider: InferenceProvider,
  options: ProviderBackoffOptions = {},
): InferenceProvider {
  const baseMs = options.baseMs ?? 500;
  const capMs = options.capMs ?? 30_000;
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;
  let failures = 0;
  let lastFailureAt = 0;
  return {
    name: provider.name,
    async infer(request, signal, onText) {
      try {
        const result = await provider.infer(request, signal, onText);
        failures = 0;
        return result;
      } catch (error) {
        if (!(error instanceof InferenceError) || !BACKED_OFF.has(error.category)) throw error;
        const at = now();
        failures = at - lastFailureAt > 2 * capMs ? 1 : failures + 1;
        lastFailureAt = at;
        const delay = Math.min(capMs, baseMs * 2 ** (failures - 1));
        const prefix = `${error.provider}: `;
        throw new InferenceError({
          category: error.category,
          provider: error.provider,
          message: error.message.startsWith(prefix)
            ? error.message.slice(prefix.length)
            : error.message,
          // The server's own Retry-After is honoured as the least wait, never shortened.
          retryAfterMs: Math.max(
            error.retryAfterMs ?? 0,
            Math.round(delay / 2 + (random() * delay) / 2),
          ),
          cause: error,
        });
      }
    },
  };
}

/** What a piece of live output is of: a model call's text, or a running command's output. */
export type LiveOutputKind = 'model_text' | 'command_output';

/**
 * A piece of work in progress, for a person watching it happen: the text a model is writing
 * (`id` is the `requestId` of its `inference_requested`) or what a command prints (`id` is the
 * call's `callId`). Never recorded and never read back: the recorded `inference_completed` or
 * `tool_receipt` stays the truth, and a replay or a late watcher sees only those.
 */
export type LiveOutput = {
  readonly sessionId: string;
  readonly kind: LiveOutputKind;
  readonly id: string;
  readonly chunk: string;
};

/**
 * The port live output leaves through (the server's WebSocket fan-out). It only watches: what it
 * throws is the watcher's own, and nothing waits for it.
 */
export type LiveOutputObserver = (output: LiveOutput) => void;

/** How much of one call's output is shown live; the rest is in the recorded result. */
export const LIVE_OUTPUT_LIMIT_CHARS = 64 * 1024;
/** The largest piece sent at once (a longer one is split). */
export const LIVE_CHUNK_LIMIT_CHARS = 16 * 1024;
/** Ends a call's live output that reached its limit. */
export const LIVE_OUTPUT_CUT_MARKER = '\n… (more in the recorded result)';

/**
 * Bounds one call's live output: `take` hands back the pieces of `text` to send (split at
 * `chunkLimit`, cut at `limit` with the marker once), and nothing after the cut.
 */
export function createLiveOutputBudget(
  limit: number = LIVE_OUTPUT_LIMIT_CHARS,
  chunkLimit: number = LIVE_CHUNK_LIMIT_CHARS,
): { take(text: string): string[] } {
  let used = 0;
  let cut = false;
  return {
    take(text) {
      if (cut || text === '') return [];
      let kept = text;
      if (used + text.length > limit) {
        kept = text.slice(0, Math.max(0, limit - used)) + LIVE_OUTPUT_CUT_MARKER;
        cut = true;
      }
      used += kept.length;
      const pieces: string[] = [];
      for (let start = 0; start < kept.length; start += chunkLimit)
        pieces.push(kept.slice(start, start + chunkLimit));
      return pieces;
    },
  };
}

import { StringDecoder } from 'node:string_decoder';
import { createLiveOutputBudget } from '../../core/base/live-output.js';

/** Told one call's live output, piece by piece, as text. */
export type CallOutputObserver = (callId: string, chunk: string) => void;

/**
 * Hands a running command's bytes to a watcher as text, bounded (see createLiveOutputBudget): a
 * character split across two reads is held until it is whole. What the watcher throws is its
 * own; the command and its recorded output never depend on it.
 */
export function createLiveOutputTap(
  callId: string,
  observer: CallOutputObserver,
): { push(bytes: Buffer): void; end(): void } {
  const decoder = new StringDecoder('utf8');
  const budget = createLiveOutputBudget();
  const send = (text: string) => {
    for (const piece of budget.take(text)) {
      try {
        observer(callId, piece);
      } catch {
        // The watcher's failure is its own.
      }
    }
  };
  return {
    push: (bytes) => send(decoder.write(bytes)),
    end: () => send(decoder.end()),
  };
}

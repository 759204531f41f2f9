import {
  createLiveOutputBudget,
  type LiveOutput,
  type LiveOutputObserver,
} from '../core/base/live-output.js';
import type { CorrexEvent } from '../core/event-catalog.js';
import type { InferenceProvider } from '../core/inference/inference-provider.js';
import { inferenceRequestDigest } from '../core/inference/request-digest.js';
import type { CallOutputObserver } from '../infrastructure/tools/live-output-tap.js';
import { nodeSha256 } from '../infrastructure/system/node-sha256.js';

/** Where the live output of one drive goes, and who it is for. */
export type LiveOutputSink = {
  readonly emit: LiveOutputObserver;
  /** Whether anyone watches now: nothing is worked out for nobody. */
  readonly watched: () => boolean;
};

/**
 * Names the live output of one drive (a session and the sub-sessions it starts, which share its
 * ports). A provider knows only the request and a tool runner only the call id; the events the
 * run appends say which session and which `requestId` they are of: `inference_requested`
 * carries the request's digest, and `tool_call_started` the call id, both appended before the
 * effect runs. A call resumed after a restart has no such event in this drive: its text is
 * named by the request digest (which its recorded `inference_requested` carries too) under the
 * session driven here.
 */
export function createLiveOutputRouting(
  sessionId: string,
  sink: LiveOutputSink,
): {
  observe(event: CorrexEvent): void;
  providers(
    providers: ReadonlyMap<string, InferenceProvider>,
  ): ReadonlyMap<string, InferenceProvider>;
  readonly commandOutput: CallOutputObserver;
} {
  const requests = new Map<string, { sessionId: string; requestId: string }>();
  const calls = new Map<string, string>();
  const emit = (output: LiveOutput) => {
    try {
      sink.emit(output);
    } catch {
      // A watcher's failure is its own.
    }
  };
  const watching = (provider: InferenceProvider): InferenceProvider => ({
    name: provider.name,
    infer(request, signal, onText) {
      let target: { sessionId: string; id: string } | undefined;
      const budget = createLiveOutputBudget();
      return provider.infer(request, signal, (delta) => {
        onText?.(delta);
        if (!sink.watched() && target === undefined) return;
        if (target === undefined) {
          const digest = inferenceRequestDigest(request, nodeSha256);
          const requested = requests.get(digest);
          target =
            requested === undefined
              ? { sessionId, id: digest }
              : { sessionId: requested.sessionId, id: requested.requestId };
        }
        for (const chunk of budget.take(delta)) emit({ ...target, kind: 'model_text', chunk });
      });
    },
  });
  return {
    observe(event) {
      const payload = event.payload;
      switch (payload.type) {
        case 'inference_requested':
          requests.set(payload.requestDigest, {
            sessionId: event.sessionId,
            requestId: payload.requestId,
          });
          break;
        case 'inference_completed':
        case 'inference_failed':
          for (const [digest, requested] of requests)
            if (requested.requestId === payload.requestId) requests.delete(digest);
          break;
        case 'tool_call_started':
          calls.set(payload.callId, event.sessionId);
          break;
        case 'tool_receipt':
          calls.delete(payload.callId);
          break;
        default:
          break;
      }
    },
    providers: (providers) =>
      new Map([...providers].map(([name, provider]) => [name, watching(provider)])),
    commandOutput(callId, chunk) {
      if (!sink.watched()) return;
      emit({
        sessionId: calls.get(callId) ?? sessionId,
        kind: 'command_output',
        id: callId,
        chunk,
      });
    },
  };
}

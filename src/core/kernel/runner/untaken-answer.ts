import type { CorrexEvent } from '../../event-catalog.js';

type Payload = CorrexEvent['payload'];

/**
 * The `inference_failed` that records a model answer (`payloads`, one `inference_completed`)
 * which folding or deciding on threw `error`; undefined for anything else.
 */
export function untakenAnswer(payloads: readonly Payload[], error: unknown): Payload[] | undefined {
  const [answer] = payloads;
  if (payloads.length !== 1 || answer?.type !== 'inference_completed') return undefined;
  const why = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return [
    {
      type: 'inference_failed',
      requestId: answer.requestId,
      provider: answer.provider,
      model: answer.result.modelId,
      category: 'malformed_response',
      message: `correx could not take the answer (${why.slice(0, 500)})`,
    },
  ];
}

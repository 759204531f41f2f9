import type { InferenceRequest } from '../../inference/inference-request.js';
import type { Effect } from './effect.js';
import { KernelInvariantError } from './kernel-errors.js';
import type { BuiltRequests } from './step.js';

/** What the log recorded of a model call that is still to be made. */
export type RecordedRequest = {
  readonly requestId: string;
  readonly provider: string;
  readonly requestDigest: string;
};

/**
 * The model call a recorded request waits on: the request this decision built, or (after a
 * restart) the one `rebuild` makes from the log, which must have the recorded digest.
 */
export function recordedInferEffect(
  built: BuiltRequests,
  recorded: RecordedRequest,
  rebuild: () => { readonly request: InferenceRequest; readonly requestDigest: string } | null,
): Extract<Effect, { type: 'infer' }> {
  let request = built.get(recorded.requestId);
  if (request === undefined) {
    const rebuilt = rebuild();
    if (rebuilt === null || rebuilt.requestDigest !== recorded.requestDigest)
      throw new KernelInvariantError(
        `the pending request ${recorded.requestId} cannot be rebuilt as recorded (digest ${recorded.requestDigest}); was the kernel configuration changed?`,
      );
    request = rebuilt.request;
  }
  return {
    type: 'infer',
    requestId: recorded.requestId,
    provider: recorded.provider,
    request,
    requestDigest: recorded.requestDigest,
  };
}

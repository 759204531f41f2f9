import { CorrexError } from '../base/correx-error.js';
import type { Sha256 } from '../base/sha256.js';
import type { InferenceProvider } from './inference-provider.js';
import type { InferenceRequest } from './inference-request.js';
import type { InferenceResult } from './inference-result.js';
import { inferenceRequestDigest } from './request-digest.js';

/** The recorded part of an `inference_completed` event the replay provider needs. */
export type RecordedInference = {
  readonly requestDigest: string;
  readonly result: InferenceResult;
};

/**
 * Replay asked for a model answer that was never recorded (hard invariant #8: replay never
 * calls a live model). This is a replay failure, not an inference failure: nothing retries it.
 */
export class ReplayMissingRecordingError extends CorrexError {
  readonly requestDigest: string;

  constructor(requestDigest: string, model: string) {
    super(
      'replay_missing_recording',
      `replay has no recorded inference for request ${requestDigest} (model ${model}); ` +
        'the session would have asked the model something it never asked',
    );
    this.requestDigest = requestDigest;
  }
}

/**
 * Answers only from recorded `inference_completed` results, matched by request digest. Identical
 * requests made several times are answered in recorded order; each recording is used once.
 */
export function createReplayInferenceProvider(options: {
  recordings: readonly RecordedInference[];
  name?: string;
  hash?: Sha256;
}): InferenceProvider & { readonly remaining: () => number } {
  const queues = new Map<string, InferenceResult[]>();
  for (const recording of options.recordings) {
    const queue = queues.get(recording.requestDigest) ?? [];
    queue.push(recording.result);
    queues.set(recording.requestDigest, queue);
  }
  return {
    name: options.name ?? 'replay',
    infer(request: InferenceRequest): Promise<InferenceResult> {
      const digest = inferenceRequestDigest(request, options.hash);
      const result = queues.get(digest)?.shift();
      if (result === undefined) {
        return Promise.reject(new ReplayMissingRecordingError(digest, request.model));
      }
      return Promise.resolve(result);
    },
    remaining: () => [...queues.values()].reduce((sum, queue) => sum + queue.length, 0),
  };
}

/** Picks the recordings out of a session's payloads (anything but `inference_completed` is skipped). */
export function recordedInferences(
  payloads: Iterable<{ readonly type: string }>,
): RecordedInference[] {
  const recordings: RecordedInference[] = [];
  for (const payload of payloads) {
    if (payload.type === 'inference_completed')
      recordings.push(payload as unknown as RecordedInference);
  }
  return recordings;
}

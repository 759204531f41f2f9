import { sha256Hex, type Sha256 } from '../base/sha256.js';
import { canonicalJson } from '../events/canonical-json.js';
import type { InferenceRequest } from './inference-request.js';

/**
 * The content address of a request: SHA-256 of its canonical JSON. Recorded in
 * `inference_requested`; the replay provider answers a request only when its digest matches a
 * recording, so a replay that would ask the model something new fails instead of guessing.
 */
export function inferenceRequestDigest(
  request: InferenceRequest,
  hash: Sha256 = sha256Hex,
): string {
  return hash(canonicalJson(request));
}

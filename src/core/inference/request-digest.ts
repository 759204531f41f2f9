import { sha256Hex, type Sha256 } from '../base/sha256.js';
import { canonicalJson, canonicalMemberJson } from '../events/canonical-json.js';
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

/**
 * The two digests `inference_requested` records: the rendered messages'
 * (`contextPackDigest`) and the whole request's (`inferenceRequestDigest`), the same two
 * strings. The messages are most of both texts, so their canonical JSON is written once and
 * the request's text is put together around it, one member at a time in sorted key order, as
 * `canonicalJson` writes an object. Anything that text could not be sure of (a member off the
 * fast path, an odd key) takes the two plain encodings. `toolsJson`, when the caller has it, is
 * the canonical text of `request.tools` as a member (`canonicalMemberJson`), which is then not
 * written again: a stage's definitions are the same every call (see request-definitions.ts).
 */
export function inferenceRequestDigests(
  request: InferenceRequest,
  hash: Sha256 = sha256Hex,
  toolsJson?: string,
): { readonly packDigest: string; readonly requestDigest: string } {
  const composed = composedRequestJson(request, toolsJson);
  if (composed === undefined)
    return {
      packDigest: hash(canonicalJson(request.messages)),
      requestDigest: inferenceRequestDigest(request, hash),
    };
  return { packDigest: hash(composed.messages), requestDigest: hash(composed.request) };
}

const PLAIN_KEY = /^[A-Za-z][A-Za-z0-9]*$/;

function composedRequestJson(
  request: InferenceRequest,
  toolsJson: string | undefined,
): { readonly messages: string; readonly request: string } | undefined {
  if (Object.getPrototypeOf(request) !== Object.prototype) return undefined;
  const record = request as unknown as Record<string, unknown>;
  let messages: string | undefined;
  const members: string[] = [];
  for (const key of Object.keys(record).sort()) {
    const member = record[key];
    if (member === undefined) continue;
    // A key that is not a plain name (an index-like key, `__proto__`) reorders or vanishes.
    if (!PLAIN_KEY.test(key) || key === '__proto__') return undefined;
    // As a member, one level down: the depth `canonicalJson` of the request gives it.
    const json =
      key === 'tools' && toolsJson !== undefined ? toolsJson : canonicalMemberJson(member);
    if (json === undefined) return undefined;
    if (key === 'messages') messages = json;
    members.push(`${JSON.stringify(key)}:${json}`);
  }
  return messages === undefined ? undefined : { messages, request: `{${members.join(',')}}` };
}

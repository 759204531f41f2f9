import { CorrexError } from '../base/correx-error.js';

/** Why a stored event could not be trusted. */
export type CorruptionReason =
  | 'unreadable' // bytes are not JSON, or the envelope is malformed
  | 'unknown_type' // no definition for the payload type
  | 'schema' // the payload fails its schema, after upcasting
  | 'mismatch' // the row's columns disagree with its bytes
  | 'hash'; // the row's hash is not H(previous hash || bytes), or the chain is broken

/** A stored event failed to decode or to verify. Names the session and sequence. */
export class CorruptEventError extends CorrexError {
  constructor(
    readonly sessionId: string,
    readonly sequence: number,
    readonly reason: CorruptionReason,
    detail: string,
  ) {
    super('corrupt_event', `session ${sessionId}, sequence ${sequence}: ${reason}: ${detail}`);
  }
}

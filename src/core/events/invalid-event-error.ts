import { CorrexError } from '../base/correx-error.js';

/** An event offered for append is not valid (unknown type, payload fails its schema, bad envelope field). */
export class InvalidEventError extends CorrexError {
  constructor(
    readonly sessionId: string,
    readonly eventId: string,
    detail: string,
  ) {
    super('invalid_event', `session ${sessionId}, event ${eventId}: ${detail}`);
  }
}

/** A batch offered to `appendAll` is not acceptable as a whole (empty, mixed sessions, repeated ids). */
export class InvalidAppendError extends CorrexError {
  constructor(detail: string) {
    super('invalid_append', detail);
  }
}

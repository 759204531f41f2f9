import { CorrexError } from '../base/correx-error.js';

/**
 * An event id is already stored with different content, or a batch overlaps stored events
 * only in part. Retrying a batch that was fully stored is not an error: it returns the
 * stored envelopes.
 */
export class DuplicateEventError extends CorrexError {
  constructor(
    readonly sessionId: string,
    readonly eventId: string,
    detail: string,
  ) {
    super('duplicate_event', `session ${sessionId}, event ${eventId}: ${detail}`);
  }
}

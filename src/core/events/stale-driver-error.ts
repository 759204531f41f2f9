import { CorrexError } from '../base/correx-error.js';

/**
 * A driver's append carried a driver epoch the session has moved past: another process took
 * the session since (its lease ran out, or its connection ended). Nothing was written; the
 * driver that gets this stops driving the session at once.
 */
export class StaleDriverError extends CorrexError {
  constructor(
    readonly sessionId: string,
    readonly epoch: number,
    readonly currentEpoch: number,
  ) {
    super(
      'driver_fenced',
      `session ${sessionId}: this driver's epoch ${epoch} was fenced (the session is at driver epoch ${currentEpoch}): another process drives it now, so this one lost the session and stopped`,
    );
  }
}

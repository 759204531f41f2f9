import { CorrexError } from '../base/correx-error.js';

/** An append's `expectedSequence` did not match the session's last sequence. Nothing was written. */
export class ConcurrencyError extends CorrexError {
  constructor(
    readonly sessionId: string,
    readonly expectedSequence: number,
    readonly actualSequence: number,
  ) {
    super(
      'concurrency_conflict',
      `session ${sessionId}: expected last sequence ${expectedSequence}, but it is ${actualSequence}`,
    );
  }
}

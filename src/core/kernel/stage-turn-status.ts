import type { CallRecord, TurnRecord } from './stage-run.js';

/** A turn is over when its artifact was rejected, or it proposed calls and every one is done. */
export function isTurnFinished(turn: TurnRecord): boolean {
  if (turn.status !== 'acting') return false;
  if (turn.artifact !== null) return turn.artifact.status === 'rejected';
  return turn.calls.every((call) => call.status === 'done');
}

/** The first call of the turn that is not done. */
export function currentCall(turn: TurnRecord): CallRecord | undefined {
  return turn.calls.find((call) => call.status !== 'done');
}

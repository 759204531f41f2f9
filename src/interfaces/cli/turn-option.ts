import { CorrexError } from '../../core/base/correx-error.js';
import type { CorrexEvent } from '../../core/event-catalog.js';
import { sessionTurns } from '../../core/kernel/index.js';

export const TURN_HELP = 'one turn of a session with follow-up turns (1 is its first request)';

/** `--turn N`: a turn the session has (a usage error otherwise). */
export function turnOption(text: string, events: readonly CorrexEvent[]): number {
  const turns = sessionTurns(events).map((turn) => turn.turn);
  const turn = Number(text);
  if (!Number.isInteger(turn) || !turns.includes(turn))
    throw new CorrexError(
      'usage',
      `--turn takes a turn of the session (${turns.join(', ') || 'none'}), got ${JSON.stringify(text)}`,
    );
  return turn;
}

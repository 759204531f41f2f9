import type { CorrexEvent } from '../../event-catalog.js';

/** One turn of a session (its first request, or a follow-up), read from the log. */
export type SessionTurn = {
  readonly turn: number;
  readonly text: string;
  readonly requestedBy: string;
  readonly workflowId: string;
  /** Its first event: `session_configured`'s for turn 1, its `turn_requested` for a follow-up. */
  readonly fromSequence: number;
  /** Its last event: the one before the next turn's request, or the log's last. */
  readonly toSequence: number;
  /** How its workflow ended; null while it runs (or waits). */
  readonly outcome: 'completed' | 'failed' | 'cancelled' | null;
  readonly message: string | null;
  /** The conversational stage's last reply in the turn (`turn_reply_recorded`). */
  readonly reply: string | null;
  /** Files found edited outside correx before the turn ran (`turn_workspace_checked`). */
  readonly workspaceChanged: readonly string[];
};

/**
 * The turns of a session, each with the sequence range of its events: a session without
 * follow-ups has one. Pure; reads the session's own log only.
 */
export function sessionTurns(events: readonly CorrexEvent[]): SessionTurn[] {
  const turns: SessionTurn[] = [];
  const last = events.at(-1)?.sequence ?? 0;
  const close = (before: number) => {
    const open = turns.at(-1);
    if (open !== undefined) turns[turns.length - 1] = { ...open, toSequence: before };
  };
  const change = (update: (turn: SessionTurn) => SessionTurn) => {
    const open = turns.at(-1);
    if (open !== undefined) turns[turns.length - 1] = update(open);
  };
  for (const event of events) {
    const payload = event.payload;
    switch (payload.type) {
      case 'session_created':
        turns.push({
          turn: 1,
          text: payload.task,
          requestedBy: 'session',
          workflowId: payload.workflowId,
          fromSequence: 1,
          toSequence: last,
          outcome: null,
          message: null,
          reply: null,
          workspaceChanged: [],
        });
        break;
      case 'turn_requested':
        close(event.sequence - 1);
        turns.push({
          turn: payload.turn,
          text: payload.text,
          requestedBy: payload.requestedBy,
          workflowId: payload.workflowId,
          fromSequence: event.sequence,
          toSequence: last,
          outcome: null,
          message: null,
          reply: null,
          workspaceChanged: [],
        });
        break;
      case 'turn_workspace_checked':
        change((turn) => ({
          ...turn,
          workspaceChanged: payload.changed.map((changed) => changed.path),
        }));
        break;
      case 'turn_reply_recorded':
        change((turn) => ({ ...turn, reply: payload.message }));
        break;
      case 'workflow_completed':
        change((turn) => ({ ...turn, outcome: 'completed', message: payload.summary ?? null }));
        break;
      case 'workflow_failed':
        change((turn) => ({ ...turn, outcome: 'failed', message: payload.message }));
        break;
      case 'workflow_cancelled':
        change((turn) => ({ ...turn, outcome: 'cancelled', message: payload.reason ?? null }));
        break;
      default:
        break;
    }
  }
  return turns;
}

/**
 * The events of turn `turn` of a session's log, with what every turn needs to read them (its
 * configuration and start: prices, workspace); null when the session has no such turn.
 */
export function eventsOfTurn(
  events: readonly CorrexEvent[],
  turn: number,
): readonly CorrexEvent[] | null {
  const found = sessionTurns(events).find((candidate) => candidate.turn === turn);
  if (found === undefined) return null;
  return events.filter(
    (event) =>
      (event.sequence >= found.fromSequence && event.sequence <= found.toSequence) ||
      event.payload.type === 'session_configured' ||
      event.payload.type === 'session_created',
  );
}

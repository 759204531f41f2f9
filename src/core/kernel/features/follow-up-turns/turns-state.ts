import type { CorrexEvent } from '../../../event-catalog.js';
import type { TurnWorkspaceChange } from '../../../sessions/turn-events.js';

/** A file as the session's recorded changes last left it (null: the session deleted it). */
export type LeftFile = string | null;

/** One turn of the session: its request and, once its workflow ended, how it ended. */
export type TurnRecord = {
  readonly turn: number;
  readonly text: string;
  readonly requestedBy: string;
  readonly workflowId: string;
  /** The sequence of the event that asked for it (`session_created` for turn 1). */
  readonly sequence: number;
  /** The sequence of the workflow's end (`workflow_completed/failed/cancelled`); null while it runs. */
  readonly endedSequence: number | null;
  readonly outcome: 'completed' | 'failed' | 'cancelled' | null;
  /** The failure's or cancellation's message, or the completion's check summary. */
  readonly message: string | null;
  /** The files its recorded changes wrote, in the order first written. */
  readonly filesChanged: readonly string[];
  /** The check runs of the turn, in order. */
  readonly checks: readonly {
    readonly name: string;
    readonly passed: boolean;
    readonly sequence: number;
  }[];
  /** The last journal summary a stage of the turn recorded. */
  readonly journalSummary: string | null;
  /** The conversational stage's reply (`turn_reply_recorded`). */
  readonly reply: string | null;
};

/** A follow-up turn recorded and not started yet: its workspace check, then its workflow. */
export type PendingTurn = {
  readonly turn: number;
  /** The observations of its workspace check, by path (`world_observed`, call id `turn-<n>`). */
  readonly observed: { readonly [path: string]: ObservedFile };
  /** Whether `turn_workspace_checked` is recorded for it. */
  readonly checked: boolean;
};

export type ObservedFile = {
  readonly kind: 'file' | 'directory' | 'other' | 'missing';
  readonly sha256: string | null;
  readonly sequence: number;
};

/**
 * The follow-up turns feature's slice (flag `follow-up-turns`): the session's turns, the
 * workspace as its recorded changes left it, a turn waiting to start, the workflow definition
 * the current turn runs when it is not the configured one, and the latest workspace check.
 * Folded from the events alone, for every session (a session without turns has one).
 */
export type TurnsState = {
  /** Whether the session recorded `follow-up-turns` (read from `session_configured`). */
  readonly on: boolean;
  readonly turns: readonly TurnRecord[];
  readonly left: { readonly [path: string]: LeftFile };
  readonly pending: PendingTurn | null;
  /** The recorded definition of the workflow the current turn runs; null: the configured one. */
  readonly definition: { readonly [key: string]: unknown } | null;
  readonly drift: {
    readonly turn: number;
    readonly changed: readonly TurnWorkspaceChange[];
    readonly sequence: number;
  } | null;
  /** `stageId.attempt.hash` of the last recorded reply (a reply is recorded once). */
  readonly lastReply: string | null;
};

export const INITIAL_TURNS: TurnsState = {
  on: false,
  turns: [],
  left: {},
  pending: null,
  definition: null,
  drift: null,
  lastReply: null,
};

/** The call id of a follow-up turn's workspace check (no tool call has it). */
export function turnProbeId(turn: number): string {
  return `turn-${turn}`;
}

export function evolveTurns(state: TurnsState, event: CorrexEvent, flagName: string): TurnsState {
  const payload = event.payload;
  switch (payload.type) {
    case 'session_configured': {
      const flags = payload.configuration.flags;
      const on = Array.isArray(flags) && flags.includes(flagName);
      return on === state.on ? state : { ...state, on };
    }
    case 'session_created':
      return {
        ...state,
        turns: [newTurn(1, payload.task, 'session', payload.workflowId, event.sequence)],
      };
    case 'turn_requested':
      return {
        ...state,
        turns: [
          ...state.turns,
          newTurn(
            payload.turn,
            payload.text,
            payload.requestedBy,
            payload.workflowId,
            event.sequence,
          ),
        ],
        pending: { turn: payload.turn, observed: {}, checked: false },
        definition: (payload.workflow as TurnsState['definition'] | undefined) ?? null,
      };
    case 'world_observed': {
      const pending = state.pending;
      if (pending === null || payload.callId !== turnProbeId(pending.turn)) return state;
      const observation = payload.observation;
      return {
        ...state,
        pending: {
          ...pending,
          observed: {
            ...pending.observed,
            [observation.path]: {
              kind: observation.kind,
              sha256: observation.sha256,
              sequence: event.sequence,
            },
          },
        },
      };
    }
    case 'turn_workspace_checked':
      return {
        ...state,
        pending: state.pending === null ? null : { ...state.pending, checked: true },
        drift: { turn: payload.turn, changed: payload.changed, sequence: event.sequence },
      };
    case 'workflow_started':
      return state.pending === null ? state : { ...state, pending: null };
    case 'tool_receipt':
    case 'workspace_restored': {
      const files = payload.files.filter((file) => file.access !== 'read');
      if (files.length === 0) return state;
      const left = { ...state.left };
      for (const file of files) left[file.path] = file.after;
      const written =
        payload.type === 'tool_receipt' && payload.outcome === 'succeeded'
          ? files.filter((file) => file.access === 'write').map((file) => file.path)
          : [];
      return {
        ...state,
        left,
        turns:
          written.length === 0
            ? state.turns
            : withCurrent(state.turns, (turn) => ({
                ...turn,
                filesChanged: [
                  ...turn.filesChanged,
                  ...written.filter((path) => !turn.filesChanged.includes(path)),
                ],
              })),
      };
    }
    case 'dod_check_ran':
      return {
        ...state,
        turns: withCurrent(state.turns, (turn) => ({
          ...turn,
          checks: [
            ...turn.checks,
            {
              name: payload.name,
              passed: payload.outcome === 'completed' && payload.exitCode === 0,
              sequence: event.sequence,
            },
          ],
        })),
      };
    case 'journal_compacted':
      return {
        ...state,
        turns: withCurrent(state.turns, (turn) => ({ ...turn, journalSummary: payload.summary })),
      };
    case 'turn_reply_recorded':
      return {
        ...state,
        lastReply: `${payload.stageId}.${payload.attempt}.${payload.artifactHash}`,
        turns: withCurrent(state.turns, (turn) => ({ ...turn, reply: payload.message })),
      };
    case 'workflow_completed':
    case 'workflow_failed':
    case 'workflow_cancelled': {
      const outcome =
        payload.type === 'workflow_completed'
          ? 'completed'
          : payload.type === 'workflow_failed'
            ? 'failed'
            : 'cancelled';
      const message =
        payload.type === 'workflow_completed'
          ? (payload.summary ?? null)
          : payload.type === 'workflow_failed'
            ? payload.message
            : (payload.reason ?? null);
      return {
        ...state,
        turns: withCurrent(state.turns, (turn) =>
          turn.outcome !== null
            ? turn
            : { ...turn, outcome, message, endedSequence: event.sequence },
        ),
      };
    }
    default:
      return state;
  }
}

/** A turn just asked for: nothing of it has happened yet. */
function newTurn(
  turn: number,
  text: string,
  requestedBy: string,
  workflowId: string,
  sequence: number,
): TurnRecord {
  return {
    turn,
    text,
    requestedBy,
    workflowId,
    sequence,
    endedSequence: null,
    outcome: null,
    message: null,
    filesChanged: [],
    checks: [],
    journalSummary: null,
    reply: null,
  };
}

function withCurrent(
  turns: readonly TurnRecord[],
  change: (turn: TurnRecord) => TurnRecord,
): readonly TurnRecord[] {
  const last = turns.at(-1);
  if (last === undefined) return turns;
  const changed = change(last);
  return changed === last ? turns : [...turns.slice(0, -1), changed];
}

/** The session's current turn number (1 before any follow-up). */
export function currentTurn(state: TurnsState): number {
  return state.turns.at(-1)?.turn ?? 1;
}

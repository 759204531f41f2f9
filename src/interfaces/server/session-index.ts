import type { OperatorMode } from '../../core/approvals/approval-tier.js';
import type { CorrexEventStore } from '../../core/event-catalog.js';
import type { SessionSummary } from '../../core/events/event-store.js';
import { sessionProjection, type SessionState } from '../../core/sessions/session-projection.js';
import { sessionSpendProjection, type SpendState } from '../../core/kernel/index.js';

/** Who the server records as the decider when it pauses sessions on shutdown. */
export const SHUTDOWN_ACTOR = 'correx serve';
export const SHUTDOWN_REASON = 'server shutdown';

export type IndexedSession = {
  readonly state: SessionState;
  /** Tokens per profile and the recorded prices: the session's cost (`spendOf`). */
  readonly spend: SpendState;
  /** Paused by a server shutdown and not resumed since: the next start resumes it. */
  readonly pausedByShutdown: boolean;
  /** The operator mode `session_created` recorded (the projection does not keep it). */
  readonly mode: OperatorMode | null;
  /** Timestamps of the first and the last event folded ('' before any). */
  readonly firstTimestamp: string;
  readonly lastTimestamp: string;
};

/**
 * The session projection of every session the server has been asked about, kept in memory and
 * brought up to date by reading only the events after the last one folded. Disposable: it is
 * rebuilt from the log on every start.
 */
export type SessionIndex = {
  /** Null when the session has no events. */
  get(sessionId: string): Promise<IndexedSession | null>;
  list(): Promise<{ summary: SessionSummary; session: IndexedSession }[]>;
};

export function createSessionIndex(store: CorrexEventStore): SessionIndex {
  const cache = new Map<string, IndexedSession>();
  const inFlight = new Map<string, Promise<IndexedSession>>();

  const refresh = async (sessionId: string): Promise<IndexedSession> => {
    let entry = cache.get(sessionId) ?? {
      state: sessionProjection.initial(),
      spend: sessionSpendProjection.initial(),
      pausedByShutdown: false,
      mode: null,
      firstTimestamp: '',
      lastTimestamp: '',
    };
    for await (const event of store.stream(sessionId, {
      afterSequence: entry.state.lastSequence,
    })) {
      const payload = event.payload;
      entry = {
        state: sessionProjection.evolve(entry.state, event),
        spend: sessionSpendProjection.evolve(entry.spend, event),
        pausedByShutdown:
          payload.type === 'orchestration_paused'
            ? payload.by === SHUTDOWN_ACTOR && payload.reason === SHUTDOWN_REASON
            : entry.pausedByShutdown && payload.type !== 'orchestration_resumed',
        mode: payload.type === 'session_created' ? payload.mode : entry.mode,
        firstTimestamp: entry.firstTimestamp || event.timestamp,
        lastTimestamp: event.timestamp,
      };
    }
    cache.set(sessionId, entry);
    return entry;
  };

  // Refreshes of one session run one after another, so no event is folded twice.
  const get = (sessionId: string): Promise<IndexedSession> => {
    const previous = inFlight.get(sessionId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => refresh(sessionId));
    inFlight.set(sessionId, next);
    void next
      .finally(() => {
        if (inFlight.get(sessionId) === next) inFlight.delete(sessionId);
      })
      .catch(() => undefined);
    return next;
  };

  return {
    async get(sessionId) {
      const entry = await get(sessionId);
      return entry.state.lastSequence === 0 ? null : entry;
    },
    async list() {
      const summaries = await store.listSessions();
      const rows = [];
      for (const summary of summaries)
        rows.push({ summary, session: await get(summary.sessionId) });
      return rows;
    },
  };
}

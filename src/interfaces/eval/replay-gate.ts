import type { Sha256 } from '../../core/base/sha256.js';
import type { CorrexEventStore } from '../../core/event-catalog.js';
import type { ReplayDivergence } from '../../core/kernel/index.js';
import { replayAnySession } from '../fork-replay.js';

/** One side of a divergence: the event's type, the digest of its canonical text, its fields. */
export type DivergentEvent = {
  readonly type: string | null;
  /** SHA-256 of the canonical identity (event id, causation, correlation, payload). */
  readonly sha256: string | null;
};

/** Where one session first re-derives something other than what it recorded. */
export type SessionDivergence = {
  readonly sequence: number;
  readonly reason: string;
  readonly derived: DivergentEvent;
  readonly recorded: DivergentEvent;
  /** Top-level fields (`payload.x`, `eventId`...) whose values differ between the two. */
  readonly fields: readonly string[];
  /** The canonical texts themselves, for a person to read. */
  readonly derivedText: string | null;
  readonly recordedText: string | null;
};

export type SessionReplayResult = {
  readonly sessionId: string;
  /** Where the session came from: a corpus file, or the store. */
  readonly source: string;
  readonly events: number;
  readonly decided: number;
  readonly ok: boolean;
  readonly divergence?: SessionDivergence;
  /** Replay could not run at all (no configuration recorded, an unreadable event). */
  readonly error?: string;
};

export type ReplayGateReport = {
  readonly ok: boolean;
  readonly sessions: readonly SessionReplayResult[];
  readonly events: number;
  readonly decided: number;
};

/**
 * The regression gate of `correx eval replay`: re-derives every listed session with no model and
 * no tool (the kernel's `replaySession`, the configuration and flags each recorded; a fork's
 * prefix checked against its parent, which must be in the same store) and names, for
 * each that diverges, the first sequence where it does.
 */
export async function replayGate(
  store: CorrexEventStore,
  sessions: readonly { readonly sessionId: string; readonly source: string }[],
  sha256: Sha256,
): Promise<ReplayGateReport> {
  const results: SessionReplayResult[] = [];
  for (const { sessionId, source } of sessions) {
    try {
      const report = await replayAnySession(store, sessionId, { sha256 });
      const events = await store.lastSequence(sessionId);
      results.push(
        report.ok
          ? { sessionId, source, events, decided: report.decided, ok: true }
          : {
              sessionId,
              source,
              events,
              decided: 0,
              ok: false,
              divergence: describeDivergence(report.divergence, sha256),
            },
      );
    } catch (error) {
      results.push({
        sessionId,
        source,
        events: 0,
        decided: 0,
        ok: false,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return {
    ok: results.every((result) => result.ok),
    sessions: results,
    events: results.reduce((sum, result) => sum + result.events, 0),
    decided: results.reduce((sum, result) => sum + result.decided, 0),
  };
}

/** Several gates' reports as one. */
export function joinReports(reports: readonly ReplayGateReport[]): ReplayGateReport {
  const sessions = reports.flatMap((report) => report.sessions);
  return {
    ok: sessions.every((session) => session.ok),
    sessions,
    events: reports.reduce((sum, report) => sum + report.events, 0),
    decided: reports.reduce((sum, report) => sum + report.decided, 0),
  };
}

function describeDivergence(divergence: ReplayDivergence, sha256: Sha256): SessionDivergence {
  const derived = parse(divergence.expected);
  const recorded = parse(divergence.actual);
  return {
    sequence: divergence.sequence,
    reason: divergence.reason,
    derived: side(divergence.expected, derived, sha256),
    recorded: side(divergence.actual, recorded, sha256),
    fields: differingFields(derived, recorded),
    derivedText: divergence.expected,
    recordedText: divergence.actual,
  };
}

type Identity = { readonly [key: string]: unknown; readonly payload?: Record<string, unknown> };

function parse(text: string | null): Identity | null {
  return text === null ? null : (JSON.parse(text) as Identity);
}

function side(text: string | null, identity: Identity | null, sha256: Sha256): DivergentEvent {
  const type = identity?.payload?.type;
  return {
    type: typeof type === 'string' ? type : null,
    sha256: text === null ? null : sha256(text),
  };
}

/** The envelope fields and payload fields (one level down) that differ, by canonical text. */
function differingFields(derived: Identity | null, recorded: Identity | null): string[] {
  if (derived === null || recorded === null) return [];
  const fields: string[] = [];
  const differs = (a: unknown, b: unknown) => JSON.stringify(a) !== JSON.stringify(b);
  for (const key of new Set([...Object.keys(derived), ...Object.keys(recorded)]).values()) {
    if (key === 'payload') continue;
    if (differs(derived[key], recorded[key])) fields.push(key);
  }
  const a = derived.payload ?? {};
  const b = recorded.payload ?? {};
  for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort())
    if (differs(a[key], b[key])) fields.push(`payload.${key}`);
  return fields;
}

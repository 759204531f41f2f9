import type { CorrexEventStore } from '../core/event-catalog.js';
import { UnknownSessionError } from '../core/kernel/index.js';
import { readSessionLogs, type StoredText } from './cli/run-summary.js';
import { compareSessions, type SessionComparison } from './session-comparison.js';

/**
 * Compares two sessions of a store, as `correx compare` and `GET /api/compare` both answer:
 * each session's log with its sub-sessions', and file bytes from the pre-image store. A session
 * with no events is refused (`UnknownSessionError`) before anything is read.
 */
export async function compareStoredSessions(
  store: CorrexEventStore,
  ids: { readonly a: string; readonly b: string },
  stored: StoredText,
  sha256: (text: string) => string,
): Promise<SessionComparison> {
  for (const sessionId of [ids.a, ids.b])
    if ((await store.lastSequence(sessionId)) === 0) throw new UnknownSessionError(sessionId);
  return compareSessions(
    { sessionId: ids.a, logs: await readSessionLogs(store, ids.a) },
    { sessionId: ids.b, logs: await readSessionLogs(store, ids.b) },
    stored,
    sha256,
  );
}

import type { SessionListItemDto } from '../../../src/interfaces/protocol/session-dto.js';

/** One session's heading in the inbox: which session a card belongs to, at a glance. */
export type InboxSession = {
  readonly row: SessionListItemDto;
  /** The task, or the id when none was recorded. */
  readonly title: string;
  /** The workspace's last two folders (the whole path is `row.workspace`). */
  readonly workspace: string | null;
  /** The shortest unique prefix of its id among the listed sessions (`correx` accepts it). */
  readonly shortId: string;
  /** Someone drives it now: a decision takes effect at once. */
  readonly driven: boolean;
  /** Who drives it, in words, or why nobody does. */
  readonly driver: string;
};

/** The last two folders of a path, `…/`-prefixed when longer. */
export function shortPath(path: string): string {
  const parts = path.split('/').filter((part) => part !== '');
  return parts.length <= 2 ? path : `…/${parts.slice(-2).join('/')}`;
}

/**
 * The shortest prefix of `sessionId`, at least `min` characters, that no other listed id starts
 * with: a person tells sessions apart by it and `correx` commands accept it (a unique prefix).
 * UUIDv7 ids share their first characters for a minute, so a fixed cut would not do.
 */
export function shortSessionId(sessionId: string, others: readonly string[], min = 8): string {
  for (let length = min; length < sessionId.length; length += 1) {
    const prefix = sessionId.slice(0, length);
    if (!others.some((other) => other !== sessionId && other.startsWith(prefix))) return prefix;
  }
  return sessionId;
}

/**
 * Whether anyone drives the session now: this server (running it, or holding it while it waits
 * for a person), or another process whose lease is fresh. Otherwise a decision is recorded and
 * the call runs only when someone resumes the session.
 */
export function isDriven(row: SessionListItemDto): boolean {
  return (
    row.running || row.attended === true || (typeof row.driver === 'string' && row.stalled !== true)
  );
}

function describeDriver(row: SessionListItemDto): string {
  if (row.running) return 'running here';
  if (row.attended === true) return 'this server goes on when you decide';
  if (typeof row.driver === 'string')
    return row.stalled === true
      ? `${row.driver} stopped renewing its lease`
      : `driven by ${row.driver}`;
  return row.status === 'paused' ? 'paused; nobody is driving it' : 'nobody is driving it';
}

/**
 * The sessions with calls waiting for a person, as the inbox groups them: those someone drives
 * first (a decision takes effect now), then those nobody drives, each oldest first.
 */
export function inboxSessions(rows: readonly SessionListItemDto[]): {
  readonly live: InboxSession[];
  readonly undriven: InboxSession[];
} {
  const ids = rows.map((row) => row.sessionId);
  const waiting = rows
    .filter((row) => row.pendingApprovals > 0)
    .sort((a, b) => a.firstTimestamp.localeCompare(b.firstTimestamp))
    .map((row): InboxSession => ({
      row,
      title: row.task ?? row.sessionId,
      workspace: row.workspace === null ? null : shortPath(row.workspace),
      shortId: shortSessionId(row.sessionId, ids),
      driven: isDriven(row),
      driver: describeDriver(row),
    }));
  return {
    live: waiting.filter((session) => session.driven),
    undriven: waiting.filter((session) => !session.driven),
  };
}

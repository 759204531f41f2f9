import type { SessionListItemDto } from '../../../src/interfaces/protocol/session-dto.js';

/** One session's heading in the inbox: which session a card belongs to, at a glance. */
export type InboxSession = {
  readonly row: SessionListItemDto;
  /** The task, or the id when none was recorded. */
  readonly title: string;
  /** The workspace's last two folders (the whole path is `row.workspace`). */
  readonly workspace: string | null;
  /** An id prefix `correx` commands accept (the whole id when short). */
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

/** An id prefix long enough for a person to tell sessions apart and for `correx` to resolve. */
export function shortSessionId(sessionId: string): string {
  return sessionId.length > 12 ? sessionId.slice(0, 8) : sessionId;
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
  const waiting = rows
    .filter((row) => row.pendingApprovals > 0)
    .sort((a, b) => a.firstTimestamp.localeCompare(b.firstTimestamp))
    .map((row): InboxSession => ({
      row,
      title: row.task ?? row.sessionId,
      workspace: row.workspace === null ? null : shortPath(row.workspace),
      shortId: shortSessionId(row.sessionId),
      driven: isDriven(row),
      driver: describeDriver(row),
    }));
  return {
    live: waiting.filter((session) => session.driven),
    undriven: waiting.filter((session) => !session.driven),
  };
}

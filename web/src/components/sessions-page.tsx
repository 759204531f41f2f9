import { useState } from 'preact/hooks';
import {
  SessionStatusDtoSchema,
  type SessionStatusDto,
} from '../../../src/interfaces/protocol/wire-values.js';
import type { SessionListItemDto } from '../../../src/interfaces/protocol/session-dto.js';
import { formatAge, formatCost, formatTokens } from '../format.js';
import { shortPath } from '../model/approval-inbox.js';
import { leaseBadge } from '../model/driver-lease.js';
import { hrefOf } from '../route.js';
import { Empty, Failure, Loading } from './states.js';
import { useSessionList } from './use-session-list.js';

const FINAL: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);

/** A workspace path short enough for a column: its last two folders (the whole path on hover). */
export function SessionsPage() {
  const [filter, setFilter] = useState<SessionStatusDto | 'all'>('all');
  const list = useSessionList();
  const sessions =
    list.state.status === 'ready'
      ? [...list.state.value].sort((a, b) => b.lastTimestamp.localeCompare(a.lastTimestamp))
      : [];
  const shown = sessions.filter((session) => filter === 'all' || session.status === filter);

  return (
    <section aria-labelledby="sessions-title">
      <div class="page-head">
        <h1 id="sessions-title">Sessions</h1>
        <label class="inline">
          Status{' '}
          <select
            value={filter}
            onChange={(event) => setFilter(event.currentTarget.value as SessionStatusDto | 'all')}
          >
            <option value="all">all</option>
            {SessionStatusDtoSchema.options.map((status) => (
              <option value={status} key={status}>
                {status}
              </option>
            ))}
          </select>
        </label>
      </div>
      {list.state.status === 'loading' && <Loading what="sessions" />}
      {list.state.status === 'failed' && <Failure error={list.state.error} retry={list.reload} />}
      {list.state.status === 'ready' && sessions.length === 0 && (
        <Empty>
          <p>No sessions in this store yet.</p>
          <p>
            <a href={hrefOf({ page: 'new' })}>Start one</a>, or run <code>correx demo</code>.
          </p>
        </Empty>
      )}
      {list.state.status === 'ready' && sessions.length > 0 && shown.length === 0 && (
        <Empty>
          <p>No session is {filter}.</p>
        </Empty>
      )}
      {shown.length > 0 && <SessionTable sessions={shown} />}
    </section>
  );
}

function SessionTable(props: { sessions: SessionListItemDto[] }) {
  const now = Date.now();
  return (
    <div class="table-wrap">
      <table class="sessions">
        <caption class="sr-only">Sessions, most recent activity first</caption>
        <thead>
          <tr>
            <th scope="col">Session</th>
            <th scope="col">Status</th>
            <th scope="col">Workspace</th>
            <th scope="col">Stage</th>
            <th scope="col">Mode</th>
            <th scope="col">Age</th>
            <th scope="col">Tokens (in / out)</th>
            <th scope="col">Cost</th>
          </tr>
        </thead>
        <tbody>
          {props.sessions.map((session) => {
            const lease = leaseBadge(session);
            return (
              <tr key={session.sessionId} data-session-id={session.sessionId}>
                <td data-label="Session">
                  <div>
                    <a href={hrefOf({ page: 'session', sessionId: session.sessionId })}>
                      {session.task ?? session.sessionId}
                    </a>
                    <div class="muted mono small">{session.sessionId}</div>
                  </div>
                </td>
                <td data-label="Status">
                  <div>
                    <span class={`badge status-${session.status}`}>{session.status}</span>
                    {session.running && <span class="badge running-here">running here</span>}
                    {typeof session.driver === 'string' && !session.running && (
                      <span
                        class="badge running-here"
                        title={lease?.title ?? 'the process driving this session'}
                      >
                        {session.driver}
                      </span>
                    )}
                    {lease?.stalled === true && (
                      <span class="badge stalled" title={lease.title}>
                        {lease.text}
                      </span>
                    )}
                    {session.pendingApprovals > 0 && (
                      <a
                        class="badge pending"
                        href={hrefOf({ page: 'session', sessionId: session.sessionId })}
                      >
                        {session.pendingApprovals} waiting
                      </a>
                    )}
                  </div>
                </td>
                <td data-label="Workspace" class="workspace-cell" title={session.workspace ?? ''}>
                  {session.workspace === null ? (
                    '—'
                  ) : (
                    <span class="mono small">{shortPath(session.workspace)}</span>
                  )}
                </td>
                <td data-label="Stage" data-testid="row-stage">
                  {session.stage === null ? (
                    '—'
                  ) : FINAL.has(session.status) ? (
                    <>
                      <span class="muted">ended in </span>
                      {session.stage}
                    </>
                  ) : (
                    session.stage
                  )}
                </td>
                <td data-label="Mode">{session.mode ?? '—'}</td>
                <td data-label="Age" class="age" title={session.firstTimestamp}>
                  {formatAge(session.firstTimestamp, now)}
                </td>
                <td data-label="Tokens">
                  {`${formatTokens(session.tokens.input)} / ${formatTokens(session.tokens.output)}`}
                </td>
                <td
                  data-label="Cost"
                  data-testid="row-cost"
                  title={session.cost === null ? 'no prices configured' : undefined}
                >
                  {formatCost(session.cost)}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

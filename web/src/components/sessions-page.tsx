import { useEffect, useState } from 'preact/hooks';
import {
  SessionStatusDtoSchema,
  type SessionStatusDto,
} from '../../../src/interfaces/protocol/wire-values.js';
import type { SessionListItemDto } from '../../../src/interfaces/protocol/session-dto.js';
import { formatAge, formatTokens } from '../format.js';
import { text } from '../model/payload-fields.js';
import { hrefOf } from '../route.js';
import { useConnection } from '../session-context.js';
import { Empty, Failure, Loading, useAsync } from './states.js';

type Details = {
  stage: string | null;
  input: number;
  output: number;
  mode: string | null;
  pending: number;
};

/** How many rows get their details (stage, tokens, mode) fetched: one request pair each. */
const DETAILED_ROWS = 50;

export function SessionsPage() {
  const { api } = useConnection();
  const [filter, setFilter] = useState<SessionStatusDto | 'all'>('all');
  const list = useAsync(() => api.listSessions(), [api], 5_000);
  const [details, setDetails] = useState<Record<string, Details>>({});
  const sessions =
    list.state.status === 'ready'
      ? [...list.state.value.sessions].sort((a, b) =>
          b.lastTimestamp.localeCompare(a.lastTimestamp),
        )
      : [];
  const shown = sessions.filter((session) => filter === 'all' || session.status === filter);
  const detailKey = shown
    .slice(0, DETAILED_ROWS)
    .map((s) => `${s.sessionId}@${s.lastSequence}`)
    .join(',');

  useEffect(() => {
    let cancelled = false;
    for (const session of shown.slice(0, DETAILED_ROWS)) {
      void Promise.all([api.getSession(session.sessionId), api.events(session.sessionId, 0, 5)])
        .then(([dto, page]) => {
          if (cancelled) return;
          const created = page.events.find((event) => event.type === 'session_created');
          setDetails((old) => ({
            ...old,
            [session.sessionId]: {
              stage: dto.activeStage?.stageId ?? dto.nextStage?.stageId ?? dto.lastStageId,
              input: dto.tokens.input,
              output: dto.tokens.output,
              mode: created ? (text(created.payload, 'mode') ?? null) : null,
              pending: dto.pendingApprovals.length,
            },
          }));
        })
        .catch(() => undefined);
    }
    return () => {
      cancelled = true;
    };
  }, [detailKey]);

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
      {shown.length > 0 && <SessionTable sessions={shown} details={details} />}
    </section>
  );
}

function SessionTable(props: { sessions: SessionListItemDto[]; details: Record<string, Details> }) {
  const now = Date.now();
  return (
    <div class="table-wrap">
      <table class="sessions">
        <caption class="sr-only">Sessions, most recent activity first</caption>
        <thead>
          <tr>
            <th scope="col">Session</th>
            <th scope="col">Status</th>
            <th scope="col">Stage</th>
            <th scope="col">Mode</th>
            <th scope="col">Age</th>
            <th scope="col">Tokens (in / out)</th>
          </tr>
        </thead>
        <tbody>
          {props.sessions.map((session) => {
            const detail = props.details[session.sessionId];
            return (
              <tr key={session.sessionId}>
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
                    {detail && detail.pending > 0 && (
                      <a
                        class="badge pending"
                        href={hrefOf({ page: 'session', sessionId: session.sessionId })}
                      >
                        {detail.pending} waiting
                      </a>
                    )}
                  </div>
                </td>
                <td data-label="Stage">{detail?.stage ?? '—'}</td>
                <td data-label="Mode">{detail?.mode ?? '—'}</td>
                <td data-label="Age" title={session.firstTimestamp}>
                  {formatAge(session.firstTimestamp, now)}
                </td>
                <td data-label="Tokens">
                  {detail ? `${formatTokens(detail.input)} / ${formatTokens(detail.output)}` : '—'}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

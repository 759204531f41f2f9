import { useEffect, useState } from 'preact/hooks';
import { visibleText } from '../../../src/core/base/visible-text.js';
import type { PendingApprovalDetailsDto } from '../../../src/interfaces/protocol/session-dto.js';
import { inboxSessions, type InboxSession } from '../model/approval-inbox.js';
import { changeFromArguments, toolCallOfApproval } from '../model/pending-approval.js';
import { hrefOf } from '../route.js';
import { useConnection } from '../session-context.js';
import { ApprovalCard } from './approval-card.js';
import { Empty, Failure, Loading } from './states.js';
import { useSessionList } from './use-session-list.js';

type Details = { readonly lastSequence: number; readonly approvals: PendingApprovalDetailsDto[] };

/**
 * Every tool call waiting for a person, across sessions, grouped by session (task, workspace,
 * short id, status, who drives it): the live session list says which sessions wait, and
 * `GET .../approvals` of each gives the calls with their arguments, resolved paths and findings
 * (read again whenever that session moves on). Calls of sessions nobody drives are shown apart:
 * deciding them takes effect only when someone resumes the session.
 */
export function ApprovalsPage() {
  const { api } = useConnection();
  const list = useSessionList();
  const [details, setDetails] = useState<Record<string, Details>>({});
  const [error, setError] = useState<unknown>(null);
  const { live, undriven } =
    list.state.status === 'ready' ? inboxSessions(list.state.value) : { live: [], undriven: [] };
  const waiting = [...live, ...undriven];
  const key = waiting
    .map((session) => `${session.row.sessionId}@${session.row.lastSequence}`)
    .join(',');

  useEffect(() => {
    let cancelled = false;
    for (const { row } of waiting) {
      if (details[row.sessionId]?.lastSequence === row.lastSequence) continue;
      api.approvals(row.sessionId).then(
        ({ approvals }) => {
          if (cancelled) return;
          setError(null);
          setDetails((old) => ({
            ...old,
            [row.sessionId]: { lastSequence: row.lastSequence, approvals },
          }));
        },
        (caught: unknown) => {
          if (!cancelled) setError(caught);
        },
      );
    }
    return () => {
      cancelled = true;
    };
  }, [key]);

  const loaded = (sessions: readonly InboxSession[]) =>
    sessions.filter((session) => details[session.row.sessionId] !== undefined);
  const group = (session: InboxSession) => (
    <SessionGroup
      key={session.row.sessionId}
      session={session}
      approvals={details[session.row.sessionId]?.approvals ?? []}
      onDecided={list.refresh}
    />
  );
  return (
    <section aria-labelledby="approvals-title">
      <div class="page-head">
        <h1 id="approvals-title">Approvals</h1>
        <button type="button" onClick={list.reload}>
          Refresh
        </button>
      </div>
      {list.state.status === 'loading' && <Loading what="pending approvals" />}
      {list.state.status === 'failed' && <Failure error={list.state.error} retry={list.reload} />}
      {error !== null && <Failure error={error} retry={list.reload} />}
      {list.state.status === 'ready' && waiting.length === 0 && (
        <Empty>
          <p>Nothing waits for you. Tool calls that need a person appear here.</p>
        </Empty>
      )}
      {waiting.length > 0 && loaded(waiting).length === 0 && error === null && (
        <Loading what="pending approvals" />
      )}
      {loaded(live).map(group)}
      {loaded(undriven).length > 0 && (
        <details class="panel undriven" data-testid="undriven-approvals" open={live.length === 0}>
          <summary>
            <strong>
              Waiting in sessions nobody is driving ({loaded(undriven).length} session
              {loaded(undriven).length === 1 ? '' : 's'})
            </strong>
          </summary>
          <p class="muted">
            No process drives these sessions now (they are paused, or the process that ran them
            stopped). A decision is recorded, and the call runs only when someone resumes the
            session: Resume on its page, or <code>correx resume &lt;id&gt;</code>.
          </p>
          {loaded(undriven).map(group)}
        </details>
      )}
    </section>
  );
}

/** One session's waiting calls under a heading that tells it apart from the others. */
function SessionGroup(props: {
  session: InboxSession;
  approvals: readonly PendingApprovalDetailsDto[];
  onDecided: () => void;
}) {
  const { session } = props;
  const { row } = session;
  return (
    <section
      class="panel inbox-session"
      aria-labelledby={`inbox-${row.sessionId}`}
      data-session-id={row.sessionId}
      data-driven={session.driven ? 'yes' : 'no'}
    >
      <h2 id={`inbox-${row.sessionId}`}>
        <a href={hrefOf({ page: 'session', sessionId: row.sessionId })}>
          {visibleText(session.title)}
        </a>
      </h2>
      <p class="inbox-facts small" data-testid="inbox-facts">
        {session.workspace !== null && (
          <span class="mono" title={visibleText(row.workspace ?? '')}>
            {visibleText(session.workspace)}
          </span>
        )}
        <span class="mono" title={row.sessionId}>
          {session.shortId}
        </span>
        <span class={`badge status-${row.status}`}>{row.status}</span>
        <span class={session.driven ? 'badge running-here' : 'badge stalled'}>
          {session.driver}
        </span>
      </p>
      {props.approvals.map((approval) => {
        const call = toolCallOfApproval(approval);
        return (
          <ApprovalCard
            key={approval.callId}
            sessionId={row.sessionId}
            workspace={row.workspace}
            call={call}
            change={changeFromArguments(call, approval.recordedContent)}
            alwaysAllow={approval.alwaysAllow}
            interrupted={approval.interrupted}
            onDecided={props.onDecided}
          />
        );
      })}
    </section>
  );
}

import { useEffect, useState } from 'preact/hooks';
import type { PendingApprovalDetailsDto } from '../../../src/interfaces/protocol/session-dto.js';
import { changeFromArguments, toolCallOfApproval } from '../model/pending-approval.js';
import { hrefOf } from '../route.js';
import { useConnection } from '../session-context.js';
import { ApprovalCard } from './approval-card.js';
import { Empty, Failure, Loading } from './states.js';
import { useSessionList } from './use-session-list.js';

type Details = { readonly lastSequence: number; readonly approvals: PendingApprovalDetailsDto[] };

/**
 * Every tool call waiting for a person, across sessions: the live session list says which
 * sessions wait, and `GET .../approvals` of each gives the calls with their arguments, resolved
 * paths and findings (read again whenever that session moves on).
 */
export function ApprovalsPage() {
  const { api } = useConnection();
  const list = useSessionList();
  const [details, setDetails] = useState<Record<string, Details>>({});
  const [error, setError] = useState<unknown>(null);
  const waiting =
    list.state.status === 'ready'
      ? list.state.value
          .filter((session) => session.pendingApprovals > 0)
          .sort((a, b) => a.firstTimestamp.localeCompare(b.firstTimestamp))
      : [];
  const key = waiting.map((session) => `${session.sessionId}@${session.lastSequence}`).join(',');

  useEffect(() => {
    let cancelled = false;
    for (const session of waiting) {
      if (details[session.sessionId]?.lastSequence === session.lastSequence) continue;
      api.approvals(session.sessionId).then(
        ({ approvals }) => {
          if (cancelled) return;
          setError(null);
          setDetails((old) => ({
            ...old,
            [session.sessionId]: { lastSequence: session.lastSequence, approvals },
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

  const loaded = waiting.filter((session) => details[session.sessionId] !== undefined);
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
      {waiting.length > 0 && loaded.length === 0 && error === null && (
        <Loading what="pending approvals" />
      )}
      {loaded.map((session) => (
        <section
          key={session.sessionId}
          class="panel"
          aria-labelledby={`inbox-${session.sessionId}`}
        >
          <h2 id={`inbox-${session.sessionId}`}>
            <a href={hrefOf({ page: 'session', sessionId: session.sessionId })}>
              {session.task ?? session.sessionId}
            </a>
          </h2>
          {details[session.sessionId]?.approvals.map((approval) => {
            const call = toolCallOfApproval(approval);
            return (
              <ApprovalCard
                key={approval.callId}
                sessionId={session.sessionId}
                call={call}
                change={changeFromArguments(call, approval.recordedContent)}
                alwaysAllow={approval.alwaysAllow}
                onDecided={list.refresh}
              />
            );
          })}
        </section>
      ))}
    </section>
  );
}

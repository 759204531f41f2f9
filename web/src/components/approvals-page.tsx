import type { SessionDto } from '../../../src/interfaces/protocol/session-dto.js';
import type { Api } from '../api.js';
import {
  addEvent,
  createTimeline,
  pendingCalls,
  proposedChange,
  type SessionTimeline,
} from '../model/session-timeline.js';
import { hrefOf } from '../route.js';
import { useConnection } from '../session-context.js';
import { ApprovalCard } from './approval-card.js';
import { Empty, Failure, Loading, useAsync } from './states.js';

type Inbox = { session: SessionDto; timeline: SessionTimeline }[];

/** Reads a session's whole log, page by page, into a timeline (for the calls' full details). */
async function loadTimeline(api: Api, sessionId: string): Promise<SessionTimeline> {
  const timeline = createTimeline();
  let after = 0;
  for (;;) {
    const page = await api.events(sessionId, after, 1000);
    for (const event of page.events) addEvent(timeline, event);
    if (page.events.length === 0 || page.nextAfter >= page.lastSequence) return timeline;
    after = page.nextAfter;
  }
}

async function loadInbox(api: Api): Promise<Inbox> {
  const { sessions } = await api.listSessions();
  const open = sessions.filter(
    (s) => s.status === 'running' || s.status === 'paused' || s.status === 'created',
  );
  const dtos = await Promise.all(open.map((s) => api.getSession(s.sessionId)));
  const waiting = dtos.filter((dto) => dto.pendingApprovals.length > 0);
  return Promise.all(
    waiting.map(async (session) => ({
      session,
      timeline: await loadTimeline(api, session.sessionId),
    })),
  );
}

/** Every tool call waiting for a person, across sessions. */
export function ApprovalsPage() {
  const { api } = useConnection();
  const inbox = useAsync(() => loadInbox(api), [api], 5_000);
  return (
    <section aria-labelledby="approvals-title">
      <div class="page-head">
        <h1 id="approvals-title">Approvals</h1>
        <button type="button" onClick={inbox.reload}>
          Refresh
        </button>
      </div>
      {inbox.state.status === 'loading' && <Loading what="pending approvals" />}
      {inbox.state.status === 'failed' && (
        <Failure error={inbox.state.error} retry={inbox.reload} />
      )}
      {inbox.state.status === 'ready' && inbox.state.value.length === 0 && (
        <Empty>
          <p>Nothing waits for you. Tool calls that need a person appear here.</p>
        </Empty>
      )}
      {inbox.state.status === 'ready' &&
        inbox.state.value.map(({ session, timeline }) => {
          const calls = pendingCalls(timeline);
          return (
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
              {calls.length === 0 && (
                <p class="muted">
                  {session.pendingApprovals
                    .map((approval) => `${approval.tool} (${approval.tier})`)
                    .join(', ')}
                </p>
              )}
              {calls.map((call) => (
                <ApprovalCard
                  key={call.callId}
                  sessionId={session.sessionId}
                  call={call}
                  change={proposedChange(timeline, call)}
                  onDecided={inbox.refresh}
                />
              ))}
            </section>
          );
        })}
    </section>
  );
}

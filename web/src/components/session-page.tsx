import type { EventDto } from '../../../src/interfaces/protocol/event-dto.js';
import type { PendingApprovalDetailsDto } from '../../../src/interfaces/protocol/session-dto.js';
import { loadHistory } from '../model/load-history.js';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api.js';
import { formatCost, formatTokens } from '../format.js';
import {
  addEvent,
  createTimeline,
  pendingCalls,
  proposedChange,
} from '../model/session-timeline.js';
import { addOutcomeEvent, createOutcome } from '../model/session-outcome.js';
import {
  addLiveChunk,
  EMPTY_LIVE_OUTPUT,
  settleLiveOutput,
  type LiveMessage,
  type LiveOutput,
} from '../model/live-output.js';
import { hrefOf } from '../route.js';
import { useConnection } from '../session-context.js';
import { ApprovalCard } from './approval-card.js';
import { FileChanges } from './file-changes.js';
import { OutcomeHeader } from './outcome-header.js';
import { GrantsPanel } from './grants-panel.js';
import { RedirectControl } from './redirect-control.js';
import { RouterPanel } from './router-panel.js';
import { SessionControls } from './session-controls.js';
import { StageCharts } from './stage-charts.js';
import { Empty, Failure, Loading, useAsync } from './states.js';
import { TimelineView } from './timeline-view.js';
import { WorkflowGraphView } from './workflow-graph-view.js';

/** Event types after which the session's summary (status, stage, tokens) is read again. */
const REFRESHING = new Set([
  'workflow_started',
  'workflow_completed',
  'workflow_failed',
  'workflow_cancelled',
  'orchestration_paused',
  'orchestration_resumed',
  'stage_started',
  'stage_completed',
  'stage_failed',
  'approval_requested',
  'approval_granted',
  'approval_denied',
  'lifecycle_rejected',
  'session_retried',
  'turn_requested',
  'turn_reply_recorded',
]);

export function SessionPage(props: { sessionId: string }) {
  const { api, hub } = useConnection();
  const session = useAsync(() => api.getSession(props.sessionId), [api, props.sessionId]);
  const timeline = useRef(createTimeline()).current;
  const outcome = useRef(createOutcome()).current;
  const [version, setVersion] = useState(0);
  const [caughtUp, setCaughtUp] = useState(false);
  const [historyError, setHistoryError] = useState<unknown>(null);
  const [now, setNow] = useState(() => Date.now());
  const marked = useRef(false);
  const [live, setLive] = useState<LiveOutput>(EMPTY_LIVE_OUTPUT);
  /** Live pieces not shown yet: they are shown together, once per animation frame. */
  const liveQueue = useRef<LiveMessage[]>([]);

  useEffect(() => {
    let stop: (() => void) | undefined;
    let cancelled = false;
    setLive(EMPTY_LIVE_OUTPUT);
    liveQueue.current = [];
    const fold = (events: readonly EventDto[]) => {
      let refresh = false;
      for (const event of events) {
        if (event.sequence > timeline.lastSequence) addOutcomeEvent(outcome, event);
        addEvent(timeline, event);
        refresh ||= REFRESHING.has(event.type);
      }
      setVersion((v) => v + 1);
      return refresh;
    };
    // History over REST (fast, in parallel pages), then live events over the WebSocket.
    loadHistory(api, props.sessionId).then(
      (events) => {
        if (cancelled) return;
        performance.mark('correx:history-loaded', { detail: { events: events.length } });
        fold(events);
        performance.mark('correx:history-folded');
        setCaughtUp(true);
        stop = hub.follow(props.sessionId, timeline.lastSequence, {
          events(batch) {
            // A recorded result replaces the live view of its call.
            setLive((current) => settleLiveOutput(current, batch));
            if (fold(batch)) session.refresh();
          },
          live(message) {
            liveQueue.current.push(message);
            if (liveQueue.current.length > 1) return;
            requestAnimationFrame(() => {
              const pieces = liveQueue.current;
              liveQueue.current = [];
              if (cancelled) return;
              setLive((current) =>
                pieces.reduce((state, piece) => addLiveChunk(state, piece), current),
              );
            });
          },
          caughtUp() {},
          message() {
            session.refresh();
          },
        });
      },
      (error: unknown) => {
        if (!cancelled) setHistoryError(error);
      },
    );
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [api, hub, props.sessionId]);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, []);
  useEffect(() => {
    if (!caughtUp || marked.current) return;
    marked.current = true;
    // Time to first render of the timeline (read by the browser tests and the load report).
    performance.mark('correx:timeline-rendered', { detail: { events: timeline.eventCount } });
  }, [caughtUp, version]);

  const pendingKey = pendingCalls(timeline)
    .map((call) => call.callId)
    .join(',');
  // What the server adds to each waiting call (as the inbox shows): the grant "always allow"
  // would record, and for an interrupted call whether its driver has stopped.
  const serverDetails = useAsync(
    () =>
      pendingKey === ''
        ? Promise.resolve(new Map<string, PendingApprovalDetailsDto>())
        : api
            .approvals(props.sessionId)
            .then(
              ({ approvals }) => new Map(approvals.map((approval) => [approval.callId, approval])),
            ),
    [api, props.sessionId, pendingKey],
  );

  if (session.state.status === 'loading') return <Loading what="the session" />;
  if (session.state.status === 'failed') {
    const error = session.state.error;
    if (error instanceof ApiError && (error.code === 'session_not_found' || error.status === 404))
      return (
        <Empty>
          <h1>Session not found</h1>
          <p>
            There is no session <code>{props.sessionId}</code> in this store.{' '}
            <a href={hrefOf({ page: 'sessions' })}>See all sessions</a>.
          </p>
        </Empty>
      );
    return <Failure error={error} retry={session.reload} />;
  }
  const dto = session.state.value;
  const pending = pendingCalls(timeline);
  const final = dto.status === 'completed' || dto.status === 'failed' || dto.status === 'cancelled';
  const stageIds = timeline.graph?.stages.map((stage) => stage.id) ?? [];

  return (
    <article class="session" aria-labelledby="session-title" data-version={version}>
      <header class="session-head">
        <h1 id="session-title">{dto.task ?? dto.sessionId}</h1>
        <dl class="facts">
          <div>
            <dt>Status</dt>
            <dd>
              <span class={`badge status-${dto.status}`} data-testid="session-status">
                {dto.status}
              </span>
              {dto.running && <span class="badge running-here">running here</span>}
            </dd>
          </div>
          <div>
            <dt>Stage</dt>
            <dd>{dto.activeStage?.stageId ?? dto.nextStage?.stageId ?? dto.lastStageId ?? '—'}</dd>
          </div>
          <div>
            <dt>Mode</dt>
            <dd>{dto.mode ?? timeline.mode ?? '—'}</dd>
          </div>
          <div>
            <dt>Tokens</dt>
            <dd>
              {formatTokens(dto.tokens.input)} in / {formatTokens(dto.tokens.output)} out
            </dd>
          </div>
          <div>
            <dt>Cost</dt>
            <dd data-testid="session-cost">{formatCost(dto.cost, 'no prices configured')}</dd>
          </div>
          <div>
            <dt>Events</dt>
            <dd data-testid="event-count">{timeline.eventCount}</dd>
          </div>
          <div>
            <dt>Workspace</dt>
            <dd class="mono small">{dto.workspace ?? '—'}</dd>
          </div>
          <div>
            <dt>Id</dt>
            <dd class="mono small">{dto.sessionId}</dd>
          </div>
        </dl>
        {/* A finished session says how it failed in its outcome, just below. */}
        {dto.failure && !(final && caughtUp) && (
          <p class="error">
            Failed ({dto.failure.category}): {dto.failure.message}
          </p>
        )}
        {timeline.forkedFrom !== null && (
          <p>
            Forked from{' '}
            <a class="mono" href={hrefOf({ page: 'session', sessionId: timeline.forkedFrom })}>
              {timeline.forkedFrom}
            </a>
            {' · '}
            <a
              href={hrefOf({ page: 'compare', a: timeline.forkedFrom, b: dto.sessionId })}
              data-testid="compare-with-parent"
            >
              Compare with parent
            </a>
          </p>
        )}
        <SessionControls session={dto} onChanged={session.refresh} />
      </header>

      {final && caughtUp && (
        <OutcomeHeader session={dto} outcome={outcome} onChanged={session.refresh} />
      )}

      {pending.length > 0 && (
        <section class="panel approvals" aria-labelledby="pending-title">
          <h2 id="pending-title">Waiting for you ({pending.length})</h2>
          {pending.map((call) => (
            <ApprovalCard
              key={call.callId}
              sessionId={dto.sessionId}
              workspace={dto.workspace}
              call={call}
              change={proposedChange(timeline, call)}
              alwaysAllow={
                serverDetails.state.status === 'ready'
                  ? (serverDetails.state.value.get(call.callId)?.alwaysAllow ?? null)
                  : null
              }
              interrupted={
                serverDetails.state.status === 'ready'
                  ? (serverDetails.state.value.get(call.callId)?.interrupted ?? null)
                  : null
              }
              onDecided={session.refresh}
            />
          ))}
        </section>
      )}

      <div class="columns">
        <section
          class="panel timeline-panel"
          aria-labelledby="timeline-title"
          aria-busy={!caughtUp}
        >
          <h2 id="timeline-title">Timeline</h2>
          {!caughtUp && historyError === null && <Loading what="events" />}
          {historyError !== null && (
            <Failure error={historyError} title="The events could not be read." />
          )}
          {caughtUp && timeline.eventCount === 0 && <p class="muted">No events yet.</p>}
          {caughtUp && (
            <div data-testid="timeline" data-rendered="true">
              <TimelineView
                sections={timeline.sections}
                now={now}
                live={live}
                sessionId={props.sessionId}
              />
            </div>
          )}
        </section>
        <aside class="side">
          <WorkflowGraphView
            graph={timeline.graph}
            currentStageId={final ? null : (dto.activeStage?.stageId ?? timeline.currentStageId)}
            reworkCycles={timeline.reworkCycles}
            sections={timeline.sections}
          />
          <StageCharts sections={timeline.sections} now={now} />
          {!final && <RedirectControl session={dto} graph={timeline.graph} />}
          <RouterPanel sessionId={dto.sessionId} stages={stageIds} final={final} />
          {!final && (
            <GrantsPanel sessionId={dto.sessionId} stageId={dto.activeStage?.stageId ?? null} />
          )}
          {/* A finished session lists its real changes in the outcome above. */}
          {!final && <FileChanges changes={timeline.fileChanges} />}
        </aside>
      </div>
    </article>
  );
}

import { visibleText } from '../../../src/core/base/visible-text.js';
import type { GetEvalResponse } from '../../../src/interfaces/protocol/eval-report-dto.js';
import { ApiError } from '../api.js';
import { formatCost, formatDateTime, formatDuration, formatTime, formatTokens } from '../format.js';
import { hrefOf } from '../route.js';
import { useConnection } from '../session-context.js';
import { EvalModelTable } from './eval-model-table.js';
import { Empty, Failure, Loading, useAsync } from './states.js';

/** `#/evals/<id>`: one eval run, per model and per run, each run linking to its session. */
export function EvalPage(props: { evalId: string }) {
  const { api } = useConnection();
  const report = useAsync(() => api.evalRun(props.evalId), [api, props.evalId]);
  if (report.state.status === 'loading') return <Loading what="the eval run" />;
  if (report.state.status === 'failed') {
    const error = report.state.error;
    if (error instanceof ApiError && error.code === 'eval_not_found')
      return (
        <Empty>
          <h1>Eval run not found</h1>
          <p>
            No eval run <code>{props.evalId}</code> was saved for this store.{' '}
            <a href={hrefOf({ page: 'evals' })}>See all eval runs</a>.
          </p>
        </Empty>
      );
    return <Failure error={error} retry={report.reload} />;
  }
  return <EvalReport report={report.state.value} />;
}

function EvalReport(props: { report: GetEvalResponse }) {
  const { report } = props;
  return (
    <article aria-labelledby="eval-title">
      <h1 id="eval-title">
        Eval run of {report.suite}
        <span class="muted small">
          {' '}
          {formatDateTime(report.startedAt)} to {formatTime(report.finishedAt)}
        </span>
      </h1>
      {report.from !== undefined && (
        <p>
          Every run is a fork of{' '}
          <a href={hrefOf({ page: 'session', sessionId: report.from.sessionId })}>
            {report.from.sessionId}
          </a>{' '}
          at {report.from.at}.
        </p>
      )}
      <EvalModelTable models={report.models} label="Models" />
      <h2>Runs</h2>
      <div class="table-wrap">
        <table class="eval-runs" aria-label="Runs">
          <thead>
            <tr>
              <th scope="col">Model</th>
              <th scope="col">Task</th>
              <th scope="col">Result</th>
              <th scope="col">Outcome</th>
              <th scope="col">Tokens (in / out)</th>
              <th scope="col">Cost</th>
              <th scope="col">Time</th>
              <th scope="col">Approvals that would have been asked</th>
              <th scope="col">Policy blocks</th>
              <th scope="col">Replays</th>
              <th scope="col">Session</th>
            </tr>
          </thead>
          <tbody>
            {report.runs.map((run) => (
              <tr key={`${run.model}/${run.task}/${run.repeat}`} data-testid="eval-run-row">
                <td class="mono">{run.model}</td>
                <td>
                  {run.task}
                  {run.repeat > 1 ? ` #${run.repeat}` : ''}
                  {run.workspaceGit && (
                    <span class="muted small mono" title={run.workspaceGit.repository}>
                      {' '}
                      at {run.workspaceGit.ref} = {run.workspaceGit.commit.slice(0, 12)}
                    </span>
                  )}
                </td>
                <td>
                  <span class={`badge ${run.passed ? 'status-completed' : 'status-failed'}`}>
                    {run.passed ? 'passed' : 'failed'}
                  </span>
                  {run.failures.length > 0 && (
                    <span class="small"> {visibleText(run.failures.join('; '))}</span>
                  )}
                </td>
                <td>{run.status}</td>
                <td>
                  {formatTokens(run.tokens.input)} / {formatTokens(run.tokens.output)}
                </td>
                <td>{formatCost(run.cost)}</td>
                <td>{formatDuration(run.durationMs)}</td>
                <td>{run.approvalsWouldAsk}</td>
                <td>{run.policyBlocks}</td>
                <td>{run.replays ? 'yes' : 'DIVERGES'}</td>
                <td>
                  {run.inStore ? (
                    <a class="mono" href={hrefOf({ page: 'session', sessionId: run.sessionId })}>
                      {run.sessionId}
                    </a>
                  ) : (
                    <span class="mono muted" title="not in this store">
                      {run.sessionId}
                    </span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </article>
  );
}

import { useState } from 'preact/hooks';
import type { SessionDto } from '../../../src/interfaces/protocol/session-dto.js';
import { visibleText } from '../../../src/core/base/visible-text.js';
import { describeError } from '../api.js';
import { formatCost, formatTokens } from '../format.js';
import type { SessionOutcome } from '../model/session-outcome.js';
import { useConnection } from '../session-context.js';
import { RecordedChangeView } from './recorded-diff-view.js';
import { standingChanges } from '../model/standing-changes.js';
import { Failure, Loading, useAsync } from './states.js';

/**
 * What a finished session came to, first on its page: the result, the checks, the files it
 * changed with their real diffs (commands' changes included, from `GET .../diff`), tokens and
 * cost; and an Undo of those changes (`POST .../undo`, as `correx undo`).
 */
export function OutcomeHeader(props: {
  session: SessionDto;
  outcome: SessionOutcome;
  onChanged: () => void;
}) {
  const { api } = useConnection();
  const { session, outcome } = props;
  const diff = useAsync(
    () => api.sessionDiff(session.sessionId),
    [api, session.sessionId, session.lastSequence],
  );
  const [undoing, setUndoing] = useState(false);
  const [undoMessage, setUndoMessage] = useState<string | null>(null);
  const [undoRefusal, setUndoRefusal] = useState<{ message: string; files: string[] } | null>(null);
  const result = outcome.result;
  const checks = [...outcome.checks.values()];
  const failedChecks = checks.filter((check) => !check.passed);
  // An undone change is no longer listed as a change: it is said under the undo that took it back.
  const { standing: changes, undone } = standingChanges(
    diff.state.status === 'ready' ? diff.state.value.changes : [],
    outcome.restores,
  );
  const files = [...new Set(changes.flatMap((change) => change.files.map((file) => file.path)))];

  const undo = async () => {
    if (
      !window.confirm(
        `Undo every change this session recorded (${files.length} file(s))? Files changed outside correx since stop the undo and nothing is changed.`,
      )
    )
      return;
    setUndoing(true);
    setUndoMessage(null);
    setUndoRefusal(null);
    try {
      const answer = await api.undo(session.sessionId, {});
      if ('error' in answer)
        setUndoRefusal({
          message: 'Nothing was undone: these files changed outside correx since.',
          files: [
            ...answer.changedOutside,
            ...answer.missingPreimages.map((path) => `${path} (earlier bytes not kept)`),
            ...answer.outsideWorkspace.map(
              (path) => `${path} (no longer inside the workspace: a folder on its way is a link)`,
            ),
          ],
        });
      else
        setUndoMessage(
          answer.outcome === 'nothing'
            ? 'Nothing to undo: the files already are as before the session.'
            : `Undone: ${answer.files.length} file(s) restored, recorded as event #${answer.event?.sequence ?? '?'}.`,
        );
      props.onChanged();
      diff.refresh();
    } catch (caught) {
      setUndoRefusal({ message: describeError(caught), files: [] });
    } finally {
      setUndoing(false);
    }
  };

  return (
    <section class="panel outcome" aria-labelledby="outcome-title" data-testid="outcome">
      <h2 id="outcome-title">
        Outcome{' '}
        <span class={`badge status-${session.status}`} data-testid="outcome-result">
          {session.status}
        </span>
      </h2>
      {result?.status === 'completed' && (
        <p data-testid="outcome-summary">
          {result.summary ?? 'Completed.'}
          {result.finalStageId && <span class="muted"> (ended after {result.finalStageId})</span>}
        </p>
      )}
      {result?.status === 'failed' && (
        <p class="error" data-testid="outcome-summary">
          Failed ({result.category}): {result.message}
        </p>
      )}
      {result?.status === 'cancelled' && (
        <p class="error" data-testid="outcome-summary">
          Cancelled by {result.by}
          {result.reason ? `: ${result.reason}` : ''}
        </p>
      )}
      <dl class="facts outcome-facts">
        <div>
          <dt>Checks</dt>
          <dd data-testid="outcome-checks">
            {checks.length === 0 ? (
              <span class="muted">
                {outcome.detected.length === 0
                  ? 'none detected'
                  : `none ran (${outcome.detected.map((check) => check.name).join(', ')} detected)`}
              </span>
            ) : (
              <ul class="check-list">
                {checks.map((check) => (
                  <li key={check.name} class={check.passed ? 'check-passed' : 'check-failed'}>
                    <span class={`badge ${check.passed ? 'outcome-completed' : 'outcome-failed'}`}>
                      {check.passed ? 'passed' : 'failed'}
                    </span>{' '}
                    <strong>{visibleText(check.name)}</strong>{' '}
                    <code class="small">$ {visibleText(check.command)}</code>
                    {!check.passed && (
                      <span class="muted">
                        {' '}
                        {check.exitCode === null ? check.outcome : `exit ${check.exitCode}`} in{' '}
                        {check.stageId}
                      </span>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </dd>
        </div>
        <div>
          <dt>Tokens</dt>
          <dd data-testid="outcome-tokens">
            {formatTokens(session.tokens.input)} in / {formatTokens(session.tokens.output)} out
          </dd>
        </div>
        <div>
          <dt>Cost</dt>
          <dd data-testid="outcome-cost">
            {session.cost === null ? (
              <span class="muted">no prices configured</span>
            ) : (
              formatCost(session.cost)
            )}
          </dd>
        </div>
      </dl>
      {failedChecks.length > 0 && (
        <p class="error">
          {failedChecks.length} check(s) failed:{' '}
          {failedChecks.map((check) => check.name).join(', ')}
        </p>
      )}
      <div class="outcome-files">
        <h3>
          Files changed ({files.length})
          {files.length > 0 && (
            <button
              type="button"
              class="deny undo"
              disabled={undoing || session.running}
              onClick={() => void undo()}
            >
              Undo these changes
            </button>
          )}
        </h3>
        {undoMessage && (
          <p class="notice good" role="status" data-testid="undo-result">
            {undoMessage}
          </p>
        )}
        {undoRefusal && (
          <div class="error" role="alert" data-testid="undo-refused">
            <p>{undoRefusal.message}</p>
            {undoRefusal.files.length > 0 && (
              <ul>
                {undoRefusal.files.map((path) => (
                  <li key={path} class="mono">
                    {visibleText(path)}
                  </li>
                ))}
              </ul>
            )}
          </div>
        )}
        {diff.state.status === 'loading' && <Loading what="the changes" />}
        {diff.state.status === 'failed' && <Failure error={diff.state.error} retry={diff.reload} />}
        {undone.map(({ restore, changes: taken }) => (
          <p class="notice" data-testid="undone-changes" key={restore.sequence}>
            Undone by {visibleText(restore.by)} (event #{restore.sequence}):{' '}
            {taken.length === 0
              ? `${restore.files.length} file(s) restored`
              : `${taken.length} recorded change(s) taken back, ${restore.files.length} file(s) restored`}{' '}
            to how they were
            {restore.toSequence === 0
              ? ' before the session'
              : ` after event #${restore.toSequence}`}
            :{' '}
            {restore.files.map((path, index) => (
              <span key={path}>
                {index > 0 && ', '}
                <span class="mono">{visibleText(path)}</span>
              </span>
            ))}
          </p>
        ))}
        {diff.state.status === 'ready' && changes.length === 0 && (
          <p class="muted">
            {undone.length > 0
              ? 'No recorded change stands in the workspace now.'
              : 'This session recorded no change to its workspace.'}
          </p>
        )}
        {changes.length > 0 && (
          <ol class="recorded-changes" aria-label="Recorded changes">
            {changes.map((change) => (
              <RecordedChangeView key={`${change.sequence}`} change={change} />
            ))}
          </ol>
        )}
      </div>
    </section>
  );
}

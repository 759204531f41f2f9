import { hrefOf } from '../route.js';
import { formatDateTime } from '../format.js';
import { useConnection } from '../session-context.js';
import { EvalModelTable } from './eval-model-table.js';
import { Empty, Failure, Loading, useAsync } from './states.js';

/** `#/evals`: the eval runs `correx eval run` saved for this store, newest first. */
export function EvalsPage() {
  const { api } = useConnection();
  const list = useAsync(() => api.evals(), [api]);
  return (
    <section aria-labelledby="evals-title">
      <div class="page-head">
        <h1 id="evals-title">Eval runs</h1>
      </div>
      {list.state.status === 'loading' && <Loading what="eval runs" />}
      {list.state.status === 'failed' && <Failure error={list.state.error} retry={list.reload} />}
      {list.state.status === 'ready' && list.state.value.evals.length === 0 && (
        <Empty>
          <p>No eval run of this store's sessions has been saved yet.</p>
          <p>
            <code>correx eval run builtin --model &lt;profile&gt;</code> runs one; its report is
            saved under <code>$CORREX_HOME/evals</code> and shown here.
          </p>
        </Empty>
      )}
      {list.state.status === 'ready' &&
        list.state.value.evals.map((run) => (
          <section class="panel eval-run" key={run.id} aria-labelledby={`eval-${run.id}`}>
            <h2 id={`eval-${run.id}`}>
              <a href={hrefOf({ page: 'eval', evalId: run.id })}>
                {run.suite}, {formatDateTime(run.startedAt)}
              </a>{' '}
              <span class="muted small">
                {run.runs} runs
                {run.from === undefined ? '' : `, from ${run.from.sessionId}@${run.from.at}`}
              </span>
            </h2>
            <EvalModelTable models={run.models} label={`Models of eval run ${run.id}`} />
          </section>
        ))}
      {list.state.status === 'ready' && list.state.value.unreadable.length > 0 && (
        <p class="error">
          Saved files that are not eval reports:{' '}
          {list.state.value.unreadable.map((file) => `${file.file} (${file.reason})`).join(', ')}
        </p>
      )}
    </section>
  );
}

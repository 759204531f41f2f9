import { visibleText } from '../../../src/core/base/visible-text.js';
import type {
  CompareResponse,
  ComparedSideDto,
} from '../../../src/interfaces/protocol/session-comparison-dto.js';
import { ApiError } from '../api.js';
import { formatCost, formatDuration, formatTokens } from '../format.js';
import { hrefOf } from '../route.js';
import { useConnection } from '../session-context.js';
import { Empty, Failure, Loading, useAsync } from './states.js';

const MAX_DIFF_LINES = 400;

/** `#/compare/<a>/<b>`: where two sessions first differ, then what each came to, side by side. */
export function ComparePage(props: { a: string; b: string }) {
  const { api } = useConnection();
  const comparison = useAsync(() => api.compare(props.a, props.b), [api, props.a, props.b]);
  if (comparison.state.status === 'loading') return <Loading what="the comparison" />;
  if (comparison.state.status === 'failed') {
    const error = comparison.state.error;
    if (error instanceof ApiError && error.code === 'session_not_found')
      return (
        <Empty>
          <h1>Session not found</h1>
          <p>
            {error.message}. <a href={hrefOf({ page: 'sessions' })}>See all sessions</a>.
          </p>
        </Empty>
      );
    return <Failure error={error} retry={comparison.reload} />;
  }
  return <Comparison comparison={comparison.state.value} />;
}

function Comparison(props: { comparison: CompareResponse }) {
  const { a, b, firstDifference: first, configurationDiffers, files } = props.comparison;
  const row = (name: string, cell: (side: ComparedSideDto) => string) => (
    <tr key={name}>
      <th scope="row">{name}</th>
      <td>{visibleText(cell(a))}</td>
      <td>{visibleText(cell(b))}</td>
    </tr>
  );
  return (
    <article class="compare" aria-labelledby="compare-title">
      <h1 id="compare-title">Compare sessions</h1>
      <section class="panel" aria-labelledby="first-difference-title">
        <h2 id="first-difference-title">First difference</h2>
        <p data-testid="first-difference">
          {first === null
            ? 'None: both logs record the same events (ids, times and hashes aside).'
            : `At #${first.sequence}: ${first.a ?? '(log ended)'} in a, ${first.b ?? '(log ended)'} in b${first.fields.length === 0 ? '' : ` (${first.fields.join(', ')})`}.`}
        </p>
        <p>
          Configuration:{' '}
          {configurationDiffers.length === 0
            ? 'the same'
            : `differs in ${configurationDiffers.join(', ')}`}
        </p>
      </section>
      <div class="table-wrap">
        <table class="compare-table" data-testid="compare-table">
          <caption class="sr-only">The two sessions side by side</caption>
          <thead>
            <tr>
              <th scope="col" />
              <th scope="col">
                a{' '}
                <a class="mono" href={hrefOf({ page: 'session', sessionId: a.sessionId })}>
                  {a.sessionId}
                </a>
              </th>
              <th scope="col">
                b{' '}
                <a class="mono" href={hrefOf({ page: 'session', sessionId: b.sessionId })}>
                  {b.sessionId}
                </a>
              </th>
            </tr>
          </thead>
          <tbody>
            {row('Task', (side) => side.task ?? '—')}
            {row('Models', (side) => side.models.join(', ') || '—')}
            {row('Outcome', (side) =>
              side.failure === null ? side.status : `${side.status} (${side.failure})`,
            )}
            {row(
              'Checks',
              (side) =>
                side.checks
                  .map((check) => `${check.name} ${check.passed ? 'passed' : 'failed'}`)
                  .join(', ') || '—',
            )}
            {row(
              'Files changed',
              (side) =>
                side.filesChanged
                  .map(
                    (file) =>
                      `${file.path} ${file.change}${file.added === null ? '' : ` +${file.added} −${file.removed}`}`,
                  )
                  .join(', ') || '—',
            )}
            {row(
              'Tokens',
              (side) =>
                `${formatTokens(side.tokens.input)} in / ${formatTokens(side.tokens.output)} out`,
            )}
            {row('Cost', (side) => formatCost(side.cost, 'no prices configured'))}
            {row('Approvals asked', (side) => String(side.approvalsAsked))}
            {row('Policy blocks', (side) => String(side.policyBlocks))}
            {row('Events', (side) => String(side.events))}
            {row('Time', (side) => formatDuration(side.durationMs))}
          </tbody>
        </table>
      </div>
      <section class="panel" aria-labelledby="compare-files-title">
        <h2 id="compare-files-title">Files (a → b, final contents)</h2>
        {files.length === 0 && <p class="muted">Neither session changed a file.</p>}
        {files.map((file) => (
          <figure class="diff" key={file.path} data-testid="compared-file">
            <figcaption>
              <span class="mono">{visibleText(file.path)}</span>{' '}
              <span class="muted">
                a {file.a}, b {file.b}:{' '}
                {file.same
                  ? 'same bytes'
                  : file.diff === null
                    ? 'differ (bytes not kept)'
                    : 'differ'}
              </span>
            </figcaption>
            {!file.same && file.diff !== null && (
              <pre aria-label={`Differences in ${visibleText(file.path)}, a to b`}>
                {file.diff.slice(0, MAX_DIFF_LINES).map((line, index) => (
                  <span key={index} class={diffClass(line)}>
                    {visibleText(line)}
                    {'\n'}
                  </span>
                ))}
                {file.diff.length > MAX_DIFF_LINES && (
                  <span class="muted">… {file.diff.length - MAX_DIFF_LINES} more lines</span>
                )}
              </pre>
            )}
          </figure>
        ))}
      </section>
    </article>
  );
}

function diffClass(line: string): string {
  if (line.startsWith('+')) return 'diff-add';
  if (line.startsWith('-')) return 'diff-remove';
  return 'diff-same';
}

import { visibleText } from '../../../src/core/base/visible-text.js';
import type {
  ChangeDiffDto,
  FileDiffDto,
} from '../../../src/interfaces/protocol/session-changes-dto.js';

const MAX_LINES = 400;

function lineClass(line: string): string {
  if (line.startsWith('@@')) return 'diff-hunk';
  if (line.startsWith('+')) return 'diff-add';
  if (line.startsWith('-')) return 'diff-remove';
  return 'diff-same';
}

/** One file of a recorded change: what happened to it and its unified diff (from the pre-images). */
export function RecordedFileDiff(props: { file: FileDiffDto }) {
  const { file } = props;
  const hunks = file.hunks ?? [];
  return (
    <figure class="diff" data-path={file.path}>
      <figcaption>
        <span class={`badge change-${file.change}`}>{file.change}</span>{' '}
        <span class="mono">{visibleText(file.path)}</span>
        {file.mode && (
          <span class="muted">
            {' '}
            mode {file.mode.before} → {file.mode.after}
          </span>
        )}
        {file.note && <span class="muted"> ({file.note})</span>}
      </figcaption>
      {hunks.length > 0 && (
        <pre aria-label={`Changes to ${visibleText(file.path)}`}>
          {hunks.slice(0, MAX_LINES).map((line, index) => (
            <span key={index} class={lineClass(line)}>
              {visibleText(line)}
              {'\n'}
            </span>
          ))}
          {hunks.length > MAX_LINES && (
            <span class="muted">… {hunks.length - MAX_LINES} more lines</span>
          )}
        </pre>
      )}
    </figure>
  );
}

/** A call's recorded changes: the command (or tool) that made them, then each file's diff. */
export function RecordedChangeView(props: { change: ChangeDiffDto }) {
  const { change } = props;
  return (
    <li class="recorded-change" data-call-id={change.callId}>
      <p class="change-head">
        <span class="meta mono small">#{change.sequence}</span>{' '}
        {change.command !== null ? (
          <code class="command">$ {visibleText(change.command)}</code>
        ) : (
          <strong class="mono">
            {change.tool === 'undo' ? visibleText(change.callId) : change.tool}
          </strong>
        )}
        {change.stageId && <span class="muted"> in {change.stageId}</span>}
        {change.outcome !== 'succeeded' && (
          <span class={`badge outcome-${change.outcome}`}>{change.outcome}</span>
        )}
      </p>
      {change.files.map((file) => (
        <RecordedFileDiff key={file.path} file={file} />
      ))}
    </li>
  );
}

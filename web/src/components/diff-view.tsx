import { visibleText } from '../../../src/core/base/visible-text.js';
import type { FileChange } from '../model/timeline-types.js';

const MAX_LINES = 400;

export function DiffView(props: { change: FileChange }) {
  const { change } = props;
  const lines = change.lines.slice(0, MAX_LINES);
  return (
    <figure class="diff">
      <figcaption>
        <span class="mono">{visibleText(change.path)}</span>{' '}
        <span class="muted">
          ({change.tool}
          {change.beforeKnown ? '' : '; earlier content not in the log, new text shown'})
        </span>
      </figcaption>
      <pre aria-label={`Changes to ${visibleText(change.path)}`}>
        {lines.map((line, index) => (
          <span key={index} class={`diff-${line.kind}`}>
            <span class="sr-only">
              {line.kind === 'add' ? 'added: ' : line.kind === 'remove' ? 'removed: ' : ''}
            </span>
            <span aria-hidden="true">
              {line.kind === 'add' ? '+ ' : line.kind === 'remove' ? '- ' : '  '}
            </span>
            {visibleText(line.text)}
            {'\n'}
          </span>
        ))}
        {change.lines.length > MAX_LINES && (
          <span class="muted">… {change.lines.length - MAX_LINES} more lines</span>
        )}
      </pre>
    </figure>
  );
}

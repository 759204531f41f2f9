import { visibleText } from '../../../src/core/base/visible-text.js';
import type { FileChange } from '../model/timeline-types.js';
import { DiffView } from './diff-view.js';

export function FileChanges(props: { changes: readonly FileChange[] }) {
  return (
    <section class="panel" aria-labelledby="changes-title">
      <h2 id="changes-title">File changes ({props.changes.length})</h2>
      {props.changes.length === 0 ? (
        <p class="muted">No file written yet.</p>
      ) : (
        props.changes.map((change) => (
          <details key={change.callId}>
            <summary class="mono">
              #{change.sequence} {visibleText(change.path)}
            </summary>
            <DiffView change={change} />
          </details>
        ))
      )}
    </section>
  );
}

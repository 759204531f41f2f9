import { visibleLines, visibleText } from '../../../src/core/base/visible-text.js';
import type { ArtifactBody } from '../model/artifact-item.js';

/** An artifact as what it is: a plan's steps, a review's verdict and notes, a change's summary. */
export function ArtifactView(props: { body: ArtifactBody }) {
  const { body } = props;
  switch (body.kind) {
    case 'plan':
      return (
        <div class="artifact artifact-plan">
          <p>{visibleLines(body.summary)}</p>
          <ol class="plan-steps" aria-label="Plan steps">
            {body.steps.map((step, index) => (
              <li key={index}>{visibleLines(step)}</li>
            ))}
          </ol>
          {body.files.length > 0 && (
            <ul class="plan-files" aria-label="Files the plan touches">
              {body.files.map((file) => (
                <li key={file.path}>
                  <span class="badge">{file.change}</span>{' '}
                  <span class="mono">{visibleText(file.path)}</span>
                </li>
              ))}
            </ul>
          )}
        </div>
      );
    case 'review':
      return (
        <div class="artifact artifact-review">
          <p>
            Verdict:{' '}
            <span
              class={`badge ${body.verdict === 'approved' ? 'outcome-completed' : 'outcome-failed'}`}
              data-testid="review-verdict"
            >
              {body.verdict}
            </span>
          </p>
          {body.notes.length > 0 ? (
            <ul class="review-notes" aria-label="Review notes">
              {body.notes.map((note, index) => (
                <li key={index}>{visibleLines(note)}</li>
              ))}
            </ul>
          ) : (
            <p class="muted">No notes.</p>
          )}
        </div>
      );
    case 'change':
      return (
        <div class="artifact artifact-change">
          <p>{visibleLines(body.summary)}</p>
          {body.filesChanged.length > 0 && (
            <p class="small">
              Files changed:{' '}
              {body.filesChanged.map((path, index) => (
                <span key={path}>
                  {index > 0 && ', '}
                  <span class="mono">{visibleText(path)}</span>
                </span>
              ))}
            </p>
          )}
          {body.notesAddressed.length > 0 && (
            <ul aria-label="Notes addressed">
              {body.notesAddressed.map((note, index) => (
                <li key={index}>{visibleLines(note)}</li>
              ))}
            </ul>
          )}
        </div>
      );
    case 'verification':
      return (
        <div class="artifact artifact-verification">
          <span class={`badge ${body.passed ? 'outcome-completed' : 'outcome-failed'}`}>
            {body.passed ? 'passed' : 'not passed'}
          </span>{' '}
          {visibleLines(body.summary)}
        </div>
      );
    case 'other':
      return <pre class="artifact output">{visibleLines(body.json)}</pre>;
  }
}

import { useState } from 'preact/hooks';
import type { ModelCallDto } from '../../../src/interfaces/protocol/model-call-context-dto.js';
import { describeError } from '../api.js';
import { useConnection } from '../session-context.js';

/**
 * "What it saw": one model call's context manifest, rebuilt by the server from the log
 * (`GET /api/sessions/:id/context/:call`, what `correx show --context` prints): the pack's tokens
 * against the budget, every item in it, what was left out and why, and what came in since the
 * stage's previous call. Fetched when opened; a recorded call's manifest never changes.
 */
export function ModelCallContext(props: { sessionId: string; requestId: string }) {
  const { api } = useConnection();
  const [open, setOpen] = useState(false);
  const [call, setCall] = useState<ModelCallDto | null>(null);
  const [error, setError] = useState<string | null>(null);

  const toggle = () => {
    const next = !open;
    setOpen(next);
    if (next && call === null)
      api.modelCall(props.sessionId, props.requestId).then(setCall, (caught: unknown) => {
        setError(describeError(caught));
      });
  };

  return (
    <span class="model-call-context">
      {' '}
      <button
        type="button"
        class="link"
        aria-expanded={open}
        data-testid="model-call-context"
        data-request={props.requestId}
        onClick={toggle}
      >
        {open ? 'Hide what it saw' : 'What it saw'}
      </button>
      {open && error !== null && <p class="error">{error}</p>}
      {open && error === null && call === null && <p class="muted small">Loading…</p>}
      {open && call !== null && <ManifestView call={call} />}
    </span>
  );
}

function ManifestView(props: { call: ModelCallDto }) {
  const { call } = props;
  const { manifest } = call;
  return (
    <div
      class="manifest"
      data-testid="manifest"
      aria-label={`What model call ${call.requestId} saw`}
    >
      <p class="small">
        Pack of {manifest.totalTokens} tokens of a {manifest.budgetTokens}-token budget (
        {manifest.tokenizer}); the whole request about {call.tokenEstimate}
        {call.reportedInputTokens !== null &&
          `; the model reported ${call.reportedInputTokens} input tokens`}
        .
        {call.change !== null &&
          ` Came in since the stage's previous call: ${call.change.added.length === 0 ? 'nothing' : call.change.added.join(', ')}; went out: ${call.change.dropped.length === 0 ? 'nothing' : call.change.dropped.join(', ')}.`}
      </p>
      <div class="table-wrap">
        <table data-testid="manifest-included">
          <caption>In the pack ({manifest.included.length})</caption>
          <thead>
            <tr>
              <th>Layer</th>
              <th>Kind</th>
              <th>Item</th>
              <th>Tokens</th>
              <th>Source</th>
            </tr>
          </thead>
          <tbody>
            {manifest.included.map((entry) => (
              <tr key={entry.id}>
                <td>{entry.layer}</td>
                <td>{entry.kind}</td>
                <td class="mono">{entry.id}</td>
                <td>
                  {entry.compression === 'none'
                    ? entry.tokens
                    : `${entry.tokens} of ${entry.originalTokens} (${entry.compression})`}
                </td>
                <td class="mono small">
                  {entry.source.kind} {entry.source.id}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {manifest.excluded.length > 0 && (
        <div class="table-wrap">
          <table data-testid="manifest-excluded">
            <caption>Left out ({manifest.excluded.length})</caption>
            <thead>
              <tr>
                <th>Layer</th>
                <th>Kind</th>
                <th>Item</th>
                <th>Tokens</th>
                <th>Why</th>
              </tr>
            </thead>
            <tbody>
              {manifest.excluded.map((item) => (
                <tr key={item.id}>
                  <td>{item.layer}</td>
                  <td>{item.kind}</td>
                  <td class="mono">{item.id}</td>
                  <td>{item.tokens}</td>
                  <td>
                    {item.reason === 'duplicate' && item.duplicateOf !== undefined
                      ? `duplicate of ${item.duplicateOf}`
                      : item.reason.replace('_', ' ')}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

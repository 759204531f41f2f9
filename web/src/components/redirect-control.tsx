import { useState } from 'preact/hooks';
import type { SessionDto } from '../../../src/interfaces/protocol/session-dto.js';
import { describeError } from '../api.js';
import type { WorkflowGraph } from '../model/timeline-types.js';
import { useConnection } from '../session-context.js';

/** The stages the workflow declares a move to from `stageId` (ends excluded). */
export function redirectTargets(graph: WorkflowGraph | null, stageId: string | null): string[] {
  const stage = graph?.stages.find((candidate) => candidate.id === stageId);
  return [
    ...new Set(
      (stage?.transitions ?? [])
        .map((transition) => transition.to)
        .filter((to) => !to.startsWith('end:') && to !== stageId),
    ),
  ];
}

/**
 * Move the running stage elsewhere, only along a transition its workflow declares
 * (`POST .../redirect`); the session decides, and the timeline shows what it decided.
 */
export function RedirectControl(props: { session: SessionDto; graph: WorkflowGraph | null }) {
  const { api } = useConnection();
  const current = props.session.activeStage?.stageId ?? null;
  const targets = redirectTargets(props.graph, current);
  const [to, setTo] = useState('');
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (current === null || targets.length === 0) return null;
  const chosen = targets.includes(to) ? to : targets[0]!;

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setMessage(null);
    try {
      const trimmed = reason.trim();
      await api.redirect(props.session.sessionId, {
        to: chosen,
        ...(trimmed === '' ? {} : { reason: trimmed }),
      });
      setMessage(`Redirect to ${chosen} requested; the session decides (see the timeline).`);
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="panel" aria-labelledby="redirect-title">
      <h2 id="redirect-title">Redirect</h2>
      <form class="redirect" onSubmit={(event) => void submit(event)}>
        <label for="redirect-to">
          From {current} to <span class="muted">(as the workflow allows)</span>
        </label>
        <select id="redirect-to" value={chosen} onChange={(e) => setTo(e.currentTarget.value)}>
          {targets.map((target) => (
            <option key={target} value={target}>
              {target}
            </option>
          ))}
        </select>
        <label for="redirect-reason">Reason (optional)</label>
        <input
          id="redirect-reason"
          value={reason}
          maxLength={2000}
          onInput={(e) => setReason(e.currentTarget.value)}
        />
        <button type="submit" disabled={busy}>
          Redirect
        </button>
      </form>
      {message && (
        <p class="notice" role="status">
          {message}
        </p>
      )}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

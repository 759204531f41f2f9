import { useState } from 'preact/hooks';
import type { ReplayVerifyResponse } from '../../../src/interfaces/protocol/rest-dto.js';
import type { SessionDto } from '../../../src/interfaces/protocol/session-dto.js';
import { describeError } from '../api.js';
import { useConnection } from '../session-context.js';

/**
 * Pause, resume, cancel, retry and replay verification, with each result said in words; a
 * session whose workflow ended takes a follow-up request (a new turn, as `correx continue`).
 */
export function SessionControls(props: { session: SessionDto; onChanged: () => void }) {
  const { api } = useConnection();
  const { session } = props;
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [replay, setReplay] = useState<ReplayVerifyResponse | null>(null);
  const final =
    session.status === 'completed' || session.status === 'failed' || session.status === 'cancelled';

  const act = async (action: 'pause' | 'resume' | 'cancel' | 'retry') => {
    if (
      action === 'cancel' &&
      !window.confirm('Cancel this session? A running model or tool call is stopped.')
    )
      return;
    setBusy(true);
    setError(null);
    setMessage(null);
    try {
      // Recorded as the identity the server authenticates.
      const result = await api.lifecycle(session.sessionId, action, {});
      setMessage(
        result.refused
          ? `The session refused to ${action} (see the timeline).`
          : action === 'retry'
            ? 'Retry recorded: the session runs its failed stage again.'
            : `${action} recorded.`,
      );
      props.onChanged();
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setBusy(false);
    }
  };

  const [followUp, setFollowUp] = useState('');
  const [followUpWorkflow, setFollowUpWorkflow] = useState('');
  const sendFollowUp = async (event: Event) => {
    event.preventDefault();
    const text = followUp.trim();
    if (text === '') return;
    setBusy(true);
    setError(null);
    setMessage(null);
    try {
      const result = await api.continueSession(session.sessionId, {
        text,
        ...(followUpWorkflow.trim() === '' ? {} : { workflow: followUpWorkflow.trim() }),
      });
      setFollowUp('');
      setMessage(`Turn ${result.turn} recorded: the session runs again in its workspace.`);
      props.onChanged();
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setBusy(false);
    }
  };

  const verify = async () => {
    setBusy(true);
    setError(null);
    setReplay(null);
    try {
      setReplay(await api.replayVerify(session.sessionId));
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="controls" role="group" aria-label="Session controls">
      <button
        type="button"
        disabled={busy || session.status !== 'running'}
        onClick={() => void act('pause')}
      >
        Pause
      </button>
      <button
        type="button"
        disabled={busy || session.status !== 'paused'}
        onClick={() => void act('resume')}
      >
        Resume
      </button>
      {session.status === 'failed' && (
        <button
          type="button"
          title="Run the failed stage again in a new attempt, as correx resume --retry does"
          disabled={busy}
          onClick={() => void act('retry')}
        >
          Retry
        </button>
      )}
      <button
        type="button"
        class="deny"
        disabled={busy || final}
        onClick={() => void act('cancel')}
      >
        Cancel
      </button>
      <button type="button" disabled={busy} onClick={() => void verify()}>
        Verify replay
      </button>
      {final && (
        <form class="follow-up" onSubmit={(event) => void sendFollowUp(event)}>
          <label for="follow-up-text">
            <strong>Follow-up</strong> a new turn in this session and its workspace
          </label>
          <textarea
            id="follow-up-text"
            rows={3}
            value={followUp}
            placeholder="now also…"
            onInput={(event) => setFollowUp((event.target as HTMLTextAreaElement).value)}
          />
          <label for="follow-up-workflow">Workflow (empty: the last turn's; e.g. chat)</label>
          <input
            id="follow-up-workflow"
            value={followUpWorkflow}
            onInput={(event) => setFollowUpWorkflow((event.target as HTMLInputElement).value)}
          />
          <button type="submit" disabled={busy || followUp.trim() === ''}>
            Send follow-up
          </button>
        </form>
      )}
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
      {replay && (
        <p class={replay.ok ? 'notice good' : 'error'} role="status" data-testid="replay-result">
          {replay.ok
            ? `Replay verified: ${replay.events} events re-derived byte for byte.`
            : `Replay diverged at event #${replay.divergence.sequence}: ${replay.divergence.reason}`}
        </p>
      )}
    </div>
  );
}

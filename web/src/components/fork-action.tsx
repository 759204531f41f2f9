import { useState } from 'preact/hooks';
import { describeError } from '../api.js';
import { hrefOf } from '../route.js';
import { useConnection } from '../session-context.js';

/**
 * "Fork from here": forks the session at `at` (`stage:<id>#<attempt>`, `call:<callId>`) through
 * `POST /api/sessions/:id/fork`, optionally onto another model profile, and opens the fork,
 * which the server has started. A refusal (a workspace it cannot rebuild...) is shown in place.
 */
export function ForkAction(props: { sessionId: string; at: string; what: string }) {
  const { api } = useConnection();
  const [open, setOpen] = useState(false);
  const [profiles, setProfiles] = useState<readonly string[]>([]);
  const [profile, setProfile] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const show = () => {
    setOpen(true);
    api.options().then(
      (options) => setProfiles(options.modelProfiles),
      () => setProfiles([]),
    );
  };
  const fork = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const forked = await api.forkSession(props.sessionId, {
        at: props.at,
        ...(profile === '' ? {} : { modelProfile: profile }),
      });
      window.location.hash = hrefOf({ page: 'session', sessionId: forked.sessionId });
    } catch (caught) {
      setError(describeError(caught));
      setBusy(false);
    }
  };

  if (!open)
    return (
      <button
        type="button"
        class="link fork-action"
        data-testid="fork-from-here"
        data-at={props.at}
        title={`Fork this session ${props.what}: a new session with the events up to there, its workspace rebuilt as it was then`}
        onClick={show}
      >
        Fork from here
      </button>
    );
  return (
    <form class="fork-form" aria-label={`Fork ${props.what}`} onSubmit={fork}>
      <span class="small">Fork {props.what}</span>{' '}
      <label class="small">
        Model{' '}
        <select
          value={profile}
          onChange={(event) => setProfile(event.currentTarget.value)}
          disabled={busy}
        >
          <option value="">as the parent</option>
          {profiles.map((id) => (
            <option key={id} value={id}>
              {id}
            </option>
          ))}
        </select>
      </label>{' '}
      <button type="submit" disabled={busy}>
        {busy ? 'Forking…' : 'Fork'}
      </button>{' '}
      <button type="button" class="link" disabled={busy} onClick={() => setOpen(false)}>
        Cancel
      </button>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

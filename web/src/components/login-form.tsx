import { useState } from 'preact/hooks';

export function LoginForm(props: {
  onLogin: (token: string) => Promise<string | null>;
  notice: string | null;
}) {
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(props.notice);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    if (token.trim() === '') return setError('Paste the server token first.');
    setBusy(true);
    setError(await props.onLogin(token.trim()));
    setBusy(false);
  };
  return (
    <main id="main" class="login">
      <h1>correx</h1>
      <form onSubmit={submit} aria-describedby="login-help">
        <label for="token">Server token</label>
        <input
          id="token"
          name="token"
          type="password"
          autocomplete="off"
          spellcheck={false}
          value={token}
          onInput={(event) => setToken(event.currentTarget.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'login-error' : undefined}
          autoFocus
        />
        <p id="login-help" class="help">
          The token is in the file that <code>correx serve</code> names on its{' '}
          <code>bearer token:</code> line: by default <code>~/.correx/server-token</code> (
          <code>$CORREX_HOME/server-token</code> when <code>CORREX_HOME</code> is set); paste its
          content, e.g. from <code>cat ~/.correx/server-token</code>. A server started with{' '}
          <code>--token</code> or <code>$CORREX_SERVER_TOKEN</code> takes that token instead. This
          browser keeps it for every tab of this address until you log out; it is sent in a header,
          never in a URL.
        </p>
        {error && (
          <p id="login-error" class="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {busy ? 'Checking…' : 'Log in'}
        </button>
      </form>
    </main>
  );
}

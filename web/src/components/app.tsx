import { useEffect, useMemo, useState } from 'preact/hooks';
import { ApiError, createApi, describeError } from '../api.js';
import { hrefOf, useRoute } from '../route.js';
import { ConnectionContext, type Connection } from '../session-context.js';
import { createSocketHub, type SocketState } from '../socket-hub.js';
import { ApprovalsPage } from './approvals-page.js';
import { ComparePage } from './compare-page.js';
import { EvalPage } from './eval-page.js';
import { EvalsPage } from './evals-page.js';
import { LoginForm } from './login-form.js';
import { NewSessionPage } from './new-session-page.js';
import { SessionPage } from './session-page.js';
import { SessionsPage } from './sessions-page.js';

/**
 * The token lives in localStorage, so every tab of this server's address shares one login until
 * Log out (or a refusal) removes it; it is never put in a URL or a log.
 */
const TOKEN_KEY = 'correx.token';

export function App() {
  const [token, setToken] = useState<string | null>(() => localStorage.getItem(TOKEN_KEY));
  const [notice, setNotice] = useState<string | null>(null);

  const logIn = async (candidate: string): Promise<string | null> => {
    try {
      await createApi(candidate).listSessions();
    } catch (error) {
      return error instanceof ApiError && error.code === 'unauthorized'
        ? 'That token was not accepted. Copy it again from the file named on the "bearer token:" line that correx serve printed (by default ~/.correx/server-token, or $CORREX_HOME/server-token).'
        : describeError(error);
    }
    localStorage.setItem(TOKEN_KEY, candidate);
    setNotice(null);
    setToken(candidate);
    return null;
  };
  const logOut = (message: string | null) => {
    localStorage.removeItem(TOKEN_KEY);
    setNotice(message);
    setToken(null);
  };

  if (token === null) return <LoginForm onLogin={logIn} notice={notice} />;
  return <Shell key={token} token={token} onLogOut={logOut} />;
}

function Shell(props: { token: string; onLogOut: (message: string | null) => void }) {
  const route = useRoute();
  const [socketState, setSocketState] = useState<SocketState>('connecting');
  const connection = useMemo<Connection>(() => {
    const hub = createSocketHub(props.token);
    return {
      api: createApi(props.token),
      hub,
      rejected: (message) => props.onLogOut(message),
    };
  }, [props.token]);
  useEffect(() => {
    const off = connection.hub.onState(setSocketState);
    setSocketState(connection.hub.state());
    return () => {
      off();
      connection.hub.close();
    };
  }, [connection]);
  const value: Connection = connection;

  return (
    <ConnectionContext.Provider value={value}>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href={hrefOf({ page: 'sessions' })}>
          correx
        </a>
        <nav aria-label="Main">
          <a
            href={hrefOf({ page: 'sessions' })}
            aria-current={route.page === 'sessions' ? 'page' : undefined}
          >
            Sessions
          </a>
          <a
            href={hrefOf({ page: 'approvals' })}
            aria-current={route.page === 'approvals' ? 'page' : undefined}
          >
            Approvals
          </a>
          <a
            href={hrefOf({ page: 'evals' })}
            aria-current={route.page === 'evals' || route.page === 'eval' ? 'page' : undefined}
          >
            Evals
          </a>
          <a
            href={hrefOf({ page: 'new' })}
            aria-current={route.page === 'new' ? 'page' : undefined}
          >
            New session
          </a>
        </nav>
        <span
          class={`live live-${socketState}`}
          role="status"
          aria-label={`Live updates: ${socketState}`}
        >
          {socketState === 'open'
            ? 'live'
            : socketState === 'connecting'
              ? 'connecting…'
              : 'offline, retrying'}
        </span>
        <button type="button" class="link" onClick={() => props.onLogOut(null)}>
          Log out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        {route.page === 'sessions' && <SessionsPage />}
        {route.page === 'session' && (
          <SessionPage key={route.sessionId} sessionId={route.sessionId} />
        )}
        {route.page === 'compare' && (
          <ComparePage key={`${route.a}/${route.b}`} a={route.a} b={route.b} />
        )}
        {route.page === 'evals' && <EvalsPage />}
        {route.page === 'eval' && <EvalPage key={route.evalId} evalId={route.evalId} />}
        {route.page === 'approvals' && <ApprovalsPage />}
        {route.page === 'new' && <NewSessionPage />}
      </main>
    </ConnectionContext.Provider>
  );
}

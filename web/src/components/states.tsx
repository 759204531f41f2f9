import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, describeError } from '../api.js';
import { useConnection } from '../session-context.js';

export function Loading(props: { what: string }) {
  return (
    <p class="state loading" role="status" aria-live="polite">
      <span class="spinner" aria-hidden="true" /> Loading {props.what}…
    </p>
  );
}

export function Empty(props: { children: ComponentChildren }) {
  return <div class="state empty">{props.children}</div>;
}

export function Failure(props: { error: unknown; retry?: () => void; title?: string }) {
  const unreachable = props.error instanceof ApiError && props.error.status === 0;
  return (
    <div class="state failure" role="alert">
      <p>
        <strong>
          {props.title ?? (unreachable ? 'The server is not reachable.' : 'Something went wrong.')}
        </strong>{' '}
        {describeError(props.error)}
      </p>
      {props.retry && (
        <button type="button" onClick={props.retry}>
          Try again
        </button>
      )}
    </div>
  );
}

export type AsyncState<T> =
  | { readonly status: 'loading' }
  | { readonly status: 'ready'; readonly value: T }
  | { readonly status: 'failed'; readonly error: unknown };

/**
 * Loads a value, again on `reload()` and every `pollMs` while mounted. A refused token sends the
 * person back to the login form instead of showing an error on every panel.
 */
export function useAsync<T>(load: () => Promise<T>, deps: unknown[], pollMs?: number) {
  const { rejected } = useConnection();
  const [state, setState] = useState<AsyncState<T>>({ status: 'loading' });
  const generation = useRef(0);
  const run = useCallback(async (quiet: boolean) => {
    const mine = ++generation.current;
    if (!quiet) setState({ status: 'loading' });
    try {
      const value = await load();
      if (mine === generation.current) setState({ status: 'ready', value });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'unauthorized')
        return rejected('The server no longer accepts this token. Log in again.');
      if (
        mine === generation.current &&
        !(quiet && error instanceof ApiError && error.status === 0)
      )
        setState({ status: 'failed', error });
    }
  }, deps);
  useEffect(() => {
    void run(false);
    if (pollMs === undefined) return undefined;
    const timer = setInterval(() => void run(true), pollMs);
    return () => clearInterval(timer);
  }, [run]);
  return { state, reload: () => void run(false), refresh: () => void run(true) };
}

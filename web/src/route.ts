import { useEffect, useState } from 'preact/hooks';

export type Route =
  | { readonly page: 'sessions' }
  | { readonly page: 'session'; readonly sessionId: string }
  | { readonly page: 'compare'; readonly a: string; readonly b: string }
  | { readonly page: 'evals' }
  | { readonly page: 'eval'; readonly evalId: string }
  | { readonly page: 'approvals' }
  | { readonly page: 'new' };

/**
 * Routes live in the URL fragment (never the token): `#/`, `#/sessions/<id>`, `#/compare/<a>/<b>`,
 * `#/evals`, `#/evals/<id>`, `#/approvals`, `#/new`.
 */
export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, '');
  const session = /^\/sessions\/(.+)$/.exec(path);
  if (session) return { page: 'session', sessionId: decodeURIComponent(session[1]!) };
  const compare = /^\/compare\/([^/]+)\/([^/]+)$/.exec(path);
  if (compare)
    return {
      page: 'compare',
      a: decodeURIComponent(compare[1]!),
      b: decodeURIComponent(compare[2]!),
    };
  const evalRun = /^\/evals\/(.+)$/.exec(path);
  if (evalRun) return { page: 'eval', evalId: decodeURIComponent(evalRun[1]!) };
  if (path === '/evals') return { page: 'evals' };
  if (path === '/approvals') return { page: 'approvals' };
  if (path === '/new') return { page: 'new' };
  return { page: 'sessions' };
}

export function hrefOf(route: Route): string {
  switch (route.page) {
    case 'session':
      return `#/sessions/${encodeURIComponent(route.sessionId)}`;
    case 'compare':
      return `#/compare/${encodeURIComponent(route.a)}/${encodeURIComponent(route.b)}`;
    case 'evals':
      return '#/evals';
    case 'eval':
      return `#/evals/${encodeURIComponent(route.evalId)}`;
    case 'approvals':
      return '#/approvals';
    case 'new':
      return '#/new';
    case 'sessions':
      return '#/';
  }
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(window.location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseRoute(window.location.hash));
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}

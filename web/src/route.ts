import { useEffect, useState } from 'preact/hooks';

export type Route =
  | { readonly page: 'sessions' }
  | { readonly page: 'session'; readonly sessionId: string }
  | { readonly page: 'approvals' }
  | { readonly page: 'new' };

/** Routes live in the URL fragment (never the token): `#/`, `#/sessions/<id>`, `#/approvals`, `#/new`. */
export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, '');
  const session = /^\/sessions\/(.+)$/.exec(path);
  if (session) return { page: 'session', sessionId: decodeURIComponent(session[1]!) };
  if (path === '/approvals') return { page: 'approvals' };
  if (path === '/new') return { page: 'new' };
  return { page: 'sessions' };
}

export function hrefOf(route: Route): string {
  switch (route.page) {
    case 'session':
      return `#/sessions/${encodeURIComponent(route.sessionId)}`;
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

import { describe, expect, it } from 'vitest';
import { hrefOf, parseRoute, type Route } from '../../web/src/route.js';

describe('the page routes', () => {
  it('reads back every route it writes, ids with slashes and spaces included', () => {
    const routes: Route[] = [
      { page: 'sessions' },
      { page: 'session', sessionId: 'live-000001' },
      { page: 'compare', a: 'parent/1', b: 'fork 2' },
      { page: 'evals' },
      { page: 'eval', evalId: '01a23dc3-1814-7000-9ebf-bb998f501f96' },
      { page: 'approvals' },
      { page: 'new' },
    ];
    for (const route of routes) expect(parseRoute(hrefOf(route))).toEqual(route);
  });

  it('sends a compare address missing a session to the session list', () => {
    expect(parseRoute('#/compare/only-one')).toEqual({ page: 'sessions' });
  });
});

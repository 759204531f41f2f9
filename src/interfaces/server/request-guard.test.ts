import { describe, expect, it } from 'vitest';
import { createRequestGuard, parseHostHeader } from './request-guard.js';

const TOKEN = 'a-token-of-at-least-thirty-two-chars!!';

describe('the request guard', () => {
  const guard = createRequestGuard({
    token: TOKEN,
    hosts: ['127.0.0.1', 'localhost', '[::1]'],
    proxyHosts: ['correx.example'],
    port: () => 7787,
  });
  const check = (host: string, token = TOKEN) =>
    guard.check({ host, authorization: `Bearer ${token}` })?.wireCode ?? 'ok';

  it('parses a Host header strictly', () => {
    expect(parseHostHeader('localhost:7787')).toEqual({ name: 'localhost', port: 7787 });
    expect(parseHostHeader('[::1]:7787')).toEqual({ name: '[::1]', port: 7787 });
    expect(parseHostHeader('LOCALHOST')).toEqual({ name: 'localhost', port: null });
    for (const bad of [
      '[::1]x:7787',
      'localhost:',
      'localhost:7787:1',
      'local host',
      'a@b:1',
      'h:99999',
      '',
    ])
      expect(parseHostHeader(bad), bad).toBeNull();
  });

  it('answers only to its names on its own port; a proxy name with any port', () => {
    expect(check('localhost:7787')).toBe('ok');
    expect(check('[::1]:7787')).toBe('ok');
    expect(check('[::1]x:7787')).toBe('forbidden_host');
    expect(check('localhost:7788')).toBe('forbidden_host');
    expect(check('localhost')).toBe('forbidden_host');
    expect(check('correx.example')).toBe('ok');
    expect(check('correx.example:443')).toBe('ok');
    expect(check('evil.example:7787')).toBe('forbidden_host');
  });

  it('after a token change accepts only the new token', () => {
    const rotating = createRequestGuard({ token: TOKEN, hosts: ['localhost'], port: () => 1 });
    const next = 'the-next-token-of-thirty-two-chars-or-more';
    rotating.setToken(next);
    expect(
      rotating.check({ host: 'localhost:1', authorization: `Bearer ${TOKEN}` })?.wireCode,
    ).toBe('unauthorized');
    expect(rotating.check({ host: 'localhost:1', authorization: `Bearer ${next}` })).toBeNull();
  });
});

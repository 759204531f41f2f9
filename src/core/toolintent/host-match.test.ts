import { describe, expect, it } from 'vitest';
import { hostAllowed, parseUrlTarget } from './host-match.js';
import { findSedScriptIssues } from './shell-analysis/index.js';

describe('hostAllowed', () => {
  const list = ['api.example.com', '*.cdn.example.org'];
  it.each([
    ['api.example.com', true],
    ['API.example.com', false],
    ['x.api.example.com', false],
    ['api.example.com.evil.net', false],
    ['evilapi.example.com', false],
    ['a.cdn.example.org', true],
    ['a.b.cdn.example.org', true],
    ['cdn.example.org', false],
    ['evilcdn.example.org', false],
    ['api.example.com.', false],
    ['api.example.com\u0000', false],
  ])('%j → %s', (host, expected) => {
    expect(hostAllowed(host, list)).toBe(expected);
  });

  it('an empty allowlist allows nothing', () => {
    expect(hostAllowed('example.com', [])).toBe(false);
  });
});

describe('parseUrlTarget', () => {
  it('uses the WHATWG host and refuses tricks', () => {
    expect(parseUrlTarget('https://API.Example.com:8443/x?y')).toEqual({
      ok: true,
      host: 'api.example.com',
      protocol: 'https:',
    });
    expect(parseUrlTarget('https://bücher.example/')).toMatchObject({
      ok: true,
      host: 'xn--bcher-kva.example',
    });
    for (const bad of [
      'https://a@evil.net/',
      'ftp://x.com/',
      'https://evil.net\\@ok.com/',
      'https://ok.com\u0000.evil.net/',
      'not a url',
      'https://[::1]/',
    ]) {
      expect(parseUrlTarget(bad).ok, bad).toBe(false);
    }
  });
});

describe('findSedScriptIssues', () => {
  it.each([
    ['s/a/b/g', []],
    ['1,5d;$p', []],
    ['/x/{s/a/b/;p}', []],
    ['s/a/e/', []],
    ['s|a/b|c|g', []],
    ['1e id', ['sed_exec']],
    ['s/a/b/e', ['sed_exec']],
    ['s/a/b/w /tmp/x', ['sed_file_io']],
    ['/x/w out', ['sed_file_io']],
    ['r /etc/passwd', ['sed_file_io']],
    ['$!N;e', ['sed_exec']],
    ['s/a/b', ['sed_unparsed']],
    ['k', ['sed_unparsed']],
  ])('%j → %j', (script, codes) => {
    expect(findSedScriptIssues(script).map((issue) => issue.code)).toEqual(codes);
  });
});

import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp-dir.js';
import { loadOrCreateServerToken, TOKEN_FILE_NAME } from './server-token.js';

describe('the server token', () => {
  it('is generated once into an owner-only file and read back on the next start', () => {
    const home = join(tempDir('correx-token-'), 'home');
    const created = loadOrCreateServerToken({ correxHome: home });
    expect(created.source).toBe('generated');
    expect(created.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const path = join(home, TOKEN_FILE_NAME);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path, 'utf8').trim()).toBe(created.token);
    expect(loadOrCreateServerToken({ correxHome: home })).toEqual({
      token: created.token,
      source: 'file',
      path,
    });
  });

  it('refuses a token file that others may read, and a short given token', () => {
    const home = tempDir('correx-token-');
    const path = join(home, TOKEN_FILE_NAME);
    writeFileSync(path, `${'t'.repeat(40)}\n`, { mode: 0o644 });
    chmodSync(path, 0o644);
    expect(() => loadOrCreateServerToken({ correxHome: home })).toThrow(/chmod 600/);
    chmodSync(path, 0o600);
    expect(loadOrCreateServerToken({ correxHome: home }).token).toBe('t'.repeat(40));
    expect(() => loadOrCreateServerToken({ correxHome: home, given: 'short' })).toThrow(
      /at least 32/,
    );
    const given = 'g'.repeat(32);
    expect(loadOrCreateServerToken({ correxHome: home, given })).toEqual({
      token: given,
      source: 'given',
      path: null,
    });
  });
});

import { describe, expect, it } from 'vitest';
import { redactSecrets } from './redact-secrets.js';

describe('redactSecrets', () => {
  it('removes known secrets and key-shaped strings wherever they appear', () => {
    const text =
      'key hunter2-secret in body; Authorization: Bearer abc.def; x-api-key=zzz999; sk-live-ABCDEFGH1234 "apiKey":"q1w2e3r4"';
    const out = redactSecrets(text, ['hunter2-secret', undefined, 'ab']);
    expect(out).not.toMatch(/hunter2|abc\.def|zzz999|ABCDEFGH1234|q1w2e3r4/);
    expect(out).toContain('key [redacted] in body');
  });

  it('leaves ordinary text alone', () => {
    expect(redactSecrets('HTTP 500: upstream model crashed', ['sk-unused-123456789'])).toBe(
      'HTTP 500: upstream model crashed',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { createToolCallProposal, safeParseToolArguments } from './tool-call-arguments.js';
import { InferenceError, isRetryableCategory } from './inference-failure.js';

describe('tool call arguments', () => {
  it('parses a JSON object and keeps the raw text verbatim', () => {
    expect(createToolCallProposal('c1', 'read', '{"path": "a.ts"}')).toEqual({
      callId: 'c1',
      name: 'read',
      argsRaw: '{"path": "a.ts"}',
      args: { path: 'a.ts' },
    });
  });

  it('reads empty arguments as an empty object', () => {
    expect(safeParseToolArguments('  ')).toEqual({ ok: true, args: {} });
  });

  it('reports malformed JSON and non-objects as a parse error, not an exception', () => {
    const broken = createToolCallProposal('c2', 'read', '{"path": "a.ts"');
    expect(broken.args).toBeUndefined();
    expect(broken.argsError).toMatch(/not valid JSON/);
    expect(safeParseToolArguments('[1]')).toEqual({
      ok: false,
      error: 'arguments must be a JSON object',
    });
    expect(safeParseToolArguments('null')).toMatchObject({ ok: false });
  });
});

describe('InferenceError', () => {
  it('carries a stable code per category and says whether a retry can help', () => {
    const error = new InferenceError({
      category: 'rate_limit',
      provider: 'p',
      message: 'slow down',
      retryAfterMs: 2000,
    });
    expect(error.code).toBe('inference_rate_limit');
    expect(error.retryable).toBe(true);
    expect(error.retryAfterMs).toBe(2000);
    expect(isRetryableCategory('auth')).toBe(false);
    expect(isRetryableCategory('cancelled')).toBe(false);
    expect(isRetryableCategory('provider_down')).toBe(true);
  });
});

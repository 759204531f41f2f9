import { describe, expect, it } from 'vitest';
import {
  createToolCallProposal,
  MAX_ARGUMENT_DEPTH,
  MAX_KEPT_REJECTED_ARGS_CHARS,
  REJECTED_ARGS_HEAD_CHARS,
  safeParseToolArguments,
} from './tool-call-arguments.js';
import { sha256Hex } from '../base/sha256.js';
import { canonicalJson, NonCanonicalValueError } from '../events/canonical-json.js';
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

  it('accepts exactly the depths an inference_completed event can record', () => {
    // `depth` objects, the arguments object itself the first.
    const nest = (depth: number) => '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);
    const recorded = (depth: number) => {
      const proposal = createToolCallProposal('c', 'read', nest(depth));
      return canonicalJson({
        type: 'inference_completed',
        requestId: 'r',
        provider: 'p',
        requestDigest: 'd',
        result: {
          text: '',
          toolCalls: [{ ...proposal, args: JSON.parse(proposal.argsRaw) as unknown }],
        },
      });
    };
    expect(safeParseToolArguments(nest(MAX_ARGUMENT_DEPTH)).ok).toBe(true);
    expect(() => recorded(MAX_ARGUMENT_DEPTH)).not.toThrow();
    expect(safeParseToolArguments(nest(MAX_ARGUMENT_DEPTH + 1)).ok).toBe(false);
    expect(() => recorded(MAX_ARGUMENT_DEPTH + 1)).toThrow(NonCanonicalValueError);
  });

  it('keeps only the head, length and digest of long arguments it refuses', () => {
    const garbage = `{"content": "${'x'.repeat(100_000)}`;
    const proposal = createToolCallProposal('c', 'write_file', garbage);
    expect(proposal).toEqual({
      callId: 'c',
      name: 'write_file',
      argsRaw: garbage.slice(0, REJECTED_ARGS_HEAD_CHARS),
      argsError: expect.stringMatching(
        new RegExp(
          `not valid JSON.*\\(${garbage.length} characters; only the first ${REJECTED_ARGS_HEAD_CHARS} are kept\\)$`,
        ),
      ),
      argsLength: garbage.length,
      argsSha256: sha256Hex(garbage),
    });
    // The head is refused as the whole was.
    expect(safeParseToolArguments(proposal.argsRaw).ok).toBe(false);
    // Readable arguments are kept whole however long; short unreadable ones too.
    const long = JSON.stringify({ content: 'y'.repeat(100_000) });
    expect(createToolCallProposal('c', 'write_file', long).argsRaw).toBe(long);
    expect(createToolCallProposal('c', 'write_file', '{"a":').argsRaw).toBe('{"a":');
    // A head that would parse is never what is kept: `{}` and spaces before the garbage.
    const sneaky = `{}${' '.repeat(REJECTED_ARGS_HEAD_CHARS)}${'z'.repeat(MAX_KEPT_REJECTED_ARGS_CHARS)}`;
    expect(createToolCallProposal('c', 'exec', sneaky).argsRaw).toBe(sneaky);
  });

  it('refuses arguments that have no canonical form, so what a model sends can always be recorded', () => {
    const nest = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
    expect(createToolCallProposal('c', 'read', '{"startLine": 1e400}')).toMatchObject({
      argsRaw: '{"startLine": 1e400}',
      argsError: expect.stringContaining('Infinity'),
    });
    expect(safeParseToolArguments('{"n": [-1e999]}')).toMatchObject({ ok: false });
    expect(safeParseToolArguments(`{"x":${nest(299)}}`)).toEqual({
      ok: false,
      error: `arguments are nested 300 levels deep; at most ${MAX_ARGUMENT_DEPTH} are accepted`,
    });
    expect(safeParseToolArguments(`{"x":${nest(100_000)}}`)).toMatchObject({ ok: false });
    expect(safeParseToolArguments(`{"x":${nest(MAX_ARGUMENT_DEPTH - 1)}}`)).toMatchObject({
      ok: true,
    });
    // Brackets inside strings are text, not nesting.
    expect(safeParseToolArguments(JSON.stringify({ s: '['.repeat(1000) }))).toMatchObject({
      ok: true,
    });
    expect(safeParseToolArguments('{"path": "\\ud83d\\ude00.ts"}')).toMatchObject({ ok: true });
    // An escaped lone surrogate in the JSON text, as a model sends it.
    expect(safeParseToolArguments('{"path": "\\ud800.ts"}')).toMatchObject({
      ok: false,
      error: expect.stringContaining('lone surrogate'),
    });
    expect(safeParseToolArguments('{"\\udfff": 1}')).toMatchObject({ ok: false });
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

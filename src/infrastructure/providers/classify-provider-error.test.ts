import { describe, expect, it } from 'vitest';
import { classifyProviderError, type CallContext } from './classify-provider-error.js';

const context = (receivedAnything: boolean): CallContext => ({
  provider: 'p',
  secrets: [],
  callerSignal: undefined,
  timeoutSignal: new AbortController().signal,
  timeoutMs: 1000,
  receivedAnything,
});

describe('classifyProviderError', () => {
  it('calls what a hostile body does to a parser malformed, not an outage', () => {
    for (const received of [false, true]) {
      expect(
        classifyProviderError(
          new RangeError('Maximum call stack size exceeded'),
          context(received),
        ),
      ).toMatchObject({
        category: 'malformed_response',
        message: 'p: unreadable response: nested too deep to parse',
      });
      expect(
        classifyProviderError(new RangeError('Invalid string length'), context(received)),
      ).toMatchObject({
        category: 'malformed_response',
        message: 'p: unreadable response: too large to hold in memory',
      });
    }
  });

  it('calls a structured answer that does not parse malformed', () => {
    const error = Object.assign(new Error('No object generated: could not parse the response.'), {
      name: 'AI_NoObjectGeneratedError',
    });
    expect(classifyProviderError(error, context(true)).category).toBe('malformed_response');
  });

  it('still calls a refused connection provider_down', () => {
    const error = Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    expect(classifyProviderError(error, context(false))).toMatchObject({
      category: 'provider_down',
      message: 'p: request failed: fetch failed (ECONNREFUSED)',
    });
  });
});

import { describe, expect, it } from 'vitest';
import { InferenceError } from '../../src/core/inference/inference-failure.js';
import type { InferenceRequest } from '../../src/core/inference/inference-request.js';
import { createOpenAICompatibleProvider } from '../../src/infrastructure/providers/openai-compatible-provider.js';
import { withProviderBackoff } from '../../src/infrastructure/providers/provider-backoff.js';
import { expectRejection } from '../support/expect-rejection.js';
import { json, startFakeHttpServer } from './fake-http-server.js';
import { chatCompletion } from './openai-wire.js';

const request: InferenceRequest = {
  model: 'served-model',
  messages: [{ role: 'user', content: 'hello' }],
  tools: [],
  limits: { maxOutputTokens: 16, timeoutMs: 5_000 },
};

/** A port nothing listens on: every connection is refused. */
async function refusedUrl(): Promise<string> {
  const server = await startFakeHttpServer();
  await server.close();
  return `${server.url}/v1`;
}

describe('withProviderBackoff', () => {
  it('asks for a doubling, capped delay after each refused connection, jittered within its upper half', async () => {
    let clock = 1_000_000;
    const draws = [0, 0.999, 0.5, 0, 0.999, 0];
    const provider = withProviderBackoff(
      createOpenAICompatibleProvider({ name: 'down', baseURL: await refusedUrl() }),
      { baseMs: 100, capMs: 1000, random: () => draws.shift() ?? 0, now: () => (clock += 10) },
    );
    const delays: number[] = [];
    for (let attempt = 0; attempt < 6; attempt++) {
      const error = await expectRejection(provider.infer(request), InferenceError);
      expect(error.category).toBe('provider_down');
      expect(error.message).toMatch(/^down: request failed/);
      delays.push(error.retryAfterMs!);
    }
    // 100, 200, 400, 800, then the 1000 cap: each in [delay/2, delay].
    expect(delays).toEqual([50, 200, 300, 400, 1000, 500]);
    // Never shorter than the previous delay's longest: the spacing only grows until the cap.
    const bounds = [100, 200, 400, 800, 1000, 1000];
    delays.forEach((delay, index) => {
      expect(delay).toBeGreaterThanOrEqual(bounds[index]! / 2);
      expect(delay).toBeLessThanOrEqual(bounds[index]!);
    });
  });

  it('starts over after a success, and keeps a delay the server asked for', async () => {
    const server = await startFakeHttpServer();
    try {
      const provider = withProviderBackoff(
        createOpenAICompatibleProvider({
          name: 'flaky',
          baseURL: `${server.url}/v1`,
          streaming: false,
        }),
        { baseMs: 100, capMs: 1000, random: () => 0.999 },
      );
      server.reply(
        json(500, { error: { message: 'boom' } }),
        json(500, { error: { message: 'boom' } }),
        json(200, chatCompletion({ content: 'ok' })),
        json(500, { error: { message: 'boom' } }),
        json(429, { error: { message: 'slow down' } }, { 'retry-after': '7' }),
      );
      const first = await expectRejection(provider.infer(request), InferenceError);
      const second = await expectRejection(provider.infer(request), InferenceError);
      expect([first.retryAfterMs, second.retryAfterMs]).toEqual([100, 200]);
      expect((await provider.infer(request)).text).toBe('ok');
      expect((await expectRejection(provider.infer(request), InferenceError)).retryAfterMs).toBe(
        100,
      );
      expect((await expectRejection(provider.infer(request), InferenceError)).retryAfterMs).toBe(
        7000,
      );
    } finally {
      await server.close();
    }
  });
});

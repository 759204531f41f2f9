import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InferenceError } from '../../src/core/inference/inference-failure.js';
import type { InferenceRequest } from '../../src/core/inference/inference-request.js';
import { createAnthropicProvider } from '../../src/infrastructure/providers/anthropic-provider.js';
import { hang, json, sse, startFakeHttpServer, type FakeHttpServer } from './fake-http-server.js';
import { anthropicError, message, messageStream } from './anthropic-wire.js';
import { expectRejection } from '../support/expect-rejection.js';

const API_KEY = 'sk-ant-test-NEVER-LOG-abcdef012345';

const request = (overrides: Partial<InferenceRequest> = {}): InferenceRequest => ({
  model: 'claude-sonnet-4-5',
  messages: [
    { role: 'system', content: 'Guidance.' },
    { role: 'user', content: 'Fix the parser.' },
  ],
  tools: [
    {
      name: 'read_file',
      description: 'Read a file',
      inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
    },
  ],
  limits: { maxOutputTokens: 300, timeoutMs: 5_000 },
  ...overrides,
});

let server: FakeHttpServer;
beforeAll(async () => {
  server = await startFakeHttpServer();
});
afterAll(async () => {
  await server.close();
});

const provider = (streaming: boolean) =>
  createAnthropicProvider({ apiKey: API_KEY, baseURL: `${server.url}/v1`, streaming });

describe.each([false, true])('Anthropic provider (streaming: %s)', (streaming) => {
  it('speaks the Messages API: system apart, tools as input schemas, max_tokens, x-api-key', async () => {
    server.reply(
      streaming
        ? sse(messageStream({ text: ['Look', 'ing.'] }))
        : json(200, message({ text: 'Looking.' })),
    );
    const result = await provider(streaming).infer(request());
    expect(result).toMatchObject({
      text: 'Looking.',
      finishReason: 'stop',
      usage: { inputTokens: 42, outputTokens: 7 },
      modelId: 'claude-served',
    });
    const sent = server.requests.at(-1)!;
    expect(sent.path).toBe('/v1/messages');
    expect(sent.headers['x-api-key']).toBe(API_KEY);
    expect(sent.body).toMatchObject({
      model: 'claude-sonnet-4-5',
      max_tokens: 300,
      system: [{ type: 'text', text: 'Guidance.' }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Fix the parser.' }] }],
      tools: [{ name: 'read_file', description: 'Read a file', input_schema: { type: 'object' } }],
    });
  });

  it('returns tool_use blocks as tool-call proposals', async () => {
    server.reply(
      streaming
        ? sse(
            messageStream({
              toolUses: [{ id: 'toolu_1', name: 'read_file', input: '{"path":"src/a.ts"}' }],
            }),
          )
        : json(
            200,
            message({
              toolUses: [{ id: 'toolu_1', name: 'read_file', input: { path: 'src/a.ts' } }],
            }),
          ),
    );
    const result = await provider(streaming).infer(request());
    expect(result.finishReason).toBe('tool_calls');
    expect(result.toolCalls).toEqual([
      {
        callId: 'toolu_1',
        name: 'read_file',
        argsRaw: '{"path":"src/a.ts"}',
        args: { path: 'src/a.ts' },
      },
    ]);
  });

  it('maps 429 with retry-after, 529 overloaded, 401 and a hung connection', async () => {
    server.reply(json(429, anthropicError('rate_limit_error', 'slow'), { 'retry-after': '7' }));
    const limited = await expectRejection(provider(streaming).infer(request()), InferenceError);
    expect([limited.category, limited.retryAfterMs]).toEqual(['rate_limit', 7000]);
    server.reply(json(529, anthropicError('overloaded_error', 'Overloaded')));
    expect(
      (await expectRejection(provider(streaming).infer(request()), InferenceError)).category,
    ).toBe('provider_down');
    server.reply(json(401, anthropicError('authentication_error', `invalid x-api-key ${API_KEY}`)));
    const auth = await expectRejection(provider(streaming).infer(request()), InferenceError);
    expect(auth.category).toBe('auth');
    expect(auth.message).not.toContain(API_KEY);
    server.reply(hang);
    const timedOut = await expectRejection(
      provider(streaming).infer(request({ limits: { maxOutputTokens: 10, timeoutMs: 300 } })),
      InferenceError,
    );
    expect(timedOut.category).toBe('timeout');
  });
});

describe('Anthropic streaming failures', () => {
  it('keeps malformed streamed tool input verbatim with a parse error', async () => {
    server.reply(
      sse(
        messageStream({
          toolUses: [{ id: 'toolu_2', name: 'read_file', input: '{"path": "src/a' }],
        }),
      ),
    );
    const [call] = (await provider(true).infer(request())).toolCalls;
    expect(call).toMatchObject({ callId: 'toolu_2', argsRaw: '{"path": "src/a' });
    expect(call!.argsError).toMatch(/not valid JSON/);
  });

  it('treats a dropped stream as a malformed response', async () => {
    server.reply(sse(messageStream({ text: ['a', 'b', 'c'] }), 3));
    expect((await expectRejection(provider(true).infer(request()), InferenceError)).category).toBe(
      'malformed_response',
    );
  });

  it('cancels on abort', async () => {
    server.reply(hang);
    const controller = new AbortController();
    const pending = provider(true).infer(request(), controller.signal);
    setTimeout(() => controller.abort(), 50);
    expect((await expectRejection(pending, InferenceError)).category).toBe('cancelled');
  });
});

describe('Anthropic live text', () => {
  it('tells a watcher each streamed text delta; the answer is the same as without one', async () => {
    server.reply(sse(messageStream({ text: ['Look', 'ing', ' closer.'] })));
    const deltas: string[] = [];
    const watched = await provider(true).infer(request(), undefined, (delta) => deltas.push(delta));
    server.reply(sse(messageStream({ text: ['Look', 'ing', ' closer.'] })));
    const unwatched = await provider(true).infer(request());
    expect(deltas).toEqual(['Look', 'ing', ' closer.']);
    expect({ ...watched, latencyMs: 0 }).toEqual({ ...unwatched, latencyMs: 0 });
  });
});

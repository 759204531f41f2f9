import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { correxEventCatalog } from '../../src/core/event-catalog.js';
import { createEventCodec } from '../../src/core/events/event-codec.js';
import { inferenceFailedPayload } from '../../src/core/inference/inference-events.js';
import { InferenceError } from '../../src/core/inference/inference-failure.js';
import type { InferenceRequest } from '../../src/core/inference/inference-request.js';
import { createOpenAICompatibleProvider } from '../../src/infrastructure/providers/openai-compatible-provider.js';
import {
  hang,
  json,
  sse,
  stall,
  startFakeHttpServer,
  type FakeHttpServer,
} from './fake-http-server.js';
import { chatCompletion, chatCompletionStream } from './openai-wire.js';
import { expectRejection } from '../support/expect-rejection.js';

const API_KEY = 'sk-test-DO-NOT-LEAK-0123456789';

const request = (overrides: Partial<InferenceRequest> = {}): InferenceRequest => ({
  model: 'qwen2.5-coder',
  messages: [
    { role: 'system', content: 'You are careful.' },
    { role: 'user', content: 'Read src/a.ts' },
  ],
  tools: [
    {
      name: 'read_file',
      description: 'Read a file',
      inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    },
  ],
  limits: { maxOutputTokens: 256, timeoutMs: 5_000 },
  ...overrides,
});

let server: FakeHttpServer;
beforeAll(async () => {
  server = await startFakeHttpServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
});

const provider = (streaming: boolean) =>
  createOpenAICompatibleProvider({
    name: 'openai-compatible:test',
    baseURL: `${server.url}/v1`,
    apiKey: API_KEY,
    streaming,
  });

describe.each([false, true])('OpenAI-compatible provider (streaming: %s)', (streaming) => {
  it('sends the pack, the tools (without executors) and the limits on the wire', async () => {
    server.reply(
      streaming
        ? sse(chatCompletionStream({ text: ['Hel', 'lo'] }))
        : json(200, chatCompletion({ content: 'Hello' })),
    );
    const result = await provider(streaming).infer(request());
    expect(result).toMatchObject({
      text: 'Hello',
      toolCalls: [],
      finishReason: 'stop',
      usage: { inputTokens: 42, outputTokens: 7 },
      modelId: 'served-model',
    });
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    const sent = server.requests[0]!;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(sent.body).toMatchObject({
      model: 'qwen2.5-coder',
      max_tokens: 256,
      messages: [
        { role: 'system', content: 'You are careful.' },
        { role: 'user', content: 'Read src/a.ts' },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'read_file',
            description: 'Read a file',
            parameters: { required: ['path'] },
          },
        },
      ],
    });
  });

  it('returns tool calls with the raw argument text and the parsed arguments', async () => {
    const calls = [{ id: 'call_1', name: 'read_file', arguments: '{"path": "src/a.ts"}' }];
    server.reply(
      streaming
        ? sse(chatCompletionStream({ toolCalls: calls }))
        : json(200, chatCompletion({ toolCalls: calls })),
    );
    const result = await provider(streaming).infer(request());
    expect(result.finishReason).toBe('tool_calls');
    expect(result.toolCalls).toEqual([
      {
        callId: 'call_1',
        name: 'read_file',
        argsRaw: '{"path": "src/a.ts"}',
        args: { path: 'src/a.ts' },
      },
    ]);
  });

  it('keeps malformed JSON arguments verbatim with a parse error instead of failing', async () => {
    const calls = [{ id: 'call_2', name: 'read_file', arguments: '{"path": "src/a.ts"' }];
    server.reply(
      streaming
        ? sse(chatCompletionStream({ toolCalls: calls }))
        : json(200, chatCompletion({ toolCalls: calls })),
    );
    const [call] = (await provider(streaming).infer(request())).toolCalls;
    expect(call).toMatchObject({
      callId: 'call_2',
      name: 'read_file',
      argsRaw: '{"path": "src/a.ts"',
    });
    expect(call!.args).toBeUndefined();
    expect(call!.argsError).toMatch(/not valid JSON/);
  });

  it('maps 429 to rate_limit with the retry-after hint', async () => {
    server.reply(json(429, { error: { message: 'slow down' } }, { 'retry-after': '3' }));
    const error = await expectRejection(provider(streaming).infer(request()), InferenceError);
    expect(error.category).toBe('rate_limit');
    expect(error.retryAfterMs).toBe(3000);
    expect(error.retryable).toBe(true);
  });

  it('maps 500 to provider_down, 401 to auth and 400 to invalid_request', async () => {
    server.reply(json(500, { error: { message: 'boom' } }));
    expect(
      (await expectRejection(provider(streaming).infer(request()), InferenceError)).category,
    ).toBe('provider_down');
    server.reply(json(401, { error: { message: 'bad key' } }));
    expect(
      (await expectRejection(provider(streaming).infer(request()), InferenceError)).category,
    ).toBe('auth');
    server.reply(json(400, { error: { message: 'context length exceeded' } }));
    const invalid = await expectRejection(provider(streaming).infer(request()), InferenceError);
    expect(invalid.category).toBe('invalid_request');
    expect(invalid.message).toContain('context length exceeded');
  });

  it('times out a hung connection', async () => {
    server.reply(hang);
    const error = await expectRejection(
      provider(streaming).infer(request({ limits: { maxOutputTokens: 10, timeoutMs: 300 } })),
      InferenceError,
    );
    expect(error.category).toBe('timeout');
  });

  it('cancels when the caller aborts, and the server sees the connection close', async () => {
    server.reply(hang);
    const ours = server.requests.length;
    const controller = new AbortController();
    const pending = provider(streaming).infer(request(), controller.signal);
    // Abort once the server holds the request (a state, not a delay a busy machine outlasts).
    await expect.poll(() => server.requests.length, { timeout: 30_000 }).toBeGreaterThan(ours);
    controller.abort();
    const error = await expectRejection(pending, InferenceError);
    expect(error.category).toBe('cancelled');
    expect(error.retryable).toBe(false);
    await expect.poll(() => server.requests[ours]?.closedEarly, { timeout: 30_000 }).toBe(true);
  });

  it('never puts the API key in an error message, even when the server echoes it', async () => {
    server.reply(
      json(400, { error: { message: `invalid request for key ${API_KEY} (Bearer ${API_KEY})` } }),
    );
    const error = await expectRejection(provider(streaming).infer(request()), InferenceError);
    expect(error.message).not.toContain(API_KEY);
    expect(error.message).not.toContain('DO-NOT-LEAK');
    const codec = createEventCodec(correxEventCatalog);
    const envelope = codec.normalize({
      eventId: 'e1',
      sessionId: 's1',
      timestamp: '2026-11-30T12:00:00.000Z',
      causationId: null,
      correlationId: 'c1',
      payload: inferenceFailedPayload('inference-1', 'qwen2.5-coder', error),
    });
    const bytes = codec.encode(envelope, 1);
    expect(bytes).toContain('invalid_request');
    expect(bytes).not.toContain('DO-NOT-LEAK');
  });

  it('maps an unreachable server to provider_down', async () => {
    const dead = createOpenAICompatibleProvider({
      name: 'dead',
      baseURL: 'http://127.0.0.1:1/v1',
      streaming,
    });
    expect((await expectRejection(dead.infer(request()), InferenceError)).category).toBe(
      'provider_down',
    );
  });
});

describe('OpenAI-compatible structured output', () => {
  it('asks for JSON matching the stage artifact schema when one is given', async () => {
    server.reply(json(200, chatCompletion({ content: '{"verdict":"approved"}' })));
    const schema = {
      type: 'object',
      properties: { verdict: { type: 'string' } },
      required: ['verdict'],
    };
    const structured = createOpenAICompatibleProvider({
      name: 'structured',
      baseURL: `${server.url}/v1`,
      streaming: false,
      supportsStructuredOutputs: true,
    });
    const result = await structured.infer(request({ tools: [], responseSchema: schema }));
    expect(result.text).toBe('{"verdict":"approved"}');
    expect(server.requests.at(-1)!.body).toMatchObject({
      response_format: { type: 'json_schema', json_schema: { schema } },
    });
  });
});

describe('OpenAI-compatible streaming failures', () => {
  it('treats a dropped stream as a malformed response', async () => {
    server.reply(sse(chatCompletionStream({ text: ['partial', ' answer', ' more'] }), 2));
    const error = await expectRejection(provider(true).infer(request()), InferenceError);
    expect(error.category).toBe('malformed_response');
  });

  it('times out a stream that stalls after its first events', async () => {
    server.reply(stall(chatCompletionStream({ text: ['thinking'] }).slice(0, 2)));
    const error = await expectRejection(
      provider(true).infer(request({ limits: { maxOutputTokens: 10, timeoutMs: 300 } })),
      InferenceError,
    );
    expect(error.category).toBe('timeout');
  });

  it('reports garbage in a non-streaming body as malformed_response', async () => {
    server.reply((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"choices": [ not json');
    });
    expect((await expectRejection(provider(false).infer(request()), InferenceError)).category).toBe(
      'malformed_response',
    );
  });
});

describe('OpenAI-compatible live text', () => {
  it('tells a watcher each streamed text delta; the answer is the same as without one', async () => {
    const calls = [{ id: 'call_1', name: 'read_file', arguments: '{"path": "src/a.ts"}' }];
    const stream = chatCompletionStream({ text: ['Reading ', 'the ', 'file.'], toolCalls: calls });
    server.reply(sse(stream));
    const deltas: string[] = [];
    const watched = await provider(true).infer(request(), undefined, (delta) => deltas.push(delta));
    server.reply(sse(stream));
    const unwatched = await provider(true).infer(request());
    expect(deltas).toEqual(['Reading ', 'the ', 'file.']);
    expect(deltas.join('')).toBe(watched.text);
    expect({ ...watched, latencyMs: 0 }).toEqual({ ...unwatched, latencyMs: 0 });
  });

  it('answers the same when the watcher throws', async () => {
    server.reply(sse(chatCompletionStream({ text: ['Hel', 'lo'] })));
    const result = await provider(true).infer(request(), undefined, () => {
      throw new Error('a broken watcher');
    });
    expect(result.text).toBe('Hello');
  });
});

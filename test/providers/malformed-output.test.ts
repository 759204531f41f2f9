import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_KEPT_REJECTED_ARGS_CHARS } from '../../src/core/inference/tool-call-arguments.js';
import { runSession } from '../../src/core/kernel/index.js';
import { createOpenAICompatibleProvider } from '../../src/infrastructure/providers/openai-compatible-provider.js';
import { MAX_ANSWER_CHARS } from '../../src/infrastructure/providers/tool-call-normaliser.js';
import {
  closeStoresAfterEach,
  eventsOf,
  expectReplayIdentical,
  implementOnlyWorkflow,
  livePorts,
  newClock,
  newIds,
  openStore,
  PROFILE,
  scenarioConfig,
  scenarioWorkspace,
} from '../kernel/kernel-harness.js';
import {
  hang,
  json,
  sse,
  startFakeHttpServer,
  type FakeHandler,
  type FakeHttpServer,
} from './fake-http-server.js';
import { chatCompletion, chatCompletionStream, type WireToolCall } from './openai-wire.js';

/*
 * Untrusted provider output through the real OpenAI-compatible provider and a loopback server,
 * streaming and not: each shape that once left a session recorded as `inference_requested` with
 * nothing after it (and every resume failing the same way) is now rejected before it becomes an
 * event, recorded, and the session goes on.
 */

const stores = closeStoresAfterEach();
let server: FakeHttpServer;
beforeAll(async () => {
  server = await startFakeHttpServer();
});
afterAll(async () => {
  await server.close();
});

const nest = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
const done = JSON.stringify({ summary: 'done', filesChanged: [] });

function answer(streaming: boolean, options: { text?: string; toolCalls?: WireToolCall[] }) {
  return streaming
    ? sse(
        chatCompletionStream({
          ...(options.text === undefined ? {} : { text: [options.text] }),
          ...(options.toolCalls === undefined ? {} : { toolCalls: options.toolCalls }),
        }),
      )
    : json(
        200,
        chatCompletion({
          ...(options.text === undefined ? {} : { content: options.text }),
          ...(options.toolCalls === undefined ? {} : { toolCalls: options.toolCalls }),
        }),
      );
}

const call = (args: string, name = 'read_file', id = 'call_1'): WireToolCall => ({
  id,
  name,
  arguments: args,
});

/** A body (or a stream event) that is JSON nested 10,000 levels deep. */
const deepBody =
  (streaming: boolean): FakeHandler =>
  (_request, response) => {
    response.writeHead(200, {
      'content-type': streaming ? 'text/event-stream' : 'application/json',
    });
    response.end(streaming ? `data: ${nest(10_000)}\n\n` : nest(10_000));
  };

type Expected =
  | { outcome: 'rejected'; message: RegExp }
  | { outcome: 'failed'; message: RegExp }
  | { outcome: 'ran' };

const shapes: {
  name: string;
  reply: (streaming: boolean) => FakeHandler;
  expected: Expected;
}[] = [
  {
    name: 'a number past JSON (1e400) in the arguments',
    reply: (s) => answer(s, { toolCalls: [call('{"path":"notes.txt","startLine":1e400}')] }),
    expected: { outcome: 'rejected', message: /Infinity/ },
  },
  {
    name: 'arguments nested 300 levels deep',
    reply: (s) => answer(s, { toolCalls: [call(`{"path":"notes.txt","x":${nest(299)}}`)] }),
    expected: { outcome: 'rejected', message: /nested 300 levels deep/ },
  },
  {
    name: 'arguments nested 100,000 levels deep',
    reply: (s) => answer(s, { toolCalls: [call(`{"x":${nest(100_000)}}`)] }),
    expected: {
      outcome: 'rejected',
      // The refusal says why (flag bounded-refused-arguments), measured on the text before any parse.
      message:
        /arguments are nested 100001 levels deep; at most \d+ are accepted \(\d+ characters; only the first 2048 are kept\)/,
    },
  },
  {
    name: 'a lone surrogate in the arguments',
    reply: (s) => answer(s, { toolCalls: [call('{"path":"\\ud800.txt"}')] }),
    expected: { outcome: 'rejected', message: /lone surrogate/ },
  },
  {
    name: 'a tool call with an empty id',
    reply: (s) => answer(s, { toolCalls: [call('{"path":"notes.txt"}', 'read_file', '')] }),
    expected: { outcome: 'ran' },
  },
  {
    name: 'a tool call with an empty name',
    reply: (s) => answer(s, { toolCalls: [call('{"path":"notes.txt"}', '')] }),
    expected: { outcome: 'failed', message: /name/ },
  },
  {
    name: 'a body larger than correx records',
    reply: (s) => answer(s, { text: 'x'.repeat(MAX_ANSWER_CHARS + 1) }),
    expected: { outcome: 'failed', message: /more than the \d+ characters/ },
  },
  {
    name: 'a body of JSON nested 10,000 levels deep',
    reply: deepBody,
    expected: { outcome: 'failed', message: /./ },
  },
];

describe.each([false, true])('untrusted provider output (streaming: %s)', (streaming) => {
  it.each(shapes)(
    '$name: recorded, and a resumed session goes on',
    async ({ name, reply, expected }) => {
      const { workspace, storePath } = scenarioWorkspace({ 'notes.txt': 'hello\n' });
      const store = openStore(storePath);
      stores.push(store);
      const config = scenarioConfig({ workflow: implementOnlyWorkflow(2) });
      const ports = livePorts(
        createOpenAICompatibleProvider({
          name: PROFILE.provider,
          baseURL: `${server.url}/v1`,
          apiKey: 'sk-test',
          streaming,
        }),
      );
      const sessionId = `s-${streaming ? 'stream' : 'whole'}-${name.replace(/[^a-z0-9]+/gi, '-')}`;
      // The first request hangs and the process stops: the session is left as a crash leaves it,
      // `inference_requested` with nothing after it. The resume meets the hostile answer.
      server.reply(
        hang,
        reply(streaming),
        answer(streaming, {
          toolCalls: [{ id: 'call_done', name: 'finish_change', arguments: done }],
        }),
      );
      server.requests.length = 0;
      const stop = new AbortController();
      const first = runSession(
        {
          store,
          sessionId,
          config,
          ports,
          clock: newClock(),
          ids: newIds(),
          signal: stop.signal,
        },
        {
          type: 'start',
          task: 'Read notes.txt',
          workspace,
          workflowId: 'implement-only',
          mode: 'auto',
        },
      );
      await until(() => server.requests.length === 1);
      stop.abort();
      expect((await first).waiting).toEqual({ kind: 'stopped' });
      expect((await eventsOf(store, sessionId)).at(-1)?.payload.type).toBe('inference_requested');

      const resumed = await runSession({
        store,
        sessionId,
        config,
        ports,
        clock: newClock(),
        ids: newIds('resume'),
      });
      expect(resumed.status).toBe('completed');
      const payloads = (await eventsOf(store, sessionId)).map((event) => event.payload);
      const failures = payloads.filter((payload) => payload.type === 'inference_failed');
      const rejections = payloads.filter((payload) => payload.type === 'tool_call_rejected');
      const receipts = payloads.filter((payload) => payload.type === 'tool_receipt');
      // Refused argument text is recorded bounded: its head, length and digest, never megabytes.
      for (const payload of payloads) {
        if (payload.type !== 'inference_completed') continue;
        for (const proposal of payload.result.toolCalls) {
          expect(proposal.argsRaw.length).toBeLessThanOrEqual(MAX_KEPT_REJECTED_ARGS_CHARS);
          if (proposal.argsLength !== undefined)
            expect(proposal.argsSha256).toMatch(/^[0-9a-f]{64}$/);
        }
      }
      switch (expected.outcome) {
        case 'rejected':
          expect(failures).toEqual([]);
          expect(rejections).toMatchObject([
            { reason: 'malformed_args', message: expect.stringMatching(expected.message) },
          ]);
          expect(receipts).toEqual([]);
          break;
        case 'failed':
          expect(rejections).toEqual([]);
          expect(failures).toMatchObject([
            { category: 'malformed_response', message: expect.stringMatching(expected.message) },
          ]);
          break;
        case 'ran':
          expect(failures).toEqual([]);
          expect(rejections).toEqual([]);
          expect(receipts).toMatchObject([{ tool: 'read_file', outcome: 'succeeded' }]);
          break;
      }
      await expectReplayIdentical(store, sessionId, config);
    },
  );

  it('rejects one bad call among good ones and runs the good ones', async () => {
    const { workspace, storePath } = scenarioWorkspace({ 'notes.txt': 'hello\n' });
    const store = openStore(storePath);
    stores.push(store);
    const config = scenarioConfig({ workflow: implementOnlyWorkflow(1) });
    server.reply(
      answer(streaming, {
        toolCalls: [
          call('{"path":"notes.txt"}', 'read_file', 'call_1'),
          call('{"path":"notes.txt","startLine":-1e999}', 'read_file', 'call_2'),
          call('{"path":"."}', 'list_dir', 'call_2'),
        ],
      }),
      answer(streaming, {
        toolCalls: [{ id: 'call_done', name: 'finish_change', arguments: done }],
      }),
    );
    const outcome = await runSession(
      {
        store,
        sessionId: `s-mixed-${streaming}`,
        config,
        ports: livePorts(
          createOpenAICompatibleProvider({
            name: PROFILE.provider,
            baseURL: `${server.url}/v1`,
            apiKey: 'sk-test',
            streaming,
          }),
        ),
        clock: newClock(),
        ids: newIds(),
      },
      { type: 'start', task: 'Look', workspace, workflowId: 'implement-only', mode: 'auto' },
    );
    expect(outcome.status).toBe('completed');
    const payloads = (await eventsOf(store, `s-mixed-${streaming}`)).map((event) => event.payload);
    const completed = payloads.find((payload) => payload.type === 'inference_completed');
    // The repeated id was replaced, so each call keeps its own arguments.
    const proposals = completed?.type === 'inference_completed' ? completed.result.toolCalls : [];
    expect(proposals.map((proposal) => proposal.name)).toEqual([
      'read_file',
      'read_file',
      'list_dir',
    ]);
    expect(new Set(proposals.map((proposal) => proposal.callId)).size).toBe(3);
    expect(proposals[1]?.argsError).toMatch(/Infinity/);
    expect(
      payloads.flatMap((payload) =>
        payload.type === 'tool_receipt' || payload.type === 'tool_call_rejected'
          ? [[payload.type, payload.tool]]
          : [],
      ),
    ).toEqual([
      ['tool_receipt', 'read_file'],
      ['tool_call_rejected', 'read_file'],
      ['tool_receipt', 'list_dir'],
    ]);
    await expectReplayIdentical(store, `s-mixed-${streaming}`, config);
  });
});

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('provider text as Unicode', () => {
  const request = {
    model: 'm',
    messages: [{ role: 'user' as const, content: 'hi' }],
    tools: [],
    limits: { maxOutputTokens: 16, timeoutMs: 5_000 },
  };
  it('turns a lone surrogate escape and invalid UTF-8 into U+FFFD, so the answer can be recorded', async () => {
    const local = createOpenAICompatibleProvider({
      name: 'openai-compatible:test',
      baseURL: `${server.url}/v1`,
      apiKey: 'sk-test',
      streaming: false,
    });
    const body = JSON.stringify(chatCompletion({ content: 'A-B' }));
    server.reply((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(body.replace('A-B', 'A\\ud800B'));
    });
    expect((await local.infer(request)).text).toBe('A\uFFFDB');
    server.reply((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      const bytes = Buffer.from(body);
      bytes[bytes.indexOf('A-B') + 1] = 0xff;
      response.end(bytes);
    });
    expect((await local.infer(request)).text).toBe('A\uFFFDB');
  });
});

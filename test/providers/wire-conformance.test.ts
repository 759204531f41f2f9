import { canonicalJson } from '../../src/core/events/canonical-json.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { InferenceProvider } from '../../src/core/inference/inference-provider.js';
import type { InferenceRequest } from '../../src/core/inference/inference-request.js';
import { responseSchemaInstruction } from '../../src/infrastructure/providers/ai-sdk-messages.js';
import { runSession } from '../../src/core/kernel/index.js';
import { createAnthropicProvider } from '../../src/infrastructure/providers/anthropic-provider.js';
import { createOpenAICompatibleProvider } from '../../src/infrastructure/providers/openai-compatible-provider.js';
import {
  closeStoresAfterEach,
  eventsOf,
  expectReplayIdentical,
  implementOnlyWorkflow,
  livePorts,
  newClock,
  newIds,
  openStore,
  scenarioConfig,
  scenarioWorkspace,
} from '../kernel/kernel-harness.js';
import {
  json,
  startFakeHttpServer,
  type FakeHandler,
  type FakeHttpServer,
} from './fake-http-server.js';
import { message } from './anthropic-wire.js';
import { chatCompletion } from './openai-wire.js';

/*
 * What correx puts on the wire across a whole session, through the real provider adapters to a
 * loopback server: a turn of parallel calls (run, refused, malformed) and then the finishing
 * tool. The second request must carry the first turn natively, every call paired with exactly
 * one result, in call order, and the stage schema as the finishing tool's parameters.
 */

/** The model's calls in its first turn, as [name, raw arguments]. */
const FIRST_TURN: readonly (readonly [string, string])[] = [
  ['read_file', JSON.stringify({ path: 'greet.js' })],
  ['write_file', JSON.stringify({ path: 'greet.js', content: "console.log('HELLO');\n" })],
  ['http_fetch', JSON.stringify({ url: 'https://example.com' })],
  ['read_file', '{"path": '],
  ['write_file', JSON.stringify({ path: '../outside.txt', content: 'escape' })],
];
const FINISH = JSON.stringify({ summary: 'made greet.js shout', filesChanged: ['greet.js'] });

const stores = closeStoresAfterEach();
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

async function runWith(provider: InferenceProvider, sessionId: string) {
  const { workspace, storePath } = scenarioWorkspace({ 'greet.js': "console.log('hello');\n" });
  const store = openStore(storePath);
  stores.push(store);
  const config = scenarioConfig({ workflow: implementOnlyWorkflow() });
  const outcome = await runSession(
    { store, sessionId, config, ports: livePorts(provider), clock: newClock(), ids: newIds() },
    {
      type: 'start',
      task: 'Make greet.js shout',
      workspace,
      workflowId: 'implement-only',
      mode: 'auto',
    },
  );
  expect(outcome.status).toBe('completed');
  expect(readFileSync(join(workspace, 'greet.js'), 'utf8')).toBe("console.log('HELLO');\n");
  await expectReplayIdentical(store, sessionId, config);
  return eventsOf(store, sessionId);
}

/** Every `{n,m}`-style bound a sent schema still has above 64. */
function largeBounds(schema: unknown): string[] {
  const found: string[] = [];
  const walk = (value: unknown, path: string) => {
    if (typeof value !== 'object' || value === null) return;
    for (const [key, inner] of Object.entries(value)) {
      if (
        /^(min|max)(Length|Items|Properties)$/.test(key) &&
        typeof inner === 'number' &&
        inner > 64
      )
        found.push(`${path}.${key}`);
      walk(inner, `${path}.${key}`);
    }
  };
  walk(schema, '$');
  return found;
}

describe('the OpenAI-compatible wire across a session', () => {
  const provider = () =>
    createOpenAICompatibleProvider({
      name: 'scripted',
      baseURL: `${server.url}/v1`,
      streaming: false,
      supportsStructuredOutputs: true,
    });
  const answers: FakeHandler[] = [
    json(
      200,
      chatCompletion({
        content: 'Reading, then writing.',
        toolCalls: FIRST_TURN.map(([name, args], index) => ({
          id: `call_${index}`,
          name,
          arguments: args,
        })),
      }),
    ),
    json(
      200,
      chatCompletion({ toolCalls: [{ id: 'call_f', name: 'finish_change', arguments: FINISH }] }),
    ),
  ];

  it('sends assistant tool_calls, then one role:"tool" message per call, and the finishing tool', async () => {
    server.reply(...answers);
    const events = await runWith(provider(), 'wire-openai');
    expect(server.requests).toHaveLength(2);
    type Body = {
      messages: { role: string; content: unknown; tool_calls?: unknown[]; tool_call_id?: string }[];
      tools: { type: string; function: { name: string; parameters: Record<string, unknown> } }[];
      response_format?: unknown;
    };
    const [first, second] = server.requests.map((request) => request.body as Body);
    // The finishing tool carries the stage's schema; no response_format competes with it.
    for (const body of [first!, second!]) {
      const names = body.tools.map((tool) => tool.function.name);
      expect(names).toEqual([
        'read_file',
        'write_file',
        'edit_file',
        'list_dir',
        'exec',
        'finish_change',
      ]);
      expect(body.response_format).toBeUndefined();
      expect(largeBounds(body.tools)).toEqual([]);
    }
    expect(first!.tools.at(-1)!.function.parameters).toMatchObject({
      type: 'object',
      properties: { summary: { type: 'string' }, filesChanged: { type: 'array' } },
      required: ['summary', 'filesChanged'],
      additionalProperties: false,
    });
    expect(first!.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(first!.messages[0]!.content).toContain('call the tool `finish_change` alone');

    const ids = FIRST_TURN.map((_call, index) => `implement.1.1.${index + 1}`);
    const turn = second!.messages.slice(2);
    expect(turn.map((m) => m.role)).toEqual(['assistant', ...FIRST_TURN.map(() => 'tool')]);
    expect(turn[0]).toEqual({
      role: 'assistant',
      content: 'Reading, then writing.',
      tool_calls: FIRST_TURN.map(([name, args], index) => ({
        id: ids[index],
        type: 'function',
        // The model's JSON goes back in canonical form (keys sorted; flag
        // decisions-from-canonical-output), so no request depends on the order it wrote its keys in.
        function: {
          name,
          arguments: args === '{"path": ' ? JSON.stringify(args) : canonicalJson(JSON.parse(args)),
        },
      })),
    });
    expect(turn.slice(1).map((m) => m.tool_call_id)).toEqual(ids);
    const results = turn.slice(1).map((m) => String(m.content));
    expect(results[0]).toContain("console.log('hello');");
    expect(results[1]).toMatch(/succeeded/);
    expect(results[2]).toContain('does not grant http_fetch');
    expect(results[3]).toContain('Call it again with arguments matching this JSON Schema');
    expect(results[4]).toMatch(/was not run: blocked by policy: path-containment/);
    // The artifact is the finishing call's arguments.
    const accepted = events.find((event) => event.payload.type === 'artifact_accepted');
    expect(accepted).toBeDefined();
    expect(events.at(-1)?.payload.type).toBe('workflow_completed');
  });
});

describe('the Anthropic wire across a session', () => {
  const provider = () =>
    createAnthropicProvider({
      name: 'scripted',
      apiKey: 'test-key',
      baseURL: `${server.url}/v1`,
      streaming: false,
    });

  it('sends tool_use blocks, then one tool_result block per call in the next user turn', async () => {
    server.reply(
      json(
        200,
        message({
          text: 'Reading, then writing.',
          toolUses: FIRST_TURN.map(([name, args], index) => ({
            id: `toolu_${index}`,
            name,
            input: args === '{"path": ' ? args : (JSON.parse(args) as unknown),
          })),
        }),
      ),
      json(
        200,
        message({
          toolUses: [
            { id: 'toolu_f', name: 'finish_change', input: JSON.parse(FINISH) as unknown },
          ],
        }),
      ),
    );
    await runWith(provider(), 'wire-anthropic');
    expect(server.requests).toHaveLength(2);
    type Block = {
      type: string;
      id?: string;
      name?: string;
      input?: unknown;
      tool_use_id?: string;
      content?: unknown;
    };
    type Body = {
      system?: unknown;
      messages: { role: string; content: string | Block[] }[];
      tools: { name: string; input_schema: Record<string, unknown> }[];
    };
    const [first, second] = server.requests.map((request) => request.body as Body);
    expect(first!.tools.map((tool) => tool.name).at(-1)).toBe('finish_change');
    expect(largeBounds(first!.tools)).toEqual([]);
    const ids = FIRST_TURN.map((_call, index) => `implement.1.1.${index + 1}`);
    const assistant = second!.messages.at(-2)!;
    const results = second!.messages.at(-1)!;
    expect(assistant.role).toBe('assistant');
    const blocks = assistant.content as Block[];
    expect(blocks[0]).toMatchObject({ type: 'text', text: 'Reading, then writing.' });
    expect(blocks.slice(1).map((block) => [block.type, block.id, block.name])).toEqual(
      FIRST_TURN.map(([name], index) => ['tool_use', ids[index], name]),
    );
    expect(blocks[1]!.input).toEqual({ path: 'greet.js' });
    expect(results.role).toBe('user');
    const resultBlocks = results.content as Block[];
    expect(resultBlocks.map((block) => [block.type, block.tool_use_id])).toEqual(
      ids.map((id) => ['tool_result', id]),
    );
    expect(JSON.stringify(resultBlocks[2]!.content)).toContain('does not grant http_fetch');
    expect(JSON.stringify(resultBlocks[4]!.content)).toContain('blocked by policy');
  });
});

describe('the JSON answer of a profile without tool calling', () => {
  const schema = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: { summary: { type: 'string', minLength: 1, maxLength: 4096 } },
    required: ['summary'],
    additionalProperties: false,
  };
  const request: InferenceRequest = {
    model: 'served-model',
    messages: [
      { role: 'system', content: 'Answer with the note.' },
      { role: 'user', content: 'Task: write notes' },
    ],
    tools: [],
    responseSchema: schema,
    limits: { maxOutputTokens: 64, timeoutMs: 5_000 },
  };
  const answer = json(200, chatCompletion({ content: JSON.stringify({ summary: 'notes' }) }));

  it('sends the schema in response_format json_schema where the server takes one', async () => {
    server.reply(answer);
    const provider = createOpenAICompatibleProvider({
      name: 'p',
      baseURL: `${server.url}/v1`,
      streaming: false,
      supportsStructuredOutputs: true,
    });
    await provider.infer(request);
    const body = server.requests[0]!.body as {
      response_format: { type: string; json_schema: { schema: Record<string, unknown> } };
    };
    expect(body.response_format.type).toBe('json_schema');
    expect(body.response_format.json_schema.schema).toMatchObject({
      properties: { summary: { type: 'string', minLength: 1 } },
      required: ['summary'],
    });
    expect(largeBounds(body.response_format)).toEqual([]);
  });

  it('writes the schema into the system prompt where the server takes none', async () => {
    server.reply(answer);
    const provider = createOpenAICompatibleProvider({
      name: 'p',
      baseURL: `${server.url}/v1`,
      streaming: false,
      supportsStructuredOutputs: false,
    });
    await provider.infer(request);
    const body = server.requests[0]!.body as { messages: { role: string; content: string }[] };
    expect(body.messages[0]!.role).toBe('system');
    expect(body.messages[0]!.content).toContain(responseSchemaInstruction(schema));
  });
});

describe('token usage from the wire', () => {
  it('records input (cached included), cached input and output separately: OpenAI-compatible', async () => {
    server.reply(
      json(200, {
        ...chatCompletion({ content: 'ok' }),
        usage: {
          prompt_tokens: 852,
          completion_tokens: 7,
          total_tokens: 859,
          prompt_tokens_details: { cached_tokens: 800 },
        },
      }),
    );
    const provider = createOpenAICompatibleProvider({
      name: 'p',
      baseURL: `${server.url}/v1`,
      streaming: false,
    });
    const result = await provider.infer({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
      tools: [],
      limits: { maxOutputTokens: 8, timeoutMs: 5_000 },
    });
    expect(result.usage).toEqual({ inputTokens: 852, cachedInputTokens: 800, outputTokens: 7 });
  });

  it('records input (cached included), cached input and output separately: Anthropic', async () => {
    server.reply(
      json(200, {
        ...message({ text: 'ok' }),
        usage: { input_tokens: 52, cache_read_input_tokens: 800, output_tokens: 7 },
      }),
    );
    const provider = createAnthropicProvider({
      apiKey: 'k',
      baseURL: `${server.url}/v1`,
      streaming: false,
    });
    const result = await provider.infer({
      model: 'claude-served',
      messages: [{ role: 'user', content: 'hi' }],
      tools: [],
      limits: { maxOutputTokens: 8, timeoutMs: 5_000 },
    });
    expect(result.usage).toEqual({ inputTokens: 852, cachedInputTokens: 800, outputTokens: 7 });
  });
});

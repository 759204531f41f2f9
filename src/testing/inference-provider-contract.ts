import assert from 'node:assert/strict';
import { canonicalJson, type JsonValue } from '../core/events/canonical-json.js';
import { InferenceError } from '../core/inference/inference-failure.js';
import type { InferenceProvider } from '../core/inference/inference-provider.js';
import type { InferenceRequest } from '../core/inference/inference-request.js';
import { InferenceResultSchema, type InferenceResult } from '../core/inference/inference-result.js';
import type { ContractCase } from './contract-case.js';

/** What the backend behind the provider answers to the next request. */
export type ContractAnswer =
  | { readonly kind: 'text'; readonly text: string }
  | {
      readonly kind: 'tool_calls';
      readonly calls: readonly { readonly name: string; readonly args: Record<string, unknown> }[];
    }
  /** The backend accepts the request and never answers. */
  | { readonly kind: 'hang' };

export type ProviderUnderTest = {
  readonly provider: InferenceProvider;
  close(): Promise<void>;
};

/**
 * What each provider supplies to run the contract: a provider whose backend gives `answer`.
 * A backend that is a real model (`generates: true`, a local GGUF) cannot be told what to say:
 * it is asked the same requests, its answers are checked for shape (a recordable result, calls
 * only of declared tools with arguments kept verbatim), and its abort case is a long generation
 * instead of a server that never answers.
 */
export type InferenceProviderHarness = {
  answering(answer: ContractAnswer): Promise<ProviderUnderTest>;
  readonly generates?: boolean;
};

const request: InferenceRequest = {
  model: 'contract-model',
  messages: [
    { role: 'system', content: 'You are a careful coding agent.' },
    { role: 'user', content: 'Read src/a.ts, then say what it does.' },
  ],
  tools: [
    {
      name: 'read_file',
      description: 'Read a file',
      inputSchema: {
        type: 'object',
        properties: { path: { type: 'string' }, startLine: { type: 'integer' } },
        required: ['path'],
      },
    },
  ],
  limits: { maxOutputTokens: 128, timeoutMs: 30_000 },
};

async function withProvider(
  harness: InferenceProviderHarness,
  answer: ContractAnswer,
  check: (provider: InferenceProvider) => Promise<void>,
): Promise<void> {
  const under = await harness.answering(answer);
  try {
    await check(under.provider);
  } finally {
    await under.close();
  }
}

/** The result is what `inference_completed` records: schema-valid and canonical JSON. */
function assertRecordable(result: InferenceResult): void {
  InferenceResultSchema.parse(result);
  assert.doesNotThrow(() => canonicalJson(result as unknown as JsonValue));
}

async function assertCancelled(promise: Promise<unknown>): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof InferenceError, `expected an InferenceError, got ${String(error)}`);
    assert.equal(error.category, 'cancelled');
    return true;
  });
}

/**
 * The InferenceProvider contract: every backend (an HTTP API, a local GGUF, the scripted model)
 * answers in the shape the kernel records, keeps tool calls and their order, and stops when its
 * call is aborted.
 */
export function inferenceProviderContract(harness: InferenceProviderHarness): ContractCase[] {
  return harness.generates === true ? generativeCases(harness) : scriptedCases(harness);
}

/** A call's arguments are an object parsed from its raw text, and the call names a declared tool. */
function assertWellFormedCall(
  call: InferenceResult['toolCalls'][number],
  asked: InferenceRequest,
): void {
  assert.ok(
    asked.tools.some((tool) => tool.name === call.name),
    `a call of an undeclared tool: ${call.name}`,
  );
  assert.deepEqual(call.args, JSON.parse(call.argsRaw));
  assert.ok(call.callId.length > 0);
}

function generativeCases(harness: InferenceProviderHarness): ContractCase[] {
  const withoutTools: InferenceRequest = { ...request, tools: [] };
  // A stage with a finishing tool must answer with a call (a plain answer is not a result).
  const finishing: InferenceRequest = {
    ...request,
    tools: [
      ...request.tools,
      {
        name: 'finish_note',
        description: 'Finish the stage',
        inputSchema: {
          type: 'object',
          properties: { status: { enum: ['done'] } },
          required: ['status'],
        },
      },
    ],
  };
  return [
    {
      name: 'answers a request without tools in a result the kernel can record',
      run: () =>
        withProvider(harness, { kind: 'text', text: '' }, async (provider) => {
          const result = await provider.infer(withoutTools);
          assertRecordable(result);
          assert.equal(typeof result.text, 'string');
          assert.deepEqual(result.toolCalls, []);
          assert.ok(['stop', 'length'].includes(result.finishReason), result.finishReason);
          assert.ok(result.modelId.length > 0);
        }),
    },
    {
      name: 'answers a stage that ends with a finishing tool only with well-formed calls of declared tools',
      run: () =>
        withProvider(harness, { kind: 'tool_calls', calls: [] }, async (provider) => {
          const result = await provider.infer(finishing);
          assertRecordable(result);
          assert.ok(result.toolCalls.length > 0, 'no tool call');
          for (const call of result.toolCalls) assertWellFormedCall(call, finishing);
          assert.equal(
            new Set(result.toolCalls.map((call) => call.callId)).size,
            result.toolCalls.length,
          );
          assert.equal(result.finishReason, 'tool_calls');
        }),
    },
    tokenCountCase(harness),
    abortedCase(harness),
    {
      name: 'stops a long generation when it is aborted',
      run: () =>
        withProvider(harness, { kind: 'hang' }, async (provider) => {
          const controller = new AbortController();
          const pending = provider.infer(
            { ...withoutTools, limits: { maxOutputTokens: 100_000, timeoutMs: 600_000 } },
            controller.signal,
          );
          setTimeout(() => controller.abort(), 20);
          await assertCancelled(pending);
        }),
    },
  ];
}

function tokenCountCase(harness: InferenceProviderHarness): ContractCase {
  return {
    name: 'counts tokens as non-negative integers',
    run: () =>
      withProvider(harness, { kind: 'text', text: 'ok' }, async (provider) => {
        const { usage } = await provider.infer(request);
        assert.ok(Number.isInteger(usage.inputTokens) && usage.inputTokens >= 0);
        assert.ok(Number.isInteger(usage.outputTokens) && usage.outputTokens >= 0);
      }),
  };
}

function abortedCase(harness: InferenceProviderHarness): ContractCase {
  return {
    name: 'rejects an already aborted call as cancelled',
    run: () =>
      withProvider(harness, { kind: 'text', text: 'too late' }, async (provider) => {
        const controller = new AbortController();
        controller.abort();
        await assertCancelled(provider.infer(request, controller.signal));
      }),
  };
}

function scriptedCases(harness: InferenceProviderHarness): ContractCase[] {
  return [
    {
      name: 'answers with text in a result the kernel can record',
      run: () =>
        withProvider(harness, { kind: 'text', text: 'It parses numbers.' }, async (provider) => {
          const result = await provider.infer(request);
          assertRecordable(result);
          assert.equal(result.text, 'It parses numbers.');
          assert.deepEqual(result.toolCalls, []);
          assert.equal(result.finishReason, 'stop');
          assert.ok(result.modelId.length > 0);
        }),
    },
    {
      name: 'proposes a tool call with its arguments parsed and kept verbatim',
      run: () =>
        withProvider(
          harness,
          { kind: 'tool_calls', calls: [{ name: 'read_file', args: { path: 'src/a.ts' } }] },
          async (provider) => {
            const result = await provider.infer(request);
            assertRecordable(result);
            assert.equal(result.toolCalls.length, 1);
            const [call] = result.toolCalls;
            assert.equal(call!.name, 'read_file');
            assert.deepEqual(call!.args, { path: 'src/a.ts' });
            assert.deepEqual(JSON.parse(call!.argsRaw), { path: 'src/a.ts' });
            assert.ok(call!.callId.length > 0);
            assert.equal(result.finishReason, 'tool_calls');
          },
        ),
    },
    {
      name: 'keeps parallel tool calls in order, each with its own id',
      run: () =>
        withProvider(
          harness,
          {
            kind: 'tool_calls',
            calls: [
              { name: 'read_file', args: { path: 'src/a.ts' } },
              { name: 'read_file', args: { path: 'src/b.ts', startLine: 3 } },
            ],
          },
          async (provider) => {
            const result = await provider.infer(request);
            assertRecordable(result);
            assert.deepEqual(
              result.toolCalls.map((call) => call.args),
              [{ path: 'src/a.ts' }, { path: 'src/b.ts', startLine: 3 }],
            );
            assert.equal(new Set(result.toolCalls.map((call) => call.callId)).size, 2);
          },
        ),
    },
    tokenCountCase(harness),
    abortedCase(harness),
    {
      name: 'stops a call whose backend never answers when it is aborted',
      run: () =>
        withProvider(harness, { kind: 'hang' }, async (provider) => {
          const controller = new AbortController();
          const pending = provider.infer(request, controller.signal);
          setTimeout(() => controller.abort(), 20);
          await assertCancelled(pending);
        }),
    },
  ];
}

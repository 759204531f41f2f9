import { mkdtempSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { InferenceError } from '../../core/inference/inference-failure.js';
import type { InferenceRequest, ToolDefinition } from '../../core/inference/inference-request.js';
import {
  LlamaCppModelNotFoundError,
  LlamaCppProvider,
  LlamaCppUnavailableError,
} from './llama-cpp-provider.js';
import { defaultLocalThreads, physicalCores } from './physical-cores.js';
import {
  CONTINUE_PROMPT,
  parseToolEnvelope,
  toGrammarSchema,
  toLlamaChat,
  toolCallEnvelopeSchema,
} from './llama-cpp-tool-grammar.js';

const writeFile: ToolDefinition = {
  name: 'write_file',
  description: 'Write a file',
  inputSchema: z.toJSONSchema(
    z.object({
      path: z.string(),
      content: z.string(),
      mode: z.enum(['create', 'overwrite']).optional(),
    }),
  ) as Record<string, unknown>,
};
const request = (overrides: Partial<InferenceRequest> = {}): InferenceRequest => ({
  model: 'local.gguf',
  messages: [
    { role: 'system', content: 'Be careful.' },
    { role: 'user', content: 'first' },
    { role: 'assistant', content: 'ok' },
    { role: 'user', content: 'write it' },
  ],
  tools: [writeFile],
  limits: { maxOutputTokens: 64, timeoutMs: 2_000 },
  ...overrides,
});
const fakeGguf = () => {
  const dir = mkdtempSync(join(tmpdir(), 'correx-gguf-'));
  const path = join(dir, 'tiny.gguf');
  writeFileSync(path, 'not really a model');
  return path;
};

/** A stand-in for node-llama-cpp's API surface, recording what the provider does with it. */
function fakeNodeLlamaCpp(reply: (prompt: string, signal: AbortSignal) => Promise<string>) {
  const log: string[] = [];
  const settings: Record<string, unknown>[] = [];
  const meter = { usedInputTokens: 0, usedOutputTokens: 0 };
  const module = {
    getLlama: () =>
      Promise.resolve({
        loadModel: (options: { modelPath: string }) => {
          log.push(`load ${options.modelPath.endsWith('tiny.gguf')}`);
          settings.push(options);
          return Promise.resolve({
            tokenize: (text: string) => text.split(' '),
            createContext: (options: Record<string, unknown>) => (
              settings.push(options),
              Promise.resolve({
                getSequence: () => ({ tokenMeter: meter }),
                dispose: () => (log.push('dispose context'), Promise.resolve()),
              })
            ),
            dispose: () => (log.push('dispose model'), Promise.resolve()),
          });
        },
        createGrammarForJsonSchema: (schema: unknown) => (
          log.push(`grammar ${JSON.stringify(schema).length > 0}`),
          Promise.resolve({ schema })
        ),
        dispose: () => (log.push('dispose llama'), Promise.resolve()),
      }),
    LlamaChatSession: class {
      history: unknown[] = [];
      setChatHistory(history: unknown[]) {
        log.push(`history ${history.length}`);
      }
      async promptWithMeta(prompt: string, options: { signal: AbortSignal; grammar?: unknown }) {
        log.push(`prompt ${prompt} grammar=${options.grammar !== undefined}`);
        const text = await reply(prompt, options.signal);
        meter.usedInputTokens += 10;
        meter.usedOutputTokens += 3;
        return { responseText: text, stopReason: 'eogToken' };
      }
      dispose() {
        log.push('dispose session');
      }
    },
  };
  return { log, settings, importModule: () => Promise.resolve(module) };
}

describe('local inference settings', () => {
  it('passes threads, GPU layers, context and batch size to node-llama-cpp', async () => {
    const fake = fakeNodeLlamaCpp(() => Promise.resolve('{"type":"answer","text":"ok"}'));
    const provider = await LlamaCppProvider.load({
      modelPath: fakeGguf(),
      importModule: fake.importModule,
      threads: 1,
      gpuLayers: 0,
      contextSize: 2048,
      batchSize: 128,
    });
    await provider.dispose();
    expect(fake.settings).toEqual([
      { modelPath: expect.stringMatching(/tiny\.gguf$/) as string, gpuLayers: 0 },
      { threads: 1, contextSize: 2048, batchSize: 128 },
    ]);
  });

  it('defaults to every physical core but one, at least one thread', async () => {
    const fake = fakeNodeLlamaCpp(() => Promise.resolve('{"type":"answer","text":"ok"}'));
    const provider = await LlamaCppProvider.load({
      modelPath: fakeGguf(),
      importModule: fake.importModule,
    });
    await provider.dispose();
    expect(fake.settings[1]).toEqual({ threads: defaultLocalThreads() });
    expect(defaultLocalThreads(2)).toBe(1);
    expect(defaultLocalThreads(1)).toBe(1);
    expect(defaultLocalThreads(8)).toBe(7);
    // Two packages of two cores with two hyper-threads each: four physical cores.
    const cpuinfo = [0, 1]
      .flatMap((pkg) =>
        [0, 1].flatMap((core) =>
          [0, 1].map(() => `processor\t: x\nphysical id\t: ${pkg}\ncore id\t\t: ${core}\n`),
        ),
      )
      .join('\n');
    expect(physicalCores(() => cpuinfo)).toBe(Math.min(4, availableParallelism()));
    expect(
      physicalCores(() => {
        throw new Error('no /proc');
      }),
    ).toBe(availableParallelism());
  });

  it('compiles a grammar once for the tools a stage offers turn after turn', async () => {
    const fake = fakeNodeLlamaCpp(() => Promise.resolve('{"type":"answer","text":"ok"}'));
    const provider = await LlamaCppProvider.load({
      modelPath: fakeGguf(),
      importModule: fake.importModule,
    });
    await provider.infer(request());
    await provider.infer(request());
    await provider.dispose();
    expect(fake.log.filter((line) => line.startsWith('grammar'))).toHaveLength(1);
    expect(fake.log.filter((line) => line.startsWith('prompt'))).toHaveLength(2);
  });

  it('ends a call at the profile timeout when it is below the kernel timeout', async () => {
    const fake = fakeNodeLlamaCpp(
      (_prompt, signal) =>
        new Promise((_resolve, reject) =>
          signal.addEventListener('abort', () => reject(new Error('aborted'))),
        ),
    );
    const provider = await LlamaCppProvider.load({
      modelPath: fakeGguf(),
      importModule: fake.importModule,
      timeoutMs: 50,
    });
    const error = await provider.infer(request()).catch((e: unknown) => e);
    await provider.dispose();
    expect(error).toBeInstanceOf(InferenceError);
    expect(error).toMatchObject({
      category: 'timeout',
      message: expect.stringContaining('within 50 ms') as string,
    });
  });
});

describe('LlamaCppProvider', () => {
  it('names a missing GGUF file before touching node-llama-cpp', async () => {
    await expect(
      LlamaCppProvider.load({ modelPath: '/nonexistent/model.gguf' }),
    ).rejects.toBeInstanceOf(LlamaCppModelNotFoundError);
  });

  it('reports node-llama-cpp missing as LlamaCppUnavailableError', async () => {
    const importModule = () => Promise.reject(new Error("Cannot find package 'node-llama-cpp'"));
    await expect(
      LlamaCppProvider.load({ modelPath: fakeGguf(), importModule }),
    ).rejects.toBeInstanceOf(LlamaCppUnavailableError);
  });

  it('constrains output to a tool call, parses it and owns the model lifecycle', async () => {
    const fake = fakeNodeLlamaCpp(() =>
      Promise.resolve(
        '{"type":"tool_call","name":"write_file","arguments":{"path":"a.ts","content":"x"}}',
      ),
    );
    const provider = await LlamaCppProvider.load({
      modelPath: fakeGguf(),
      importModule: fake.importModule,
    });
    const result = await provider.infer(request());
    expect(result).toMatchObject({
      text: '',
      toolCalls: [
        {
          callId: 'local-1',
          name: 'write_file',
          argsRaw: '{"path":"a.ts","content":"x"}',
          args: { path: 'a.ts', content: 'x' },
        },
      ],
      finishReason: 'tool_calls',
      usage: { inputTokens: 10, outputTokens: 3 },
      modelId: 'tiny.gguf',
    });
    expect(provider.tokenizer.count('three word text')).toBe(3);
    expect(provider.tokenizer.name).toBe('llama-cpp:tiny.gguf');
    await provider.dispose();
    await provider.dispose();
    expect(fake.log).toEqual([
      'load true',
      'grammar true',
      'history 3',
      'prompt write it grammar=true',
      'dispose session',
      'dispose context',
      'dispose model',
      'dispose llama',
    ]);
    await expect(provider.infer(request())).rejects.toMatchObject({ category: 'provider_down' });
  });

  it('runs free text without a grammar and serializes concurrent calls', async () => {
    let active = 0;
    let maxActive = 0;
    const fake = fakeNodeLlamaCpp(async (prompt) => {
      active += 1;
      maxActive = Math.max(maxActive, active);
      await new Promise((resolve) => setTimeout(resolve, 10));
      active -= 1;
      return `answer to ${prompt}`;
    });
    const provider = await LlamaCppProvider.load({
      modelPath: fakeGguf(),
      importModule: fake.importModule,
    });
    const results = await Promise.all([
      provider.infer(request({ tools: [] })),
      provider.infer(request({ tools: [] })),
    ]);
    expect(results.map((r) => r.text)).toEqual(['answer to write it', 'answer to write it']);
    expect(maxActive).toBe(1);
    expect(fake.log.filter((line) => line.startsWith('grammar'))).toEqual([]);
    await provider.dispose();
  });

  it('maps an abort to cancelled and a stall to timeout', async () => {
    const never = (_prompt: string, signal: AbortSignal) =>
      new Promise<string>((_resolve, reject) =>
        signal.addEventListener('abort', () => reject(new Error('aborted'))),
      );
    const provider = await LlamaCppProvider.load({
      modelPath: fakeGguf(),
      importModule: fakeNodeLlamaCpp(never).importModule,
    });
    const controller = new AbortController();
    const pending = provider.infer(request(), controller.signal);
    setTimeout(() => controller.abort(), 20);
    const cancelled = await pending.catch((e: unknown) => e);
    expect(cancelled).toBeInstanceOf(InferenceError);
    expect((cancelled as InferenceError).category).toBe('cancelled');
    const timedOut = await provider
      .infer(request({ limits: { maxOutputTokens: 5, timeoutMs: 50 } }))
      .catch((e: unknown) => e);
    expect((timedOut as InferenceError).category).toBe('timeout');
    await provider.dispose();
  });
});

describe('llama.cpp tool grammar', () => {
  it('reads calls, answers and anything else without dropping it', () => {
    expect(parseToolEnvelope('{"type":"answer","text":"done"}', 'c')).toEqual({
      text: 'done',
      toolCalls: [],
    });
    expect(parseToolEnvelope('not json', 'c')).toEqual({ text: 'not json', toolCalls: [] });
    expect(parseToolEnvelope('{"type":"tool_call","name":"x"}', 'c').toolCalls[0]).toMatchObject({
      argsRaw: '{}',
      args: {},
    });
  });

  it('turns messages into chat history ending at the user prompt', () => {
    expect(toLlamaChat(request().messages, 'tools...')).toEqual({
      history: [
        { type: 'system', text: 'Be careful.\n\ntools...' },
        { type: 'user', text: 'first' },
        { type: 'model', response: ['ok'] },
      ],
      prompt: 'write it',
    });
    expect(() => toLlamaChat([{ role: 'assistant', content: 'x' }], undefined)).toThrow(
      /must end with a user message or a tool result/,
    );
  });

  it('spells optional properties out as objects of exactly the declared keys', () => {
    expect(toGrammarSchema(writeFile.inputSchema)).toEqual({
      oneOf: [
        { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } } },
        {
          type: 'object',
          properties: {
            path: { type: 'string' },
            content: { type: 'string' },
            mode: { type: 'string', enum: ['create', 'overwrite'] },
          },
        },
      ],
    });
  });

  it('renders tool calls as function-call history items carrying their results', () => {
    const chat = toLlamaChat(
      [
        { role: 'system', content: 'Be careful.' },
        { role: 'user', content: 'Task: write it' },
        {
          role: 'assistant',
          content: 'Looking first.',
          toolCalls: [
            { callId: 'a.1.1.1', name: 'read_file', argsRaw: '{"path":"a"}' },
            { callId: 'a.1.1.2', name: 'list_dir', argsRaw: '{"path":"."}' },
          ],
        },
        { role: 'tool', callId: 'a.1.1.1', toolName: 'read_file', content: 'A' },
        { role: 'tool', callId: 'a.1.1.2', toolName: 'list_dir', content: 'a b' },
      ],
      undefined,
    );
    expect(chat).toEqual({
      history: [
        { type: 'system', text: 'Be careful.' },
        { type: 'user', text: 'Task: write it' },
        {
          type: 'model',
          response: [
            'Looking first.',
            {
              type: 'functionCall',
              name: 'read_file',
              params: { path: 'a' },
              result: 'A',
              startsNewChunk: true,
            },
            { type: 'functionCall', name: 'list_dir', params: { path: '.' }, result: 'a b' },
          ],
        },
      ],
      prompt: CONTINUE_PROMPT,
    });
  });

  it('builds a one-of envelope of every tool plus a plain answer', () => {
    const schema = toolCallEnvelopeSchema([writeFile]) as {
      oneOf: { properties: { name?: { const: string } } }[];
    };
    expect(schema.oneOf).toHaveLength(2);
    expect(schema.oneOf[0]!.properties.name).toEqual({ const: 'write_file' });
  });
});

const nodeLlamaCpp = await import('node-llama-cpp').catch(() => undefined);

describe.skipIf(nodeLlamaCpp === undefined)(
  'llama.cpp tool grammar against the real node-llama-cpp (no model needed)',
  () => {
    it('compiles the envelope of zod-generated tool schemas into a GBNF grammar', async () => {
      const llama = await nodeLlamaCpp!.getLlama({
        gpu: false,
        build: 'never',
        progressLogs: false,
      });
      try {
        const grammar = await llama.createGrammarForJsonSchema(
          toolCallEnvelopeSchema([writeFile]) as never,
        );
        expect(grammar.grammar).toContain('"\\"write_file\\""');
        const parsed = grammar.parse(
          '{"type": "tool_call", "name": "write_file", "arguments": {"path": "a", "content": "b"}}',
        ) as unknown;
        expect(parsed).toMatchObject({ name: 'write_file', arguments: { path: 'a' } });
      } finally {
        await llama.dispose();
      }
    });
  },
);

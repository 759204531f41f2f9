import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InferenceRequest } from '../../src/core/inference/inference-request.js';
import { LlamaCppProvider } from '../../src/infrastructure/providers/llama-cpp-provider.js';
import { tempDir } from '../support/temp-dir.js';
import { writeTinyGguf } from '../support/tiny-gguf.js';

/*
 * The local provider against node-llama-cpp's real prebuilt binary and a GGUF this test writes
 * (random weights): grammar-constrained calls, native tool history through the model's chat
 * template, and usage that counts the reused prompt prefix as cached input.
 */
const nodeLlamaCpp = await import('node-llama-cpp').catch(() => undefined);
const available =
  (await nodeLlamaCpp
    ?.getLlama({ gpu: false, build: 'never', progressLogs: false })
    .then(async (llama) => (await llama.dispose(), true))
    .catch(() => false)) === true;

const readFile = {
  name: 'read_file',
  description: 'Read a file',
  inputSchema: {
    type: 'object',
    properties: { path: { type: 'string', minLength: 1, maxLength: 4096 } },
    required: ['path'],
    additionalProperties: false,
  },
};
const finishNote = {
  name: 'finish_note',
  description: 'Finish',
  inputSchema: {
    type: 'object',
    properties: { status: { enum: ['done'] } },
    required: ['status'],
    additionalProperties: false,
  },
};

describe.skipIf(!available)('LlamaCppProvider on a tiny GGUF', () => {
  let provider: LlamaCppProvider;
  beforeAll(async () => {
    const path = join(tempDir('correx-tiny-gguf-'), 'tiny.gguf');
    writeTinyGguf(path);
    provider = await LlamaCppProvider.load({
      modelPath: path,
      gpu: false,
      threads: 1,
      contextSize: 2048,
    });
  });
  afterAll(async () => {
    await provider?.dispose();
  });

  const request = (messages: InferenceRequest['messages']): InferenceRequest => ({
    model: 'tiny',
    messages,
    tools: [readFile, finishNote],
    limits: { maxOutputTokens: 200, timeoutMs: 60_000 },
  });

  it('answers only with a well-formed call of a declared tool, renders native history, and counts cached input', async () => {
    const system = { role: 'system' as const, content: 'You are careful. '.repeat(20) };
    const first = await provider.infer(
      request([system, { role: 'user', content: 'Task: read a' }]),
    );
    expect(first.toolCalls).toHaveLength(1);
    const [call] = first.toolCalls;
    expect(['read_file', 'finish_note']).toContain(call!.name);
    expect(call!.args).toBeDefined();
    expect(first.usage.cachedInputTokens).toBe(0);

    const second = await provider.infer(
      request([
        system,
        { role: 'user', content: 'Task: read a' },
        {
          role: 'assistant',
          content: '',
          toolCalls: [{ callId: 'x.1.1.1', name: call!.name, argsRaw: call!.argsRaw }],
        },
        { role: 'tool', callId: 'x.1.1.1', toolName: call!.name, content: 'contents of a' },
      ]),
    );
    expect(second.toolCalls).toHaveLength(1);
    // The system text and the task were evaluated by the first call: read from the cache now.
    expect(second.usage.cachedInputTokens).toBeGreaterThan(0);
    expect(second.usage.inputTokens).toBeGreaterThan(second.usage.cachedInputTokens!);
  });
});

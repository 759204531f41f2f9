import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { LlamaCppProvider } from '../../src/infrastructure/providers/llama-cpp-provider.js';
import { tempDir } from '../support/temp-dir.js';
import { writeTinyGguf } from '../support/tiny-gguf.js';
import { createAnthropicProvider } from '../../src/infrastructure/providers/anthropic-provider.js';
import { createOpenAICompatibleProvider } from '../../src/infrastructure/providers/openai-compatible-provider.js';
import { createScriptedProvider } from '../../src/infrastructure/providers/scripted-provider.js';
import {
  inferenceProviderContract,
  type ContractAnswer,
  type InferenceProviderHarness,
} from '../../src/testing/inference-provider-contract.js';
import {
  hang,
  json,
  sse,
  startFakeHttpServer,
  type FakeHandler,
  type FakeHttpServer,
} from '../providers/fake-http-server.js';
import { message, messageStream } from '../providers/anthropic-wire.js';
import { chatCompletion, chatCompletionStream } from '../providers/openai-wire.js';

/**
 * Every InferenceProvider runs the same contract: the HTTP providers against a loopback server
 * speaking their real wire format (streaming and not), the scripted model directly.
 */
let server: FakeHttpServer;
beforeAll(async () => {
  server = await startFakeHttpServer();
});
afterAll(async () => {
  await server.close();
});

const calls = (answer: ContractAnswer) =>
  answer.kind === 'tool_calls'
    ? answer.calls.map((call, index) => ({
        id: `call_${index + 1}`,
        name: call.name,
        args: call.args,
      }))
    : [];

function openAIWire(answer: ContractAnswer, streaming: boolean): FakeHandler {
  if (answer.kind === 'hang') return hang;
  const toolCalls = calls(answer).map((call) => ({
    id: call.id,
    name: call.name,
    arguments: JSON.stringify(call.args),
  }));
  const text = answer.kind === 'text' ? answer.text : undefined;
  if (streaming)
    return sse(
      chatCompletionStream({
        ...(text === undefined ? {} : { text: [text.slice(0, 4), text.slice(4)] }),
        ...(toolCalls.length === 0 ? {} : { toolCalls }),
      }),
    );
  return json(
    200,
    chatCompletion({
      content: text ?? null,
      ...(toolCalls.length === 0 ? {} : { toolCalls }),
    }),
  );
}

function anthropicWire(answer: ContractAnswer, streaming: boolean): FakeHandler {
  if (answer.kind === 'hang') return hang;
  const uses = calls(answer);
  const text = answer.kind === 'text' ? answer.text : undefined;
  if (streaming)
    return sse(
      messageStream({
        ...(text === undefined ? {} : { text: [text.slice(0, 4), text.slice(4)] }),
        ...(uses.length === 0
          ? {}
          : {
              toolUses: uses.map((use) => ({
                id: use.id,
                name: use.name,
                input: JSON.stringify(use.args),
              })),
            }),
      }),
    );
  return json(
    200,
    message({
      ...(text === undefined ? {} : { text }),
      ...(uses.length === 0
        ? {}
        : { toolUses: uses.map((use) => ({ id: use.id, name: use.name, input: use.args })) }),
    }),
  );
}

const harnesses: Record<string, InferenceProviderHarness> = {};
for (const streaming of [false, true]) {
  harnesses[`OpenAI-compatible (streaming: ${streaming})`] = {
    answering: async (answer) => {
      server.reply(openAIWire(answer, streaming));
      return {
        provider: createOpenAICompatibleProvider({
          name: 'openai-compatible:contract',
          baseURL: `${server.url}/v1`,
          apiKey: 'sk-contract',
          streaming,
        }),
        close: async () => {},
      };
    },
  };
  harnesses[`Anthropic (streaming: ${streaming})`] = {
    answering: async (answer) => {
      server.reply(anthropicWire(answer, streaming));
      return {
        provider: createAnthropicProvider({
          name: 'anthropic:contract',
          baseURL: `${server.url}/v1`,
          apiKey: 'sk-ant-contract',
          streaming,
        }),
        close: async () => {},
      };
    },
  };
}
harnesses['scripted'] = {
  answering: async (answer) => ({
    provider: createScriptedProvider({
      turns: [
        answer.kind === 'hang'
          ? { hang: true }
          : answer.kind === 'text'
            ? { text: answer.text }
            : { toolCalls: answer.calls.map((call) => ({ name: call.name, args: call.args })) },
      ],
    }),
    close: async () => {},
  }),
};

for (const [name, harness] of Object.entries(harnesses)) {
  describe(`InferenceProvider contract: ${name}`, () => {
    for (const contractCase of inferenceProviderContract(harness))
      it(contractCase.name, contractCase.run);
  });
}

/*
 * The local provider: node-llama-cpp's real prebuilt binary on a GGUF the test writes (random
 * weights), so it answers what it generates and the contract checks the shape of it.
 */
const nodeLlamaCpp = await import('node-llama-cpp').catch(() => undefined);
const llamaAvailable =
  (await nodeLlamaCpp
    ?.getLlama({ gpu: false, build: 'never', progressLogs: false })
    .then(async (llama) => (await llama.dispose(), true))
    .catch(() => false)) === true;
describe.skipIf(!llamaAvailable)('InferenceProvider contract: llama.cpp (a tiny GGUF)', () => {
  let local: LlamaCppProvider | undefined;
  beforeAll(async () => {
    const path = join(tempDir('correx-contract-gguf-'), 'tiny.gguf');
    writeTinyGguf(path);
    local = await LlamaCppProvider.load({
      modelPath: path,
      gpu: false,
      threads: 1,
      contextSize: 2048,
    });
  }, 60_000);
  afterAll(async () => {
    await local?.dispose();
  });
  const harness: InferenceProviderHarness = {
    generates: true,
    answering: async () => ({ provider: local!, close: async () => {} }),
  };
  for (const contractCase of inferenceProviderContract(harness))
    it(contractCase.name, contractCase.run, 60_000);
});

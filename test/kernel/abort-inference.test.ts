import { describe, expect, it } from 'vitest';
import type { InferenceProvider } from '../../src/core/inference/inference-provider.js';
import type { InferenceResult } from '../../src/core/inference/inference-result.js';
import { kernelProjection } from '../../src/core/kernel/index.js';
import { runEffect } from '../../src/core/kernel/runner/run-effect.js';
import { livePorts, newClock, scenarioConfig } from './kernel-harness.js';

/*
 * A local generation may ignore its abort for a while (a native call between two token checks).
 * The runner must not wait for it, and must never record what it answers after the abort.
 */
const answer: InferenceResult = {
  text: 'late',
  toolCalls: [],
  finishReason: 'stop',
  usage: { inputTokens: 1, outputTokens: 1 },
  modelId: 'm',
  latencyMs: 1,
};

/** A provider that answers only when the test says so, whatever its signal says. */
function deafProvider() {
  let release: (result: InferenceResult) => void = () => {};
  let fail: (error: unknown) => void = () => {};
  const provider: InferenceProvider = {
    name: 'scripted',
    infer: () =>
      new Promise<InferenceResult>((resolve, reject) => {
        release = resolve;
        fail = reject;
      }),
  };
  return { provider, release: (r: InferenceResult) => release(r), fail: (e: unknown) => fail(e) };
}

const effect = {
  type: 'infer' as const,
  requestId: 'implement.1.1',
  provider: 'scripted',
  requestDigest: 'd',
  request: {
    model: 'm',
    messages: [{ role: 'user' as const, content: 'hi' }],
    tools: [],
    limits: { maxOutputTokens: 8, timeoutMs: 60_000 },
  },
};

describe('an aborted model call', () => {
  const context = (provider: InferenceProvider) => ({
    config: scenarioConfig(),
    ports: livePorts(provider),
    clock: newClock(),
  });

  it('stops the runner waiting at once and records nothing, even if the answer comes later', async () => {
    const deaf = deafProvider();
    const controller = new AbortController();
    const running = runEffect(
      context(deaf.provider),
      kernelProjection.initial(),
      effect,
      controller.signal,
    );
    controller.abort();
    // Resolves although the provider has not answered.
    expect(await running).toEqual([]);
    deaf.release(answer);
  });

  it('records nothing for an answer that arrives after the abort was signalled', async () => {
    const controller = new AbortController();
    const provider: InferenceProvider = {
      name: 'scripted',
      infer: () => {
        controller.abort();
        return Promise.resolve(answer);
      },
    };
    expect(
      await runEffect(context(provider), kernelProjection.initial(), effect, controller.signal),
    ).toEqual([]);
  });

  it('records nothing for a failure that arrives after the abort', async () => {
    const deaf = deafProvider();
    const controller = new AbortController();
    const running = runEffect(
      context(deaf.provider),
      kernelProjection.initial(),
      effect,
      controller.signal,
    );
    controller.abort();
    deaf.fail(new Error('native generation interrupted'));
    expect(await running).toEqual([]);
  });

  it('still records an answer that came before any abort', async () => {
    const provider: InferenceProvider = { name: 'scripted', infer: () => Promise.resolve(answer) };
    const events = await runEffect(
      context(provider),
      kernelProjection.initial(),
      effect,
      new AbortController().signal,
    );
    expect(events).toMatchObject([{ type: 'inference_completed', result: { text: 'late' } }]);
  });
});

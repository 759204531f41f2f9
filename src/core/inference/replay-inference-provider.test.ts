import { describe, expect, it } from 'vitest';
import type { InferenceRequest } from './inference-request.js';
import type { InferenceResult } from './inference-result.js';
import {
  createReplayInferenceProvider,
  recordedInferences,
  ReplayMissingRecordingError,
} from './replay-inference-provider.js';
import { inferenceRequestDigest } from './request-digest.js';

const request = (content: string): InferenceRequest => ({
  model: 'm',
  messages: [{ role: 'user', content }],
  tools: [],
  limits: { maxOutputTokens: 100, timeoutMs: 1000 },
});
const result = (text: string): InferenceResult => ({
  text,
  toolCalls: [],
  finishReason: 'stop',
  usage: { inputTokens: 1, outputTokens: 1 },
  modelId: 'm',
  latencyMs: 5,
});

describe('ReplayInferenceProvider', () => {
  it('answers recorded requests in recorded order and each recording once', async () => {
    const digest = inferenceRequestDigest(request('a'));
    const provider = createReplayInferenceProvider({
      recordings: recordedInferences([
        { type: 'stage_started' },
        { type: 'inference_completed', requestDigest: digest, result: result('first') } as {
          type: string;
        },
        { type: 'inference_completed', requestDigest: digest, result: result('second') } as {
          type: string;
        },
      ]),
    });
    expect(provider.remaining()).toBe(2);
    expect((await provider.infer(request('a'))).text).toBe('first');
    expect((await provider.infer(request('a'))).text).toBe('second');
    await expect(provider.infer(request('a'))).rejects.toBeInstanceOf(ReplayMissingRecordingError);
  });

  it('fails, never guesses, for a request that was not recorded', async () => {
    const provider = createReplayInferenceProvider({
      recordings: [{ requestDigest: inferenceRequestDigest(request('a')), result: result('x') }],
    });
    const error = await provider.infer(request('b')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReplayMissingRecordingError);
    expect((error as ReplayMissingRecordingError).code).toBe('replay_missing_recording');
    expect((error as ReplayMissingRecordingError).requestDigest).toBe(
      inferenceRequestDigest(request('b')),
    );
  });

  it('digests requests canonically: key order does not matter, content does', () => {
    const a = request('a');
    const reordered = { limits: a.limits, tools: a.tools, messages: a.messages, model: a.model };
    expect(inferenceRequestDigest(reordered)).toBe(inferenceRequestDigest(a));
    expect(inferenceRequestDigest({ ...a, limits: { ...a.limits, temperature: 0 } })).not.toBe(
      inferenceRequestDigest(a),
    );
  });
});

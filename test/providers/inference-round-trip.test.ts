import { describe, expect, it } from 'vitest';
import { buildContextPack } from '../../src/core/context/build-context-pack.js';
import {
  contextPackDigest,
  renderContextPack,
} from '../../src/core/context/render-context-pack.js';
import { createEstimatingTokenizer } from '../../src/core/context/tokenizer.js';
import { correxEventCatalog, type EventPayload } from '../../src/core/event-catalog.js';
import { createInMemoryEventStore } from '../../src/core/events/in-memory-event-store.js';
import { replay } from '../../src/core/events/replay.js';
import { inferenceFailedPayload } from '../../src/core/inference/inference-events.js';
import { InferenceError } from '../../src/core/inference/inference-failure.js';
import { createInferenceRouter } from '../../src/core/inference/inference-router.js';
import type { InferenceRequest } from '../../src/core/inference/inference-request.js';
import {
  createReplayInferenceProvider,
  recordedInferences,
  ReplayMissingRecordingError,
} from '../../src/core/inference/replay-inference-provider.js';
import { inferenceRequestDigest } from '../../src/core/inference/request-digest.js';
import { tokenUsageProjection } from '../../src/core/inference/token-usage-projection.js';
import { createScriptedProvider } from '../../src/infrastructure/providers/scripted-provider.js';

/**
 * One inference turn end to end, the way the kernel will drive it: route, build the pack, call
 * the provider, record the three events, then replay the answers without any provider.
 */
describe('inference round trip', () => {
  it('records what the model saw and answers replay from the recording only', async () => {
    const router = createInferenceRouter({
      profiles: [
        {
          id: 'scripted',
          provider: 'scripted',
          model: 'demo',
          capabilities: ['tool_calling'],
          contextWindow: 8000,
        },
      ],
    });
    const route = router.route({
      stageId: 'implement',
      requiredCapabilities: [],
      allowedTools: ['read_file'],
    });
    if (!route.ok) throw new Error('no route');
    const pack = buildContextPack(
      {
        stageId: 'implement',
        candidates: [
          {
            id: 'task',
            layer: 'L1',
            kind: 'task',
            source: { kind: 'event', id: 'ev-1' },
            content: 'Fix the parser.',
            order: 1,
          },
        ],
      },
      { maxTokens: route.profile.contextWindow, reserveForOutput: 1000 },
      createEstimatingTokenizer(),
    );
    const messages = renderContextPack(pack);
    const request: InferenceRequest = {
      model: route.profile.model,
      messages,
      tools: [{ name: 'read_file', description: 'Read a file', inputSchema: { type: 'object' } }],
      limits: { maxOutputTokens: 1000, timeoutMs: 10_000 },
    };
    const provider = createScriptedProvider({
      turns: [
        {
          text: 'Reading.',
          toolCalls: [{ name: 'read_file', args: { path: 'src/p.ts' } }],
          usage: { inputTokens: 120, outputTokens: 9 },
        },
        { fail: { category: 'provider_down', message: 'HTTP 503' } },
      ],
    });
    const requestDigest = inferenceRequestDigest(request);
    const result = await provider.infer(request);
    const failure = (await provider.infer(request).catch((e: unknown) => e)) as InferenceError;
    expect(failure).toBeInstanceOf(InferenceError);

    const payloads: EventPayload[] = [
      {
        type: 'inference_requested',
        requestId: 'inference-1',
        stageId: 'implement',
        provider: provider.name,
        model: request.model,
        profileId: route.profile.id,
        packDigest: contextPackDigest(messages),
        requestDigest,
        tokenEstimate: pack.totalTokens,
        toolNames: ['read_file'],
        manifest: pack.manifest,
      },
      {
        type: 'inference_completed',
        requestId: 'inference-1',
        provider: provider.name,
        requestDigest,
        result,
      },
      {
        type: 'inference_requested',
        requestId: 'inference-2',
        stageId: 'implement',
        provider: provider.name,
        model: request.model,
        profileId: route.profile.id,
        packDigest: contextPackDigest(messages),
        requestDigest,
        tokenEstimate: pack.totalTokens,
        toolNames: ['read_file'],
        manifest: pack.manifest,
      },
      inferenceFailedPayload('inference-2', request.model, failure),
    ];
    const store = createInMemoryEventStore({ catalog: correxEventCatalog });
    await store.appendAll(
      payloads.map((payload, index) => ({
        eventId: `e${index}`,
        sessionId: 'session-1',
        timestamp: '2026-11-30T12:00:00.000Z',
        causationId: null,
        correlationId: 'turn-1',
        payload,
      })),
    );
    const events = await store.read('session-1');
    expect(events.map((e) => e.payload.type)).toEqual([
      'inference_requested',
      'inference_completed',
      'inference_requested',
      'inference_failed',
    ]);
    const usage = (await replay(store, tokenUsageProjection, 'session-1')).state;
    expect(usage.byStage.implement).toEqual({
      calls: 2,
      failedCalls: 1,
      inputTokens: 120,
      cachedInputTokens: 0,
      outputTokens: 9,
      estimatedTokens: 2 * pack.totalTokens,
    });
    expect(usage.pending).toEqual({});

    const replayProvider = createReplayInferenceProvider({
      recordings: recordedInferences(events.map((e) => e.payload)),
    });
    expect(await replayProvider.infer(request)).toEqual(result);
    await expect(replayProvider.infer({ ...request, model: 'other' })).rejects.toBeInstanceOf(
      ReplayMissingRecordingError,
    );
  });
});

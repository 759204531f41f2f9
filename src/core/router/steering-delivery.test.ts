import { describe, expect, it } from 'vitest';
import { createFixedClock } from '../base/clock.js';
import { createCountingIdSource } from '../base/id-source.js';
import { buildContextPack } from '../context/build-context-pack.js';
import { steeringNoteCandidate } from '../context/steering-note.js';
import { createEstimatingTokenizer } from '../context/tokenizer.js';
import { correxEventCatalog, type CorrexEventStore, type EventPayload } from '../event-catalog.js';
import { createInMemoryEventStore } from '../events/in-memory-event-store.js';
import type { InferenceProvider } from '../inference/inference-provider.js';
import { createInferenceRouter } from '../inference/inference-router.js';
import { createRouterFacade } from './router-facade.js';
import { describeSteeringDelivery, steeringDeliveriesOf } from './steering-delivery.js';

const clock = createFixedClock('2026-11-30T12:00:00.000Z');
const digest = 'a'.repeat(64);

type Note = { eventId: string; sequence: number; content: string; stageId?: string };

/** `inference_requested` as the kernel records it: the manifest of a pack built by core/context. */
function requested(requestId: string, stageId: string, notes: readonly Note[]): EventPayload {
  const pack = buildContextPack(
    {
      stageId,
      candidates: notes.map((note) =>
        steeringNoteCandidate(
          {
            sessionId: 's1',
            content: note.content,
            ...(note.stageId ? { stageId: note.stageId } : {}),
          },
          note.eventId,
          note.sequence,
        ),
      ),
    },
    { maxTokens: 4000 },
    createEstimatingTokenizer(),
  );
  return {
    type: 'inference_requested',
    requestId,
    stageId,
    provider: 'p',
    model: 'm',
    profileId: 'default',
    packDigest: digest,
    requestDigest: digest,
    tokenEstimate: pack.totalTokens,
    toolNames: [],
    manifest: pack.manifest,
  };
}
const completed = (requestId: string): EventPayload => ({
  type: 'inference_completed',
  requestId,
  provider: 'p',
  requestDigest: digest,
  result: {
    text: 'ok',
    toolCalls: [],
    finishReason: 'stop',
    usage: { inputTokens: 1, outputTokens: 1 },
    modelId: 'm',
    latencyMs: 1,
  },
});
const failed = (requestId: string): EventPayload => ({
  type: 'inference_failed',
  requestId,
  provider: 'p',
  model: 'm',
  category: 'timeout',
  message: 'slow',
});
const note = (content: string, stageId?: string): EventPayload => ({
  type: 'steering_note_added',
  sessionId: 's1',
  content,
  ...(stageId === undefined ? {} : { stageId }),
});

/** Appends payloads to s1; event ids are `e<sequence>`. */
async function log(store: CorrexEventStore, payloads: readonly EventPayload[]) {
  for (const payload of payloads) {
    const sequence = (await store.lastSequence('s1')) + 1;
    await store.append({
      eventId: `e${sequence}`,
      sessionId: 's1',
      timestamp: clock.now(),
      payload,
    });
  }
}
const newStore = () => createInMemoryEventStore({ catalog: correxEventCatalog });
const n2: Note = { eventId: 'e2', sequence: 2, content: 'Use pnpm.' };

describe('steeringDeliveriesOf', () => {
  it('a note no pack has carried yet is pending', async () => {
    const store = newStore();
    await log(store, [
      { type: 'workflow_started', workflowId: 'w', firstStageId: 'plan' },
      note('Use pnpm.'),
    ]);
    const [delivery] = await steeringDeliveriesOf(store, 's1');
    expect(delivery).toEqual({
      noteEventId: 'e2',
      noteSequence: 2,
      content: 'Use pnpm.',
      stageId: null,
      recordedAt: clock.now(),
      deliveredIn: null,
      seenBy: null,
    });
    expect(describeSteeringDelivery(delivery!)).toBe(
      'steering note #2 waits for the next context pack',
    );
  });

  it('delivered in the first pack whose manifest lists it, seen by the call that was answered', async () => {
    const store = newStore();
    await log(store, [
      { type: 'workflow_started', workflowId: 'w', firstStageId: 'plan' },
      note('Use pnpm.'),
      requested('r1', 'plan', [n2]),
      failed('r1'),
      requested('r2', 'plan', [n2]),
      completed('r2'),
      requested('r3', 'plan', [n2]),
      completed('r3'),
    ]);
    const [delivery] = await steeringDeliveriesOf(store, 's1');
    expect(delivery!.deliveredIn).toEqual({
      requestId: 'r1',
      sequence: 3,
      stageId: 'plan',
      timestamp: clock.now(),
    });
    expect(delivery!.seenBy).toEqual({ requestId: 'r2', sequence: 6, timestamp: clock.now() });
    expect(describeSteeringDelivery(delivery!)).toBe(
      'steering note #2 delivered in the pack of request r1 (stage plan) at #3; first answered by request r2 at #6',
    );
  });

  it('a note for another stage waits for a pack of its stage; a duplicate of an included note counts', async () => {
    const store = newStore();
    const forVerify: Note = {
      eventId: 'e2',
      sequence: 2,
      content: 'Only run date tests.',
      stageId: 'verify',
    };
    const twin: Note = { eventId: 'e3', sequence: 3, content: 'Only run date tests.' };
    await log(store, [
      { type: 'workflow_started', workflowId: 'w', firstStageId: 'plan' },
      note(forVerify.content, 'verify'),
      note(twin.content),
      requested('r1', 'plan', [forVerify, twin]),
      completed('r1'),
      requested('r2', 'verify', [forVerify, twin]),
    ]);
    const deliveries = await steeringDeliveriesOf(store, 's1');
    expect(
      deliveries.map((d) => [d.noteEventId, d.deliveredIn?.requestId, d.seenBy?.requestId]),
    ).toEqual([
      ['e2', 'r2', undefined],
      ['e3', 'r1', 'r1'],
    ]);
  });

  it('the facade reports the receipt of the note it recorded, by event id', async () => {
    const store = newStore();
    await log(store, [{ type: 'workflow_started', workflowId: 'w', firstStageId: 'plan' }]);
    const provider: InferenceProvider = {
      name: 'fake',
      infer: async () => ({
        text: 'Noted.',
        toolCalls: [],
        finishReason: 'stop',
        usage: { inputTokens: 1, outputTokens: 1 },
        modelId: 'm',
        latencyMs: 0,
      }),
    };
    const facade = createRouterFacade({
      store,
      router: createInferenceRouter({
        profiles: [
          { id: 'chat', provider: 'fake', model: 'm', capabilities: [], contextWindow: 8192 },
        ],
      }),
      providers: new Map([['fake', provider]]),
      clock,
      ids: createCountingIdSource('note'),
    });
    const reply = await facade.onUserInput('s1', 'Use pnpm.', 'steering');
    const recorded = reply.steeringNote!;
    expect((await facade.deliveryOf('s1', recorded.eventId))?.deliveredIn).toBeNull();
    await log(store, [
      requested('r1', 'plan', [
        { eventId: recorded.eventId, sequence: recorded.sequence, content: 'Use pnpm.' },
      ]),
      completed('r1'),
    ]);
    const receipt = await facade.deliveryOf('s1', recorded.eventId);
    expect(receipt?.deliveredIn).toMatchObject({ requestId: 'r1', sequence: 3 });
    expect(receipt?.seenBy).toMatchObject({ requestId: 'r1', sequence: 4 });
    expect(await facade.deliveryOf('s1', 'no-such-note')).toBeUndefined();
    expect(await facade.deliveriesOf('s1')).toHaveLength(1);
  });
});

import { describe, expect, it } from 'vitest';
import { createFixedClock } from '../base/clock.js';
import { createCountingIdSource } from '../base/id-source.js';
import { correxEventCatalog, type CorrexEventStore, type EventPayload } from '../event-catalog.js';
import { createInMemoryEventStore } from '../events/in-memory-event-store.js';
import { InferenceError } from '../inference/inference-failure.js';
import type { InferenceProvider } from '../inference/inference-provider.js';
import type { InferenceRequest } from '../inference/inference-request.js';
import { createInferenceRouter } from '../inference/inference-router.js';
import {
  RouterInputError,
  RouterSessionFinishedError,
  RouterUnknownSessionError,
  RouterWiringError,
} from './router-errors.js';
import { createRouterFacade, type RouterFacadeOptions } from './router-facade.js';

const clock = createFixedClock('2026-11-30T12:00:00.000Z');

/** A model double: answers with `answer(request)` and records every call. */
function fakeProvider(
  answer: (request: InferenceRequest, signal?: AbortSignal) => string | Promise<string> = () =>
    'All good.',
) {
  const calls: { request: InferenceRequest; signal: AbortSignal | undefined }[] = [];
  const provider: InferenceProvider = {
    name: 'fake',
    async infer(request, signal) {
      calls.push({ request, signal });
      const text = await answer(request, signal);
      return {
        text,
        toolCalls: [],
        finishReason: 'stop',
        usage: { inputTokens: 1, outputTokens: 1 },
        modelId: 'fake-model-1',
        latencyMs: 0,
      };
    },
  };
  return { provider, calls };
}

const router = createInferenceRouter({
  profiles: [
    {
      id: 'chat',
      provider: 'fake',
      model: 'fake-model',
      capabilities: [],
      contextWindow: 8192,
      maxOutputTokens: 512,
    },
  ],
});

const sessionEvents: EventPayload[] = [
  {
    type: 'session_created',
    task: 'Fix dates',
    workspace: '/w',
    workflowId: 'default',
    mode: 'auto',
  },
  { type: 'workflow_started', workflowId: 'default', firstStageId: 'plan' },
  { type: 'stage_started', stageId: 'plan', attempt: 1 },
  { type: 'stage_completed', stageId: 'plan', attempt: 1 },
  { type: 'stage_started', stageId: 'verify', attempt: 1 },
  {
    type: 'stage_failed',
    stageId: 'verify',
    attempt: 1,
    category: 'validation',
    message: '3 tests failing',
  },
];

async function appendAll(
  store: CorrexEventStore,
  sessionId: string,
  payloads: readonly EventPayload[],
) {
  let sequence = await store.lastSequence(sessionId);
  for (const payload of payloads) {
    sequence += 1;
    await store.append({
      eventId: `${sessionId}-k${sequence}`,
      sessionId,
      timestamp: clock.now(),
      payload,
    });
  }
}

async function setup(provider: InferenceProvider, options: Partial<RouterFacadeOptions> = {}) {
  const store = createInMemoryEventStore({ catalog: correxEventCatalog });
  await appendAll(store, 's1', sessionEvents);
  const facade = createRouterFacade({
    store,
    router,
    providers: new Map([['fake', provider]]),
    clock,
    ids: createCountingIdSource('router'),
    ...options,
  });
  return { store, facade };
}

const systemOf = (request: InferenceRequest) => request.messages[0]!.content;

describe('createRouterFacade', () => {
  it('normal mode: asks the model over the router pack, answers, cites known sequences, records nothing', async () => {
    const { provider, calls } = fakeProvider(
      () => 'Stage verify failed at #6: 3 tests failing (not #99).',
    );
    const { store, facade } = await setup(provider);
    const reply = await facade.onUserInput('s1', 'How is it going?', 'normal');
    expect(calls).toHaveLength(1);
    const request = calls[0]!.request;
    expect(request.model).toBe('fake-model');
    expect(request.tools).toEqual([]);
    expect(systemOf(request)).toContain('Workflow status: running.');
    expect(systemOf(request)).toContain(
      '#6 [failure] stage verify attempt 1 failed (validation): 3 tests failing',
    );
    expect(request.messages.at(-1)).toEqual({ role: 'user', content: 'How is it going?' });
    expect(reply).toEqual({
      sessionId: 's1',
      mode: 'normal',
      content: 'Stage verify failed at #6: 3 tests failing (not #99).',
      citedSequences: [6],
      steeringNote: null,
      asOfSequence: 6,
      provider: 'fake',
      model: 'fake-model-1',
    });
    expect(await store.lastSequence('s1')).toBe(6);
  });

  it('steering mode: answers and records the input as steering_note_added, the only event it writes', async () => {
    const { provider, calls } = fakeProvider(() => 'Noted: the agent will use pnpm.');
    const { store, facade } = await setup(provider);
    const reply = await facade.onUserInput('s1', 'Use pnpm, not npm.', 'steering');
    expect(calls).toHaveLength(1);
    expect(systemOf(calls[0]!.request)).toContain('steering note');
    const events = await store.read('s1', { afterSequence: 6 });
    expect(events.map((e) => e.payload)).toEqual([
      { type: 'steering_note_added', sessionId: 's1', content: 'Use pnpm, not npm.' },
    ]);
    expect(reply.steeringNote).toEqual({ eventId: events[0]!.eventId, sequence: 7 });
    expect(reply.content).toBe('Noted: the agent will use pnpm.');
  });

  it('remembers the conversation per turn, capped at keepLast * 2, and sends at most keepLast turns', async () => {
    const { provider, calls } = fakeProvider((request) => `answer ${request.messages.length}`);
    const { facade } = await setup(provider, { config: { conversationKeepLast: 2 } });
    await facade.onUserInput('s1', 'q1');
    expect(facade.historyOf('s1').map((t) => t.role)).toEqual(['user', 'router']);
    for (const question of ['q2', 'q3', 'q4']) await facade.onUserInput('s1', question);
    expect(facade.historyOf('s1').map((t) => t.content)).toEqual([
      'q3',
      'answer 3',
      'q4',
      'answer 3',
    ]);
    // System message, then the last two turns (the previous answer and the question).
    expect(calls.at(-1)!.request.messages.slice(1)).toEqual([
      { role: 'assistant', content: 'answer 3' },
      { role: 'user', content: 'q4' },
    ]);
  });

  it('loads fresh state from the log once per input', async () => {
    const { provider, calls } = fakeProvider();
    const store = createInMemoryEventStore({ catalog: correxEventCatalog });
    await appendAll(store, 's1', sessionEvents);
    let streams = 0;
    const counting = Object.create(store) as CorrexEventStore;
    counting.stream = (sessionId, options) => {
      streams += 1;
      return store.stream(sessionId, options);
    };
    const facade = createRouterFacade({
      store: counting,
      router,
      providers: new Map([['fake', provider]]),
      clock,
      ids: createCountingIdSource('router'),
    });
    await facade.onUserInput('s1', 'status?');
    expect(streams).toBe(1);
    await appendAll(store, 's1', [{ type: 'orchestration_paused', by: 'ana' }]);
    const reply = await facade.onUserInput('s1', 'and now?');
    expect(streams).toBe(2);
    expect(systemOf(calls[1]!.request)).toContain('Workflow status: paused.');
    expect(reply.asOfSequence).toBe(7);
  });

  it("keeps conversations apart: one session never sees another session's turns", async () => {
    const { provider, calls } = fakeProvider();
    const { store, facade } = await setup(provider);
    await appendAll(store, 's2', sessionEvents.slice(0, 2));
    await facade.onUserInput('s1', 'secret question for s1');
    await facade.onUserInput('s2', 'hello from s2');
    expect(JSON.stringify(calls[1]!.request.messages)).not.toContain('secret question');
    expect(facade.historyOf('s2').map((t) => t.content)).toEqual(['hello from s2', 'All good.']);
    expect(facade.historyOf('s1')).toHaveLength(2);
    facade.forget('s1');
    expect(facade.historyOf('s1')).toEqual([]);
    expect(facade.historyOf('s2')).toHaveLength(2);
  });

  it('passes the AbortSignal to the provider; a cancelled call records and remembers nothing', async () => {
    let started!: () => void;
    const inFlight = new Promise<void>((resolve) => (started = resolve));
    const { provider, calls } = fakeProvider(
      (_request, signal) =>
        new Promise<string>((_resolve, reject) => {
          signal!.addEventListener('abort', () =>
            reject(
              new InferenceError({ category: 'cancelled', provider: 'fake', message: 'aborted' }),
            ),
          );
          started();
        }),
    );
    const { store, facade } = await setup(provider);
    const controller = new AbortController();
    const pending = facade.onUserInput('s1', 'Stop using moment.', 'steering', controller.signal);
    await inFlight;
    expect(calls[0]!.signal).toBe(controller.signal);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ category: 'cancelled' });
    expect(await store.lastSequence('s1')).toBe(6);
    expect(facade.historyOf('s1')).toEqual([]);

    // Already aborted: the provider is not even called.
    await expect(
      facade.onUserInput('s1', 'again', 'normal', controller.signal),
    ).rejects.toBeInstanceOf(InferenceError);
    expect(calls).toHaveLength(1);
  });

  it('a failing provider: the error propagates, no note is recorded, nothing is remembered', async () => {
    const { provider } = fakeProvider(() => {
      throw new InferenceError({ category: 'provider_down', provider: 'fake', message: 'down' });
    });
    const { store, facade } = await setup(provider);
    await expect(facade.onUserInput('s1', 'Use pnpm.', 'steering')).rejects.toMatchObject({
      category: 'provider_down',
    });
    expect(await store.lastSequence('s1')).toBe(6);
    expect(facade.historyOf('s1')).toEqual([]);
  });

  it('refuses a steering note to a finished session before asking the model, recording nothing', async () => {
    const { provider, calls } = fakeProvider();
    const { store, facade } = await setup(provider);
    await appendAll(store, 's1', [{ type: 'workflow_completed', finalStageId: 'verify' }]);
    const refusal = facade.onUserInput('s1', 'Use pnpm.', 'steering');
    await expect(refusal).rejects.toBeInstanceOf(RouterSessionFinishedError);
    await expect(refusal).rejects.toThrow(
      'session s1 is completed; a steering note could never reach its model',
    );
    expect(calls).toHaveLength(0);
    expect(await store.lastSequence('s1')).toBe(7);
    // A question about it is still answered.
    expect((await facade.onUserInput('s1', 'How did it end?')).steeringNote).toBeNull();
  });

  it('a steering note goes after events the running session appended meanwhile, once', async () => {
    const store = createInMemoryEventStore({ catalog: correxEventCatalog });
    await appendAll(store, 's1', sessionEvents);
    const { provider } = fakeProvider(async () => {
      // The kernel, in another process, moves on while the router is thinking.
      await appendAll(store, 's1', [{ type: 'stage_started', stageId: 'verify', attempt: 2 }]);
      return 'Noted.';
    });
    const facade = createRouterFacade({
      store,
      router,
      providers: new Map([['fake', provider]]),
      clock,
      ids: createCountingIdSource('router'),
    });
    const reply = await facade.onUserInput('s1', 'Run only the date tests.', 'steering');
    const tail = await store.read('s1', { afterSequence: 6 });
    expect(tail.map((e) => e.payload.type)).toEqual(['stage_started', 'steering_note_added']);
    expect(reply.steeringNote).toEqual({ eventId: 'router-000001', sequence: 8 });
  });

  it('refuses empty input, steering an unknown session, and a missing profile or provider', async () => {
    const { provider, calls } = fakeProvider();
    const { facade } = await setup(provider);
    await expect(facade.onUserInput('s1', '   ')).rejects.toBeInstanceOf(RouterInputError);
    await expect(facade.onUserInput('nope', 'Use pnpm.', 'steering')).rejects.toBeInstanceOf(
      RouterUnknownSessionError,
    );
    expect(calls).toHaveLength(0);
    const { facade: unwired } = await setup(provider, { providers: new Map() });
    await expect(unwired.onUserInput('s1', 'hi')).rejects.toBeInstanceOf(RouterWiringError);
    const { facade: unrouted } = await setup(provider, {
      router: createInferenceRouter({ profiles: [] }),
    });
    await expect(unrouted.onUserInput('s1', 'hi')).rejects.toBeInstanceOf(RouterWiringError);
  });
});

import { describe, expect, it, vi } from 'vitest';
import {
  correxEventCatalog,
  type CorrexEvent,
  type CorrexEventStore,
} from '../../src/core/event-catalog.js';
import { effectResultTypes } from '../../src/core/kernel/decider/effect.js';
import { recordCommand, runSession, startSession } from '../../src/core/kernel/index.js';
import type { ToolRunner } from '../../src/core/kernel/runner/kernel-ports.js';
import { createBuiltinToolRunner } from '../../src/infrastructure/kernel/builtin-tool-runner.js';
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
  scriptedModel,
} from './kernel-harness.js';

const stores = closeStoresAfterEach();

type Batch = readonly { readonly eventId: string; readonly payload: { readonly type: string } }[];

/**
 * The store a runner writes to, with every batch it appends written down; `before` runs ahead of
 * an append (as another process appending first would).
 */
function recordingStore(store: CorrexEventStore, before?: (batch: Batch) => Promise<void>) {
  const batches: Batch[] = [];
  const wrapped = new Proxy(store, {
    get(target, property, receiver) {
      if (property !== 'appendAll') {
        const value = Reflect.get(target, property, receiver) as unknown;
        // The store keeps private fields: its methods must run on the store itself.
        return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
      }
      return async (events: Parameters<CorrexEventStore['appendAll']>[0], options?: object) => {
        await before?.(events);
        const stored = await target.appendAll(events, options);
        batches.push(events);
        return stored;
      };
    },
  });
  return { store: wrapped, batches };
}

async function start(store: CorrexEventStore, sessionId: string, workspace: string) {
  const config = scenarioConfig({ workflow: implementOnlyWorkflow() });
  const model = scriptedModel([
    { toolCalls: [{ name: 'write_file', args: { path: 'notes.txt', content: 'one\n' } }] },
    { text: JSON.stringify({ summary: 'done', filesChanged: ['notes.txt'] }) },
  ]);
  const outcome = await runSession(
    { store, sessionId, config, ports: livePorts(model), clock: newClock(), ids: newIds() },
    {
      type: 'start',
      task: 'Write notes.txt',
      workspace,
      workflowId: 'implement-only',
      mode: 'auto',
    },
  );
  return { outcome, config };
}

type Turn = 'read' | 'write' | 'two writes';

/** One model turn of two calls (two reads, a read and a write, two writes), then the answer. */
const turnOf = (kind: Turn) => [
  {
    toolCalls: [
      kind === 'two writes'
        ? { name: 'write_file', args: { path: 'c.txt', content: 'three\n' } }
        : { name: 'read_file', args: { path: 'a.txt' } },
      kind === 'read'
        ? { name: 'read_file', args: { path: 'b.txt' } }
        : { name: 'write_file', args: { path: 'b.txt', content: 'two\n' } },
    ],
  },
  {
    text: JSON.stringify({ summary: 'done', filesChanged: kind === 'read' ? [] : ['b.txt'] }),
  },
];

/**
 * The built-in tools, calling `during` as the `at`-th call starts to run (or, `after`, once it
 * has run). The second read of a turn of reads starts while the first is held (its receipt not
 * yet committed): the probes of both were made together, before either ran
 * (batched-read-only-probes).
 */
function toolsCalling(
  at: number,
  during: () => Promise<void>,
  when: 'before' | 'after' = 'before',
): ToolRunner {
  const tools = createBuiltinToolRunner();
  let ran = 0;
  return {
    async run(...args) {
      ran += 1;
      if (ran === at && when === 'before') await during();
      const receipt = await tools.run(...args);
      if (ran === at && when === 'after') await during();
      return receipt;
    },
  };
}

function startTurn(
  store: CorrexEventStore,
  sessionId: string,
  workspace: string,
  second: Turn,
  tools?: ToolRunner,
  signal?: AbortSignal,
) {
  const config = scenarioConfig({ workflow: implementOnlyWorkflow() });
  const run = startSession(
    {
      store,
      sessionId,
      config,
      ports: livePorts(scriptedModel(turnOf(second)), tools),
      clock: newClock(),
      ids: newIds(),
      ...(signal === undefined ? {} : { signal }),
    },
    {
      type: 'start',
      task: 'Look at a and b',
      workspace,
      workflowId: 'implement-only',
      mode: 'auto',
    },
  );
  return { run, config };
}

const payloadOf = (event: { payload: unknown }) =>
  event.payload as { type: string; callId?: string };
const typesOf = (batch: Batch) =>
  batch.map((event) => `${event.payload.type}:${payloadOf(event).callId ?? ''}`);
/** The call ids of the log's proposals, in order. */
const calls = (events: readonly CorrexEvent[]) =>
  events
    .filter((event) => event.payload.type === 'tool_call_proposed')
    .map((event) => payloadOf(event).callId!);

const isResult = (event: { payload: { type: string } }) =>
  effectResultTypes.has(event.payload.type as CorrexEvent['payload']['type']);

describe('what the live runner commits per effect', () => {
  it("appends an effect's results and the decision that answers them in one transaction", async () => {
    const { workspace, storePath } = scenarioWorkspace({});
    const base = openStore(storePath);
    stores.push(base);
    const { store, batches } = recordingStore(base);
    const { outcome, config } = await start(store, 's-one-commit', workspace);
    expect(outcome.status).toBe('completed');

    const events = await eventsOf(base, 's-one-commit');
    const results = events.filter(isResult);
    expect(results.map((event) => event.payload.type)).toEqual(
      expect.arrayContaining(['inference_completed', 'world_observed', 'tool_receipt']),
    );
    // Every event decided in answer to a result went in with that result.
    let answered = 0;
    for (const result of results) {
      const batch = batches.find((b) => b.some((event) => event.eventId === result.eventId))!;
      const answers = events.filter((event) => event.causationId === result.eventId);
      answered += answers.length;
      for (const answer of answers)
        expect(batch.map((event) => event.eventId)).toContain(answer.eventId);
    }
    expect(answered).toBeGreaterThan(results.length);
    // A batch with no result in it is a command, or the decision that answers a command.
    const resultIds = new Set(results.map((event) => event.eventId));
    for (const batch of batches.filter((b) => !b.some(isResult))) {
      const first = events.find((event) => event.eventId === batch[0]!.eventId)!;
      expect(first.causationId === null || !resultIds.has(first.causationId)).toBe(true);
    }
    await expectReplayIdentical(base, 's-one-commit', config);
  });

  it('appends the results alone when another process appended meanwhile, then decides on the newer state', async () => {
    const { workspace, storePath } = scenarioWorkspace({});
    const base = openStore(storePath);
    stores.push(base);
    let steered = false;
    const { store, batches } = recordingStore(base, async (batch) => {
      if (steered || !batch.some((event) => event.payload.type === 'tool_receipt')) return;
      steered = true;
      // Another process records a steering note between the tool's end and the append.
      await recordCommand({ clock: newClock(), ids: newIds('other') }, base, 's-conflict', {
        type: 'steer',
        content: 'keep it short',
      });
    });
    const { outcome, config } = await start(store, 's-conflict', workspace);
    expect(outcome.status).toBe('completed');

    const events = await eventsOf(base, 's-conflict');
    const receipt = events.find((event) => event.payload.type === 'tool_receipt')!;
    const note = events.findIndex((event) => event.eventId.startsWith('other'));
    expect(note).toBeGreaterThan(-1);
    expect(note).toBeLessThan(events.indexOf(receipt));
    // The combined batch was refused; the receipt then went in on its own, as a fact.
    const stored = batches.find((b) => b.some((event) => event.eventId === receipt.eventId))!;
    expect(stored.map((event) => event.payload.type)).toEqual(['tool_receipt']);
    // And what followed was decided on the state that holds the note.
    expect(events.some((event) => event.causationId === receipt.eventId)).toBe(true);
    await expectReplayIdentical(base, 's-conflict', config);
  });

  it('commits a turn of read-only calls once, with the next model request', async () => {
    const { workspace, storePath } = scenarioWorkspace({ 'a.txt': 'one\n', 'b.txt': 'two\n' });
    const base = openStore(storePath);
    stores.push(base);
    const { store, batches } = recordingStore(base);
    const { run, config } = startTurn(store, 's-held', workspace, 'read');
    const outcome = await run.done;
    expect(outcome.status).toBe('completed');

    const [first, second] = calls(await eventsOf(base, 's-held'));
    const call = (callId: string) =>
      ['tool_call_assessed', 'approval_granted', 'tool_call_started', 'tool_receipt'].map(
        (type) => `${type}:${callId}`,
      );
    // Both probes in one effect (batched-read-only-probes), then each call in turn.
    expect(batches.map(typesOf)).toContainEqual([
      `world_observed:${first}`,
      `world_observed:${second}`,
      ...call(first!),
      ...call(second!),
      'inference_requested:',
    ]);
    // The runner's state, folded while the work was held, is the state replay derives.
    const report = await expectReplayIdentical(base, 's-held', config);
    expect(outcome.state).toEqual(report.state);
  });

  it('validates each held read-only result once: folded while held, appended as folded', async () => {
    const { workspace, storePath } = scenarioWorkspace({ 'a.txt': 'one\n', 'b.txt': 'two\n' });
    const base = openStore(storePath);
    stores.push(base);
    const { store, batches } = recordingStore(base);
    const parse = vi.spyOn(correxEventCatalog, 'safeParsePayload');
    try {
      const { run, config } = startTurn(store, 's-held-once', workspace, 'read');
      expect((await run.done).status).toBe('completed');
      const parsed = parse.mock.calls.length;
      const events = await eventsOf(base, 's-held-once');
      // Some of the turn was held (folded before it was committed)...
      expect(batches.some((batch) => batch.length > 10)).toBe(true);
      // ...and yet every event went through its schema exactly once, not once more on append.
      expect(parsed).toBe(events.length);
      await expectReplayIdentical(base, 's-held-once', config);
    } finally {
      parse.mockRestore();
    }
  });

  it('commits held read-only work before a call that can change the world runs', async () => {
    const { workspace, storePath } = scenarioWorkspace({ 'a.txt': 'one\n' });
    const base = openStore(storePath);
    stores.push(base);
    const { store, batches } = recordingStore(base);
    const { run, config } = startTurn(store, 's-write', workspace, 'write');
    expect((await run.done).status).toBe('completed');

    const [read, write] = calls(await eventsOf(base, 's-write'));
    const types = batches.map(typesOf);
    // The write's intent ends the commit that holds the read: durable before the write runs.
    const intent = types.find((batch) => batch.includes(`tool_call_started:${write}`))!;
    expect(intent).toContain(`tool_receipt:${read}`);
    expect(intent.at(-1)).toBe(`tool_call_started:${write}`);
    // A receipt of a call that changed the world is never held.
    expect(types).toContainEqual([`tool_receipt:${write}`, 'inference_requested:']);
    await expectReplayIdentical(base, 's-write', config);
  });

  it("never holds a file write's receipt: it is committed before the next write's intent", async () => {
    const { workspace, storePath } = scenarioWorkspace({ 'a.txt': 'one\n' });
    const base = openStore(storePath);
    stores.push(base);
    const { store, batches } = recordingStore(base);
    const { run, config } = startTurn(store, 's-writes', workspace, 'two writes');
    expect((await run.done).status).toBe('completed');

    const [first, second] = calls(await eventsOf(base, 's-writes'));
    const types = batches.map(typesOf);
    // The first write's receipt ends a commit of its own (with the next call's proposal
    // decided on it); the second write's intent is not in it.
    const receipt = types.find((batch) => batch.includes(`tool_receipt:${first}`))!;
    expect(receipt[0]).toBe(`tool_receipt:${first}`);
    expect(receipt).not.toContain(`tool_call_started:${second}`);
    // Each write's intent is durable before it runs: each ends a commit of its own.
    for (const call of [first, second])
      expect(types.some((batch) => batch.at(-1) === `tool_call_started:${call}`)).toBe(true);
    await expectReplayIdentical(base, 's-writes', config);
  });

  it('drops held read-only work when a command arrives meanwhile, and decides it again', async () => {
    const { workspace, storePath } = scenarioWorkspace({ 'a.txt': 'one\n', 'b.txt': 'two\n' });
    const store = openStore(storePath);
    stores.push(store);
    // The read of b.txt starts while the read of a.txt is held.
    const tools = toolsCalling(2, async () => {
      await recordCommand({ clock: newClock(), ids: newIds('other') }, store, 's-held-steer', {
        type: 'steer',
        content: 'keep it short',
      });
    });
    const { run, config } = startTurn(store, 's-held-steer', workspace, 'read', tools);
    expect((await run.done).status).toBe('completed');

    const events = await eventsOf(store, 's-held-steer');
    const note = events.findIndex((event) => event.eventId.startsWith('other'));
    expect(note).toBeGreaterThan(-1);
    // Decided before the note, the held work was not appended after it: it was decided again.
    const started = events.filter((event) => event.payload.type === 'tool_call_started');
    expect(started).toHaveLength(2);
    expect(events.indexOf(started[0]!)).toBeGreaterThan(note);
    for (const callId of calls(events)) {
      const receipts = events.filter(
        (event) => event.payload.type === 'tool_receipt' && payloadOf(event).callId === callId,
      );
      expect(receipts, callId).toHaveLength(1);
    }
    await expectReplayIdentical(store, 's-held-steer', config);
  });

  it('is cancelled while read-only work is held: nothing changed, nothing started', async () => {
    const { workspace, storePath } = scenarioWorkspace({ 'a.txt': 'one\n', 'b.txt': 'two\n' });
    const store = openStore(storePath);
    stores.push(store);
    let cancel = async () => {};
    const { run, config } = startTurn(
      store,
      's-held-cancel',
      workspace,
      'read',
      toolsCalling(2, () => cancel()),
    );
    cancel = () => run.cancel('tester', 'enough');
    expect((await run.done).status).toBe('cancelled');

    const types = (await eventsOf(store, 's-held-cancel')).map((event) => event.payload.type);
    expect(types).not.toContain('tool_call_started');
    await expectReplayIdentical(store, 's-held-cancel', config);
  });

  it('commits held read-only work when the process stops, and resumes from it', async () => {
    const { workspace, storePath } = scenarioWorkspace({ 'a.txt': 'one\n', 'b.txt': 'two\n' });
    const store = openStore(storePath);
    stores.push(store);
    const stop = new AbortController();
    // The process stops as the read of a.txt ends, its receipt held, before b.txt is read.
    const tools = toolsCalling(
      1,
      () => {
        stop.abort(new Error('the process stops'));
        return Promise.resolve();
      },
      'after',
    );
    const { run, config } = startTurn(store, 's-held-stop', workspace, 'read', tools, stop.signal);
    await run.done;

    // The read of a.txt had run: its receipt is in the log, not lost with the process.
    const [first, second] = calls(await eventsOf(store, 's-held-stop'));
    const receiptsOf = async () =>
      (await eventsOf(store, 's-held-stop'))
        .filter((event) => event.payload.type === 'tool_receipt')
        .map((event) => payloadOf(event).callId);
    expect(await receiptsOf()).toEqual([first]);

    const resumed = await runSession({
      store,
      sessionId: 's-held-stop',
      config,
      ports: livePorts(scriptedModel(turnOf('read').slice(1))),
      clock: newClock(),
      ids: newIds('resume'),
    });
    expect(resumed.status).toBe('completed');
    expect(await receiptsOf()).toEqual([first, second]);
    await expectReplayIdentical(store, 's-held-stop', config);
  });
});

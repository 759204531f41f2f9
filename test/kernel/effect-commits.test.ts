import { describe, expect, it } from 'vitest';
import type { CorrexEvent, CorrexEventStore } from '../../src/core/event-catalog.js';
import { effectResultTypes } from '../../src/core/kernel/effect.js';
import { recordCommand } from '../../src/core/kernel/record-command.js';
import { runSession } from '../../src/core/kernel/run-session.js';
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
});

import { describe, expect, it } from 'vitest';
import { estimateTokens } from '../../src/core/context/tokenizer.js';
import { UNVERSIONED_BEHAVIOUR, type KernelBehaviour } from '../../src/core/kernel/behaviour.js';
import { runSession } from '../../src/core/kernel/run-session.js';
import {
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
  closeStoresAfterEach,
} from './kernel-harness.js';

const stores = closeStoresAfterEach();

describe('journal compaction', () => {
  it('folds older turns of a long stage into a recorded summary that the next packs carry instead', async () => {
    const { workspace, storePath } = scenarioWorkspace({ 'a.txt': 'a\n' });
    const store = openStore(storePath);
    stores.push(store);
    const config = scenarioConfig({
      workflow: implementOnlyWorkflow(),
      limits: { compactJournalAfter: 6, compactJournalKeep: 2 },
    });
    const list = { toolCalls: [{ name: 'list_dir', args: { path: '.' } }] };
    const turns = [
      ...Array.from({ length: 8 }, () => list),
      { text: JSON.stringify({ summary: 'looked', filesChanged: [] }) },
    ];
    const model = scriptedModel(turns);
    const outcome = await runSession(
      {
        store,
        sessionId: 's-compact',
        config,
        ports: livePorts(model),
        clock: newClock(),
        ids: newIds(),
      },
      { type: 'start', task: 'look around', workspace, workflowId: 'implement-only', mode: 'auto' },
    );
    expect(outcome.status).toBe('completed');
    const events = await eventsOf(store, 's-compact');
    const compactions = events.filter((event) => event.payload.type === 'journal_compacted');
    expect(compactions.length).toBeGreaterThanOrEqual(2);
    // The first turn's result left the pack; the summary that replaced it is there.
    const last = model.request(turns.length - 1);
    // (A verbatim entry is its own message, so it follows a newline in the joined pack.)
    expect(model.request(2)).toContain('\nResult of call implement.1.1.1');
    expect(last).not.toContain('\nResult of call implement.1.1.1');
    expect(last).toContain('Summary of earlier turns in this stage');
    expect(last).toContain(
      '- correx (tool_result): Result of call implement.1.1.1 (list_dir): succeeded',
    );
    await expectReplayIdentical(store, 's-compact', config);
  });

  /** A long stage of list_dir turns; the summaries its compactions recorded, in order. */
  async function longStage(turnCount: number, behaviour?: KernelBehaviour) {
    const { workspace, storePath } = scenarioWorkspace({ 'a.txt': 'a\n' });
    const store = openStore(storePath);
    stores.push(store);
    const config = scenarioConfig({
      workflow: implementOnlyWorkflow(),
      limits: {
        compactJournalAfter: 6,
        compactJournalKeep: 2,
        compactJournalMaxTokens: 150,
        maxTurnsPerStage: turnCount + 2,
      },
      ...(behaviour === undefined ? {} : { behaviour }),
    });
    const list = { toolCalls: [{ name: 'list_dir', args: { path: '.' } }] };
    const turns = [
      ...Array.from({ length: turnCount }, () => list),
      { text: JSON.stringify({ summary: 'looked', filesChanged: [] }) },
    ];
    const sessionId = `s-long-${turnCount}-${behaviour === undefined ? 'now' : 'before'}`;
    const outcome = await runSession(
      {
        store,
        sessionId,
        config,
        ports: livePorts(scriptedModel(turns)),
        clock: newClock(),
        ids: newIds(),
      },
      { type: 'start', task: 'look around', workspace, workflowId: 'implement-only', mode: 'auto' },
    );
    expect(outcome.status).toBe('completed');
    await expectReplayIdentical(store, sessionId, config);
    return (await eventsOf(store, sessionId)).flatMap((event) =>
      event.payload.type === 'journal_compacted' ? [event.payload.summary] : [],
    );
  }

  it('caps each summary at compactJournalMaxTokens, so the bytes compactions write grow linearly', async () => {
    const summaries = await longStage(30);
    expect(summaries.length).toBeGreaterThan(10);
    for (const summary of summaries) expect(estimateTokens(summary)).toBeLessThanOrEqual(150);
    expect(summaries.at(-1)).toMatch(/the \d+ oldest lines left out/);
    // The newest entries are the ones kept.
    expect(summaries.at(-1)).toContain('implement.1.');
    const sizes = summaries.map((summary) => summary.length);
    expect(Math.max(...sizes.slice(-5))).toBeLessThanOrEqual(
      2 * Math.max(...sizes.slice(0, 5)) + 200,
    );
  });

  it('keeps copying earlier summaries whole for sessions recorded before the bound', async () => {
    const summaries = await longStage(30, UNVERSIONED_BEHAVIOUR);
    expect(summaries.at(-1)!.length).toBeGreaterThan(5 * summaries[0]!.length);
    expect(summaries.at(-1)).not.toMatch(/oldest lines left out/);
  });
});

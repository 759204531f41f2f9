import { describe, expect, it } from 'vitest';
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
});

import { describe, expect, it } from 'vitest';
import { runSession, replaySession } from '../../src/core/kernel/index.js';
import { nodeSha256 } from '../../src/infrastructure/system/node-sha256.js';
import {
  closeStoresAfterEach,
  eventsOf,
  implementOnlyWorkflow,
  livePorts,
  newClock,
  newIds,
  openStore,
  scenarioConfig,
  scenarioWorkspace,
  scriptedModel,
  typesOf,
} from './kernel-harness.js';

const stores = closeStoresAfterEach();

/**
 * Issue 33.2, the class: whatever in taking a model's answer throws (here the artifact's hash,
 * through a digest function that fails on one answer), the answer is recorded as a malformed
 * one, `inference_failed`, which the retry policy reads, instead of a crash that leaves the log
 * at `inference_requested` for every resume to meet again.
 */
describe('an answer the kernel cannot take', () => {
  it('is recorded as inference_failed and the stage goes on to its next attempt', async () => {
    const { workspace, storePath } = scenarioWorkspace({});
    const store = openStore(storePath);
    stores.push(store);
    const base = scenarioConfig({ workflow: implementOnlyWorkflow(2) });
    const config = {
      ...base,
      sha256: (text: string) => {
        if (text.includes('POISON')) throw new RangeError('Maximum call stack size exceeded');
        return nodeSha256(text);
      },
    };
    const model = scriptedModel([
      { text: JSON.stringify({ summary: 'POISON', filesChanged: [] }) },
      { text: JSON.stringify({ summary: 'done', filesChanged: [] }) },
    ]);
    const outcome = await runSession(
      {
        store,
        sessionId: 's-untaken',
        config,
        ports: livePorts(model),
        clock: newClock(),
        ids: newIds(),
      },
      { type: 'start', task: 'answer', workspace, workflowId: 'implement-only', mode: 'auto' },
    );
    expect(outcome.status).toBe('completed');
    const events = await eventsOf(store, 's-untaken');
    expect(
      events.find((event) => event.payload.type === 'inference_failed')?.payload,
    ).toMatchObject({
      requestId: 'implement.1.1',
      category: 'malformed_response',
      message: 'correx could not take the answer (RangeError: Maximum call stack size exceeded)',
    });
    // The poisoned answer itself is not in the log: its failure is.
    expect(typesOf(events).filter((type) => type === 'inference_completed')).toHaveLength(1);
    expect(typesOf(events)).toContain('stage_failed');
    const report = await replaySession(store, 's-untaken', config);
    if (!report.ok) expect.fail(`replay diverged: ${JSON.stringify(report.divergence, null, 2)}`);
  });
});

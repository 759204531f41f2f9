import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSession } from '../../src/core/kernel/index.js';
import type { WorldProbe } from '../../src/core/toolintent/world-probe.js';
import { createDiskWorldProbe } from '../../src/infrastructure/world-probe/disk-world-probe.js';
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

/**
 * The disk probe, except that the first time it looks at `moving` it reports what the disk probe
 * reports for a path that kept changing while it looked (as a racing swap makes it do).
 */
function probeSeeingOneRace(moving: string): WorldProbe {
  const disk = createDiskWorldProbe();
  let raced = false;
  return {
    async observe(path) {
      if (path !== moving || raced) return disk.observe(path);
      raced = true;
      return {
        path,
        kind: 'other',
        realPath: path,
        linkTarget: null,
        sha256: null,
        size: null,
        mtimeMs: null,
        linkCount: null,
        changedDuringObservation: true,
      };
    },
  };
}

describe('a target that changed during observation', () => {
  it('is blocked with a reason the model sees, the call gets its outcome, and the retry succeeds', async () => {
    const { workspace, storePath } = scenarioWorkspace({});
    const store = openStore(storePath);
    stores.push(store);
    const workflow = implementOnlyWorkflow(1);
    const config = scenarioConfig({ workflow });
    const write = { toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'a\n' } }] };
    const model = scriptedModel([
      write,
      write,
      { text: JSON.stringify({ summary: 'wrote a.txt', filesChanged: ['a.txt'] }) },
    ]);
    const outcome = await runSession(
      {
        store,
        sessionId: 's-unstable',
        config,
        ports: livePorts(model, undefined, probeSeeingOneRace(join(workspace, 'a.txt'))),
        clock: newClock(),
        ids: newIds(),
      },
      { type: 'start', task: 'Write the note', workspace, workflowId: workflow.id, mode: 'auto' },
    );
    expect(outcome.status).toBe('completed');
    const events = await eventsOf(store, 's-unstable');
    const assessed = events.filter((event) => event.payload.type === 'tool_call_assessed');
    expect(assessed.map((event) => event.payload)).toMatchObject([
      {
        verdict: 'BLOCK',
        findings: [expect.objectContaining({ code: 'changed_during_observation' })],
      },
      { verdict: 'ALLOW' },
    ]);
    // Every proposal ended: the first denied, the second with a receipt.
    const proposed = events.filter((event) => event.payload.type === 'tool_call_proposed');
    for (const proposal of proposed) {
      const callId = (proposal.payload as { callId: string }).callId;
      const ends = events.filter(
        (event) =>
          (event.payload.type === 'approval_denied' || event.payload.type === 'tool_receipt') &&
          (event.payload as { callId: string }).callId === callId,
      );
      expect(ends).toHaveLength(1);
    }
    expect(model.request(1)).toContain('changed during observation');
    expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe('a\n');
    await expectReplayIdentical(store, 's-unstable', config);
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSession } from '../../src/core/kernel/index.js';
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

const writeOf = (path: string, content: string) => ({
  toolCalls: [{ name: 'write_file', args: { path, content } }],
});
const done = { text: JSON.stringify({ summary: 'wrote what fit', filesChanged: ['a.txt'] }) };

describe("the policy's writeBudgetBytes", () => {
  it('blocks the write that would carry the session past its budget, in yolo mode too', async () => {
    const { workspace, storePath } = scenarioWorkspace({});
    const store = openStore(storePath);
    stores.push(store);
    const config = scenarioConfig({
      workflow: implementOnlyWorkflow(),
      policy: { writeBudgetBytes: 10 },
    });
    const outcome = await runSession(
      {
        store,
        sessionId: 's-budget',
        config,
        // 6 bytes fit; 6 more ("é" is two bytes) would make 12 > 10.
        ports: livePorts(
          scriptedModel([writeOf('a.txt', 'hello\n'), writeOf('b.txt', 'héllo'), done]),
        ),
        clock: newClock(),
        ids: newIds(),
      },
      { type: 'start', task: 'Write', workspace, workflowId: 'implement-only', mode: 'yolo' },
    );
    expect(outcome.status).toBe('completed');
    expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe('hello\n');
    const payloads = (await eventsOf(store, 's-budget')).map((event) => event.payload);
    const assessed = payloads.filter((payload) => payload.type === 'tool_call_assessed');
    expect(assessed.map((payload) => payload.verdict)).toEqual(['ALLOW', 'BLOCK']);
    expect(assessed[1]).toMatchObject({
      findings: [
        expect.objectContaining({
          ruleId: 'write-budget',
          code: 'write_budget_exceeded',
          message: expect.stringContaining(
            'this write carries 6 bytes; with the 6 already written',
          ),
        }),
      ],
    });
    expect(payloads.filter((payload) => payload.type === 'tool_receipt')).toHaveLength(1);
    await expectReplayIdentical(store, 's-budget', config);
  });

  it('does not apply to a session recorded without the write-budget flag', async () => {
    const { workspace, storePath } = scenarioWorkspace({});
    const store = openStore(storePath);
    stores.push(store);
    const config = scenarioConfig({
      workflow: implementOnlyWorkflow(),
      policy: { writeBudgetBytes: 10 },
      behaviour: { kernelVersion: 2, flags: new Set() },
    });
    const outcome = await runSession(
      {
        store,
        sessionId: 's-no-budget',
        config,
        ports: livePorts(
          scriptedModel([writeOf('a.txt', 'hello\n'), writeOf('b.txt', 'héllo'), done]),
        ),
        clock: newClock(),
        ids: newIds(),
      },
      { type: 'start', task: 'Write', workspace, workflowId: 'implement-only', mode: 'yolo' },
    );
    expect(outcome.status).toBe('completed');
    expect(readFileSync(join(workspace, 'b.txt'), 'utf8')).toBe('héllo');
  });
});

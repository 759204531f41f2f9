import { describe, expect, it } from 'vitest';
import { runSession, recordedKernelConfig, replaySession } from '../../src/core/kernel/index.js';
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
} from './kernel-harness.js';

const stores = closeStoresAfterEach();

/**
 * Issue 33.1: what the kernel derives from a model's JSON does not depend on the order the
 * model wrote its keys in. The same answers, keys in two orders, derive the same issue lists
 * and transcripts; and replay, which reads the arguments back in canonical order with the
 * recorded configuration (the schema's keys sorted too), re-derives the session.
 */
async function run(sessionId: string, order: 'as-written' | 'reversed') {
  const object = (entries: [string, unknown][]) =>
    JSON.stringify(Object.fromEntries(order === 'reversed' ? entries.reverse() : entries));
  const { workspace, storePath } = scenarioWorkspace({ 'notes.txt': 'old\n' });
  const store = openStore(storePath);
  stores.push(store);
  const config = scenarioConfig({ workflow: implementOnlyWorkflow() });
  const model = scriptedModel([
    // A finishing call with three problems: two wrong fields and unknown keys.
    {
      text: object([
        ['zeta', 1],
        ['summary', 5],
        ['filesChanged', 'x'],
        ['alpha', 2],
      ]),
    },
    // A call with unknown keys and wrong types, then a good one in the same turn.
    {
      toolCalls: [
        {
          name: 'write_file',
          argsRaw: object([
            ['path', 7],
            ['zz', 1],
            ['content', 5],
            ['aa', 2],
          ]),
        },
        {
          name: 'read_file',
          argsRaw: object([
            ['path', 'notes.txt'],
            ['startLine', 1],
          ]),
        },
      ],
    },
    {
      toolCalls: [
        {
          name: 'write_file',
          argsRaw: object([
            ['path', 'notes.txt'],
            ['content', 'new\n'],
          ]),
        },
      ],
    },
    {
      text: object([
        ['summary', 'rewrote notes.txt'],
        ['filesChanged', ['notes.txt']],
      ]),
    },
  ]);
  const outcome = await runSession(
    { store, sessionId, config, ports: livePorts(model), clock: newClock(), ids: newIds() },
    {
      type: 'start',
      task: 'Rewrite notes.txt',
      workspace,
      workflowId: 'implement-only',
      mode: 'auto',
    },
  );
  expect(outcome.status).toBe('completed');
  const recorded = await recordedKernelConfig(store, sessionId, nodeSha256);
  const report = await replaySession(store, sessionId, recorded);
  if (!report.ok) expect.fail(`replay diverged: ${JSON.stringify(report.divergence, null, 2)}`);
  const events = await eventsOf(store, sessionId);
  const messages = events.flatMap((event) =>
    event.payload.type === 'validation_failed' || event.payload.type === 'tool_call_rejected'
      ? [event.payload.message]
      : [],
  );
  // What each later request showed the model, its workspace folder aside.
  const requests = [1, 2, 3].map((index) => model.request(index).split(workspace).join('<ws>'));
  return { messages, requests };
}

describe('decisions from a model JSON answer', () => {
  it('do not depend on the order of its keys, and replay from the recorded configuration', async () => {
    const written = await run('s-key-order', 'as-written');
    const reversed = await run('s-key-order-reversed', 'reversed');
    expect(written.messages).toEqual([
      'the `change` artifact does not match its schema: content: Unrecognized keys: "alpha", "zeta"; filesChanged: Invalid input: expected array, received string; summary: Invalid input: expected string, received number',
      expect.stringMatching(
        /^the arguments do not match the schema: arguments: Unrecognized keys: "aa", "zz"; content: .*; path: /,
      ),
    ]);
    expect(reversed.messages).toEqual(written.messages);
    // The next requests render the calls in canonical form: the same whatever the order.
    expect(reversed.requests).toEqual(written.requests);
  });
});

import { describe, expect, it } from 'vitest';
import { flagSet } from '../../src/core/base/behaviour-flag.js';
import { behaviourFlags, KERNEL_VERSION, runSession } from '../../src/core/kernel/index.js';
import { EGRESS_ALLOWLIST_FROM_POLICY } from '../../src/core/toolintent/toolintent-flags.js';
import {
  closeStoresAfterEach,
  eventsOf,
  expectReplayIdentical,
  livePorts,
  newClock,
  newIds,
  openStore,
  scenarioConfig,
  scenarioWorkspace,
  scriptedModel,
} from './kernel-harness.js';
import { parseWorkflow } from '../../src/core/transitions/workflow.js';

const stores = closeStoresAfterEach();

const fetchOnly = parseWorkflow(
  {
    id: 'fetch-only',
    initialStage: 'research',
    stages: [
      {
        id: 'research',
        role: 'implementer',
        instructions: 'Fetch what the task says.',
        allowedTools: ['http_fetch'],
        capabilities: ['tool_calling'],
        artifact: {
          kind: 'notes',
          schema: {
            type: 'object',
            properties: { summary: { type: 'string' } },
            required: ['summary'],
            additionalProperties: false,
          },
        },
        transitions: [
          { when: { on: 'success' }, end: 'completed' },
          { when: { on: 'failure' }, end: 'failed' },
        ],
      },
    ],
  },
  { source: 'egress-seed test' },
);

async function run(sessionId: string, withFlag: boolean) {
  const { workspace, storePath } = scenarioWorkspace({});
  const store = openStore(storePath);
  stores.push(store);
  const flags = flagSet(behaviourFlags);
  if (!withFlag) (flags as Set<string>).delete(EGRESS_ALLOWLIST_FROM_POLICY.name);
  const config = scenarioConfig({
    workflow: fetchOnly,
    policy: { egressAllowlist: ['allowed.test'] },
    behaviour: { kernelVersion: KERNEL_VERSION, flags },
  });
  // `.test` names never resolve, so an allowed fetch fails at DNS, after the allowlist.
  const model = scriptedModel([
    { toolCalls: [{ name: 'http_fetch', args: { url: 'http://ALLOWED.test/page' } }] },
    { text: JSON.stringify({ summary: 'tried' }) },
  ]);
  await runSession(
    { store, sessionId, config, ports: livePorts(model), clock: newClock(), ids: newIds() },
    { type: 'start', task: 'Fetch', workspace, workflowId: fetchOnly.id, mode: 'yolo' },
  );
  const events = await eventsOf(store, sessionId);
  await expectReplayIdentical(store, sessionId, config);
  return events.map((event) => event.payload);
}

describe('the egress allowlist seeded from the recorded policy', () => {
  it('starts the session with the policy hosts, so an allowlisted host is assessed ALLOW', async () => {
    const payloads = await run('s-egress-seeded', true);
    expect(payloads.filter((payload) => payload.type === 'egress_allowlist_changed')).toEqual([
      expect.objectContaining({ added: ['allowed.test'], by: 'policy' }),
    ]);
    expect(payloads.find((payload) => payload.type === 'tool_call_assessed')).toMatchObject({
      verdict: 'ALLOW',
    });
    expect(payloads.find((payload) => payload.type === 'tool_receipt')).toMatchObject({
      outcome: 'failed',
      error: expect.not.stringContaining('egress allowlist'),
    });
  });

  it('a session recorded without the flag starts empty, as before: the host is blocked', async () => {
    const payloads = await run('s-egress-unflagged', false);
    expect(payloads.some((payload) => payload.type === 'egress_allowlist_changed')).toBe(false);
    expect(payloads.find((payload) => payload.type === 'tool_call_assessed')).toMatchObject({
      verdict: 'BLOCK',
    });
  });
});

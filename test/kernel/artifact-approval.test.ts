import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { OperatorMode } from '../../src/core/approvals/approval-tier.js';
import { runSession } from '../../src/core/kernel/index.js';
import { ChangeArtifactSchema } from '../../src/core/transitions/default-coding-workflow.js';
import { parseWorkflow } from '../../src/core/transitions/workflow.js';
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
  typesOf,
} from './kernel-harness.js';

const stores = closeStoresAfterEach();

/** One `draft` stage whose artifact a person must approve. */
const gatedWorkflow = parseWorkflow(
  {
    id: 'gated',
    initialStage: 'draft',
    stages: [
      {
        id: 'draft',
        role: 'author',
        instructions: 'Describe the change.',
        allowedTools: ['read_file'],
        capabilities: ['tool_calling'],
        artifact: { kind: 'change', schema: z.toJSONSchema(ChangeArtifactSchema) },
        requiresApproval: true,
        transitions: [
          { when: { on: 'success' }, end: 'completed' },
          { when: { on: 'failure' }, end: 'failed' },
        ],
      },
    ],
  },
  { source: 'artifact-approval.test' },
);

const first = { text: JSON.stringify({ summary: 'first draft', filesChanged: [] }) };
const second = { text: JSON.stringify({ summary: 'second draft, dated', filesChanged: [] }) };

async function setup(sessionId: string, mode: OperatorMode) {
  const { workspace, storePath } = scenarioWorkspace({});
  const store = openStore(storePath);
  stores.push(store);
  const config = scenarioConfig({ workflow: gatedWorkflow });
  const model = scriptedModel([first, second]);
  const options = {
    store,
    sessionId,
    config,
    ports: livePorts(model),
    clock: newClock(),
    ids: newIds(),
  };
  const start = { type: 'start' as const, task: 'Draft', workspace, workflowId: 'gated', mode };
  return { store, config, model, options, start };
}

describe('artifact approval (requiresApproval stages)', () => {
  it('waits for a person in prompt mode; a denial goes back to the model, an approval completes the stage', async () => {
    const { store, config, model, options, start } = await setup('s-gate', 'prompt');
    const waiting = await runSession(options, start);
    expect(waiting.status).toBe('running');
    const proposed = (await eventsOf(store, 's-gate')).find(
      (event) => event.payload.type === 'artifact_proposed',
    )!.payload as { hash: string };
    expect(waiting.waiting).toEqual({ kind: 'approval', callId: `artifact:${proposed.hash}` });
    expect(waiting.state.session.pendingApprovals).toEqual([
      { callId: `artifact:${proposed.hash}`, tool: 'artifact', tier: 'T3' },
    ]);
    expect(typesOf(await eventsOf(store, 's-gate'))).not.toContain('artifact_accepted');

    const denied = await runSession(options, {
      type: 'deny',
      callId: `artifact:${proposed.hash}`,
      by: 'alice',
      reason: 'add the date to the summary',
    });
    expect(denied.waiting?.kind).toBe('approval');
    expect(model.request(1)).toContain('alice did not approve this artifact: add the date');
    const second = denied.waiting as { callId: string };
    expect(second.callId).not.toBe(`artifact:${proposed.hash}`);

    const approved = await runSession(options, {
      type: 'approve',
      callId: second.callId,
      by: 'bob',
    });
    expect(approved.status).toBe('completed');
    const types = typesOf(await eventsOf(store, 's-gate'));
    expect(types.filter((type) => type === 'approval_requested')).toHaveLength(2);
    expect(types.filter((type) => type === 'artifact_accepted')).toHaveLength(1);
    expect(types.slice(types.indexOf('approval_granted'))).toEqual([
      'approval_granted',
      'artifact_accepted',
      'stage_completed',
      'transition_taken',
      'workflow_completed',
    ]);
    await expectReplayIdentical(store, 's-gate', config);
  });

  it('asks in auto mode too: the gate is T3', async () => {
    const { options, start } = await setup('s-gate-auto', 'auto');
    expect((await runSession(options, start)).waiting?.kind).toBe('approval');
  });

  it('is bypassed, and recorded as such, in yolo mode', async () => {
    const { store, config, options, start } = await setup('s-gate-yolo', 'yolo');
    expect((await runSession(options, start)).status).toBe('completed');
    const events = await eventsOf(store, 's-gate-yolo');
    const types = typesOf(events);
    expect(
      types.slice(types.indexOf('artifact_proposed'), types.indexOf('stage_completed')),
    ).toEqual(['artifact_proposed', 'approval_bypassed', 'approval_granted', 'artifact_accepted']);
    expect(
      events.find((event) => event.payload.type === 'approval_granted')?.payload,
    ).toMatchObject({ by: { kind: 'auto', id: 'yolo' } });
    await expectReplayIdentical(store, 's-gate-yolo', config);
  });

  it('is refused in deny mode and fails the attempt as policy', async () => {
    const { store, config, options, start } = await setup('s-gate-deny', 'deny');
    expect((await runSession(options, start)).status).toBe('failed');
    const events = await eventsOf(store, 's-gate-deny');
    expect(events.find((event) => event.payload.type === 'stage_failed')?.payload).toMatchObject({
      category: 'policy',
    });
    expect(typesOf(events)).not.toContain('artifact_accepted');
    await expectReplayIdentical(store, 's-gate-deny', config);
  });
});

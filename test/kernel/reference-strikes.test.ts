import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSession } from '../../src/core/kernel/index.js';
import { createDefaultCodingWorkflow } from '../../src/core/transitions/default-coding-workflow.js';
import type { Workflow } from '../../src/core/transitions/workflow.js';
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
  typesOf,
} from './kernel-harness.js';

const stores = closeStoresAfterEach();

const readMissing = { toolCalls: [{ name: 'read_file', args: { path: 'config.json' } }] };
const writeIt = {
  toolCalls: [{ name: 'write_file', args: { path: 'config.json', content: '{}\n' } }],
};

async function run(
  sessionId: string,
  workflow: Workflow,
  turns: Parameters<typeof scriptedModel>[0],
) {
  const { workspace, storePath } = scenarioWorkspace({});
  const store = openStore(storePath);
  stores.push(store);
  const config = scenarioConfig({ workflow });
  const model = scriptedModel(turns);
  const outcome = await runSession(
    { store, sessionId, config, ports: livePorts(model), clock: newClock(), ids: newIds() },
    { type: 'start', task: 'Use config.json', workspace, workflowId: workflow.id, mode: 'auto' },
  );
  const events = await eventsOf(store, sessionId);
  await expectReplayIdentical(store, sessionId, config);
  return { workspace, outcome, events, model };
}

describe('three ReferenceExists strikes (spec 001)', () => {
  it('fail the attempt as workspace_precondition on the third block of one path, not as a repeated call', async () => {
    const { outcome, events, model } = await run('s-strikes', implementOnlyWorkflow(1), [
      readMissing,
      readMissing,
      readMissing,
    ]);
    expect(outcome.status).toBe('failed');
    const denials = events.filter((event) => event.payload.type === 'approval_denied');
    expect(denials).toHaveLength(3);
    // The stage holds write_file, so the model is told it may create the file.
    expect(denials[0]!.payload).toMatchObject({
      reason: expect.stringContaining('this stage can create it first'),
    });
    expect(model.request(1)).toContain('this stage can create it first');
    const failed = events.find((event) => event.payload.type === 'stage_failed');
    expect(failed?.payload).toMatchObject({
      category: 'workspace_precondition',
      message: expect.stringContaining('referred 3 times to'),
    });
    expect(failed?.payload).toMatchObject({ message: expect.stringContaining('config.json') });
    // The third identical call was assessed and blocked, not stopped by the fingerprint rule.
    expect(typesOf(events).filter((type) => type === 'tool_call_assessed')).toHaveLength(3);
    expect(events.at(-1)?.payload).toMatchObject({
      type: 'workflow_failed',
      category: 'workspace_precondition',
    });
  });

  it('retries in place when the stage holds a file-writing tool, though retryOn lacks the category', async () => {
    const { workspace, outcome, events } = await run('s-strikes-retry', implementOnlyWorkflow(2), [
      readMissing,
      readMissing,
      readMissing,
      writeIt,
      { text: JSON.stringify({ summary: 'created', filesChanged: ['config.json'] }) },
    ]);
    expect(outcome.status).toBe('completed');
    expect(readFileSync(join(workspace, 'config.json'), 'utf8')).toBe('{}\n');
    expect(
      events.find((event) => event.payload.type === 'transition_taken')?.payload,
    ).toMatchObject({ from: 'implement', to: 'implement', condition: 'retry', attempt: 2 });
  });

  it('routes to recovery in the default coding workflow once retries are spent', async () => {
    const { workspace, outcome, events } = await run(
      's-strikes-recovery',
      createDefaultCodingWorkflow({ maxAttempts: 1 }),
      [
        {
          text: JSON.stringify({
            summary: 'add config',
            steps: ['create config.json'],
            files: [{ path: 'config.json', change: 'create' }],
          }),
        },
        readMissing,
        readMissing,
        readMissing,
        writeIt,
        {
          text: JSON.stringify({
            summary: 'created the missing config',
            notesAddressed: ['config.json was missing'],
            filesChanged: ['config.json'],
          }),
        },
        { text: JSON.stringify({ summary: 'config exists', passed: true }) },
        {
          text: JSON.stringify({
            verdict: 'approved',
            reviewedArtifact: '{{artifact:recovery}}',
            notes: [],
          }),
        },
      ],
    );
    expect(outcome.status).toBe('completed');
    expect(readFileSync(join(workspace, 'config.json'), 'utf8')).toBe('{}\n');
    const taken = events
      .filter((event) => event.payload.type === 'transition_taken')
      .map((event) => event.payload);
    expect(taken).toContainEqual(
      expect.objectContaining({
        from: 'implement',
        to: 'recovery',
        condition: 'failure:workspace_precondition',
      }),
    );
  });
});

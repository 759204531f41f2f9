import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runSession } from '../../src/core/kernel/index.js';
import { PlanArtifactSchema } from '../../src/core/transitions/default-coding-workflow.js';
import { parseWorkflow } from '../../src/core/transitions/workflow.js';
import { UNVERSIONED_BEHAVIOUR } from '../../src/core/kernel/config/behaviour.js';
import type { KernelBehaviour } from '../../src/core/kernel/config/behaviour.js';
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

/** One plan stage: enough to see what the planner is told and what its plan is compared with. */
const workflow = parseWorkflow(
  {
    id: 'plan-only',
    initialStage: 'plan',
    stages: [
      {
        id: 'plan',
        role: 'planner',
        instructions: 'Plan the change.',
        allowedTools: ['read_file', 'list_dir'],
        capabilities: ['tool_calling'],
        artifact: { kind: 'plan', schema: z.toJSONSchema(PlanArtifactSchema) },
        transitions: [
          { when: { on: 'success' }, end: 'completed' },
          { when: { on: 'failure' }, end: 'failed' },
        ],
      },
    ],
  },
  { source: 'brief-references.test' },
);

const TASK = 'Fix `parseDate` in src/dates.ts and src/parse.ts (#12), then run `npm test`.';

async function run(sessionId: string, behaviour?: KernelBehaviour) {
  const { workspace, storePath } = scenarioWorkspace({ 'src/dates.ts': 'export {};\n' });
  const store = openStore(storePath);
  stores.push(store);
  const config = scenarioConfig({ workflow, ...(behaviour === undefined ? {} : { behaviour }) });
  const model = scriptedModel([
    {
      text: JSON.stringify({
        summary: 'Fix parseDate in src/dates.ts',
        steps: ['edit src/dates.ts', 'add src/util.ts'],
        files: [],
      }),
    },
  ]);
  const outcome = await runSession(
    { store, sessionId, config, ports: livePorts(model), clock: newClock(), ids: newIds() },
    { type: 'start', task: TASK, workspace, workflowId: workflow.id, mode: 'auto' },
  );
  return { workspace, store, config, model, outcome, events: await eventsOf(store, sessionId) };
}

describe('the brief, checked against the workspace and the plan', () => {
  it('flags a task naming a missing file before planning, with the observation, and tells the planner', async () => {
    const { workspace, store, config, model, outcome, events } = await run('s-brief');
    expect(outcome.status).toBe('completed');
    const types = typesOf(events);
    expect(types.indexOf('brief_checked')).toBeLessThan(types.indexOf('stage_started'));
    const missing = events.find(
      (event) =>
        event.payload.type === 'world_observed' &&
        event.payload.observation.path === `${workspace}/src/parse.ts`,
    )!;
    expect(missing.payload).toMatchObject({ callId: 'brief', observation: { kind: 'missing' } });
    const checked = events.find((event) => event.payload.type === 'brief_checked')!.payload;
    expect(checked).toEqual({
      type: 'brief_checked',
      references: [
        { kind: 'symbol', value: 'parseDate' },
        { kind: 'command', value: 'npm test' },
        { kind: 'path', value: 'src/dates.ts' },
        { kind: 'path', value: 'src/parse.ts' },
        { kind: 'issue', value: '#12' },
      ],
      missing: [{ path: `${workspace}/src/parse.ts`, observedSequence: missing.sequence }],
    });
    expect(model.request(0)).toContain(
      `The task names paths the workspace does not have: src/parse.ts (event #${missing.sequence})`,
    );
    const echo = events.find((event) => event.payload.type === 'brief_echo_compared')!;
    expect(echo.payload).toMatchObject({
      stageId: 'plan',
      dropped: [
        { kind: 'command', value: 'npm test' },
        { kind: 'path', value: 'src/parse.ts' },
        { kind: 'issue', value: '#12' },
      ],
      invented: [{ kind: 'path', value: 'src/util.ts' }],
    });
    expect(types.indexOf('brief_echo_compared')).toBeLessThan(types.indexOf('stage_completed'));
    await expectReplayIdentical(store, 's-brief', config);
  });

  it('leaves sessions recorded without the flag as they were', async () => {
    const { events, model } = await run('s-brief-old', UNVERSIONED_BEHAVIOUR);
    expect(typesOf(events)).not.toContain('brief_checked');
    expect(model.request(0)).not.toContain('does not have');
  });
});

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { KernelConfig, HookRunner, KernelPorts } from '../../src/core/kernel/index.js';
import { runSession } from '../../src/core/kernel/index.js';
import { HookSetSchema } from '../../src/core/toolintent/hook-definition.js';
import type { PreToolUseHookResult } from '../../src/core/toolintent/hook-events.js';
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
const hooks = HookSetSchema.parse({
  pre_tool_use: [{ name: 'guard', command: ['/usr/bin/guard'], tools: ['write_file'] }],
});
const turns = [
  { toolCalls: [{ name: 'write_file', args: { path: 'notes.txt', content: 'x\n' } }] },
  { text: JSON.stringify({ summary: 'done', filesChanged: [] }) },
];

/** A hook runner double that answers each hook with `answer` and counts its calls. */
function answering(answer: Omit<PreToolUseHookResult, 'hook' | 'durationMs'>) {
  const inputs: unknown[] = [];
  const runner: HookRunner = {
    async runPreToolUse(request) {
      inputs.push(request.input);
      return request.hooks.map((hook) => ({ hook: hook.name, durationMs: 1, ...answer }));
    },
  };
  return { runner, inputs };
}

async function run(sessionId: string, config: KernelConfig, runner?: HookRunner) {
  const { workspace, storePath } = scenarioWorkspace({});
  const store = openStore(storePath);
  stores.push(store);
  const ports: KernelPorts = {
    ...livePorts(scriptedModel(turns)),
    ...(runner === undefined ? {} : { hooks: runner }),
  };
  const outcome = await runSession(
    { store, sessionId, config, ports, clock: newClock(), ids: newIds() },
    {
      type: 'start',
      task: 'Write notes.txt',
      workspace,
      workflowId: 'implement-only',
      mode: 'yolo',
    },
  );
  const events = await eventsOf(store, sessionId);
  await expectReplayIdentical(store, sessionId, config);
  return { workspace, outcome, events };
}

const assessedOf = (events: Awaited<ReturnType<typeof run>>['events']) =>
  events.flatMap((event) => (event.payload.type === 'tool_call_assessed' ? [event.payload] : []));

describe('pre_tool_use hooks in the kernel', () => {
  it('waits for the recorded verdict and blocks on it, in yolo mode too', async () => {
    const config = { ...scenarioConfig({ workflow: implementOnlyWorkflow() }), hooks };
    const { runner, inputs } = answering({
      outcome: 'answered',
      decision: 'block',
      tier: null,
      reason: 'no notes today',
    });
    const { workspace, events } = await run('s-hook-block', config, runner);
    const types = typesOf(events);
    expect(types.indexOf('pre_tool_use_hooks_ran')).toBeLessThan(
      types.indexOf('tool_call_assessed'),
    );
    expect(assessedOf(events)[0]).toMatchObject({
      verdict: 'BLOCK',
      findings: [
        expect.objectContaining({
          ruleId: 'hook:guard',
          code: 'hook_blocked',
          message: 'no notes today',
        }),
      ],
    });
    expect(inputs[0]).toMatchObject({
      tool: 'write_file',
      targets: [expect.objectContaining({ raw: 'notes.txt', write: true })],
    });
    expect(existsSync(join(workspace, 'notes.txt'))).toBe(false);
  });

  it('fails closed when no hook runner is wired', async () => {
    const config = { ...scenarioConfig({ workflow: implementOnlyWorkflow() }), hooks };
    const { events } = await run('s-hook-unwired', config);
    expect(assessedOf(events)[0]?.findings).toContainEqual(
      expect.objectContaining({ code: 'hook_failed_to_start', severity: 'block' }),
    );
  });

  it('runs no hook for a session recorded without the pre-tool-use-hooks flag', async () => {
    const config = {
      ...scenarioConfig({
        workflow: implementOnlyWorkflow(),
        behaviour: { kernelVersion: 2, flags: new Set<string>() },
      }),
      hooks,
    };
    const { runner, inputs } = answering({
      outcome: 'answered',
      decision: 'block',
      tier: null,
      reason: 'x',
    });
    const { workspace, events } = await run('s-hook-unflagged', config, runner);
    expect(inputs).toHaveLength(0);
    expect(typesOf(events)).not.toContain('pre_tool_use_hooks_ran');
    expect(assessedOf(events)[0]).toMatchObject({ verdict: 'ALLOW' });
    expect(existsSync(join(workspace, 'notes.txt'))).toBe(true);
  });
});

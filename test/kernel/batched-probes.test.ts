import { renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CorrexEvent } from '../../src/core/event-catalog.js';
import { BATCHED_READ_ONLY_PROBES } from '../../src/core/kernel/config/kernel-flags.js';
import type { KernelConfig, KernelPorts, ToolRunner } from '../../src/core/kernel/index.js';
import { runSession } from '../../src/core/kernel/index.js';
import { HookSetSchema } from '../../src/core/toolintent/hook-definition.js';
import { builtinTools } from '../../src/core/tools/builtin-tools.js';
import { isBuiltInReadOnly } from '../../src/core/tools/tool-contract.js';
import { createBuiltinToolRunner } from '../../src/infrastructure/kernel/builtin-tool-runner.js';
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
import { tempDir } from '../support/temp-dir.js';

/*
 * Flag batched-read-only-probes: the paths of a run of read-only built-in calls are probed in
 * one effect. The assumption it rests on is that nothing between those probes and each call's
 * turn changes what was observed; each test breaks a way it could (a write in the run, a hook,
 * a folder swapped for a symlink after the probe).
 */

const stores = closeStoresAfterEach();

type ToolCall = { readonly name: string; readonly args: Record<string, unknown> };

async function run(
  sessionId: string,
  files: Record<string, string>,
  toolCalls: ToolCall[],
  options: {
    config?: KernelConfig;
    /** The tools the session runs with, made once its workspace exists. */
    tools?: (workspace: string) => ToolRunner;
    ports?: Partial<KernelPorts>;
  } = {},
) {
  const { workspace, storePath } = scenarioWorkspace(files);
  const store = openStore(storePath);
  stores.push(store);
  const config = options.config ?? scenarioConfig({ workflow: implementOnlyWorkflow() });
  const model = scriptedModel([
    { toolCalls },
    { text: JSON.stringify({ summary: 'done', filesChanged: [] }) },
  ]);
  const outcome = await runSession(
    {
      store,
      sessionId,
      config,
      ports: { ...livePorts(model, options.tools?.(workspace)), ...options.ports },
      clock: newClock(),
      ids: newIds(),
    },
    { type: 'start', task: 'Look around', workspace, workflowId: 'implement-only', mode: 'yolo' },
  );
  const events = await eventsOf(store, sessionId);
  await expectReplayIdentical(store, sessionId, config);
  return { workspace, outcome, events };
}

/** The log's tool events as `type:n`, n the call's place in the turn (1, 2, …). */
function callEvents(events: readonly CorrexEvent[]): string[] {
  return events.flatMap((event) => {
    const payload = event.payload as { type: string; callId?: string | null };
    if (typeof payload.callId !== 'string' || !/\.\d+$/.test(payload.callId)) return [];
    if (payload.type === 'tool_call_proposed') return [];
    return [
      `${payload.type.replace('tool_call_', '').replace('tool_', '')}:${payload.callId.split('.').at(-1)}`,
    ];
  });
}

const receiptOf = (events: readonly CorrexEvent[], n: number) =>
  events.flatMap((event) =>
    event.payload.type === 'tool_receipt' && event.payload.callId.endsWith(`.${n}`)
      ? [event.payload]
      : [],
  )[0]!;

const without = (config: KernelConfig, flag: string): KernelConfig => ({
  ...config,
  behaviour: {
    ...config.behaviour,
    flags: new Set([...config.behaviour.flags].filter((name) => name !== flag)),
  },
});

describe('batched read-only probes', () => {
  it('probes a run of reads in one effect, and a read after a write only once the write ran', async () => {
    const { outcome, events } = await run('s-batch', { 'a.txt': 'one\n', 'b.txt': 'two\n' }, [
      { name: 'read_file', args: { path: 'a.txt' } },
      { name: 'list_dir', args: { path: '.' } },
      { name: 'write_file', args: { path: 'c.txt', content: 'three\n' } },
      { name: 'read_file', args: { path: 'c.txt' } },
      { name: 'read_file', args: { path: 'b.txt' } },
    ]);
    expect(outcome.status).toBe('completed');
    const call = (n: number) => ['assessed', 'started', 'receipt'].map((type) => `${type}:${n}`);
    expect(callEvents(events).filter((entry) => !entry.startsWith('approval'))).toEqual([
      'world_observed:1',
      'world_observed:2',
      ...call(1),
      ...call(2),
      // The write is not read-only: it is probed alone, after the reads before it ran.
      'world_observed:3',
      ...call(3),
      // The reads after it are probed together once it has written c.txt.
      'world_observed:4',
      'world_observed:5',
      ...call(4),
      ...call(5),
    ]);
    expect(receiptOf(events, 4).output).toContain('three');
    expect(receiptOf(events, 5).output).toContain('two');
  });

  it('probes each call on its own without the flag, and that session replays too', async () => {
    const config = without(
      scenarioConfig({ workflow: implementOnlyWorkflow() }),
      BATCHED_READ_ONLY_PROBES.name,
    );
    const { outcome, events } = await run(
      's-unbatched',
      { 'a.txt': 'one\n', 'b.txt': 'two\n' },
      [
        { name: 'read_file', args: { path: 'a.txt' } },
        { name: 'read_file', args: { path: 'b.txt' } },
      ],
      { config },
    );
    expect(outcome.status).toBe('completed');
    const observed = callEvents(events).filter((entry) => entry.startsWith('world_observed'));
    const log = callEvents(events);
    expect(observed).toEqual(['world_observed:1', 'world_observed:2']);
    expect(log.indexOf('world_observed:2')).toBeGreaterThan(log.indexOf('receipt:1'));
  });

  it('does not probe ahead past a call a pre_tool_use hook sees first: a hook may change the world', async () => {
    const hooks = HookSetSchema.parse({
      pre_tool_use: [{ name: 'guard', command: ['/usr/bin/guard'], tools: ['list_dir'] }],
    });
    const config = { ...scenarioConfig({ workflow: implementOnlyWorkflow() }), hooks };
    const { outcome, events } = await run(
      's-hooked',
      { 'a.txt': 'one\n', 'b.txt': 'two\n' },
      [
        { name: 'read_file', args: { path: 'a.txt' } },
        { name: 'list_dir', args: { path: '.' } },
        { name: 'read_file', args: { path: 'b.txt' } },
      ],
      {
        config,
        ports: {
          hooks: {
            runPreToolUse: (request) =>
              Promise.resolve(
                request.hooks.map((hook) => ({
                  hook: hook.name,
                  durationMs: 1,
                  outcome: 'answered' as const,
                  decision: 'allow' as const,
                  tier: null,
                  reason: 'fine',
                })),
              ),
          },
        },
      },
    );
    expect(outcome.status).toBe('completed');
    const log = callEvents(events);
    // The read before the hooked call is probed alone; the hooked call and the read after it
    // are each probed in their own turn.
    expect(log.filter((entry) => entry.startsWith('world_observed'))).toEqual([
      'world_observed:1',
      'world_observed:2',
      'world_observed:3',
    ]);
    expect(log.indexOf('world_observed:2')).toBeGreaterThan(log.indexOf('receipt:1'));
    expect(log.indexOf('world_observed:3')).toBeGreaterThan(log.indexOf('receipt:2'));
  });

  // Every built-in read-only tool, with arguments that read inside sub/: a tool added later
  // without its own entry fails the completeness check below.
  const readsOfSub: Record<string, Record<string, unknown>> = {
    read_file: { path: 'sub/x.txt' },
    list_dir: { path: 'sub' },
    glob: { path: 'sub', pattern: '*' },
    grep: { path: 'sub', pattern: 'secret|inside' },
  };

  it('knows a read of sub/ for every built-in read-only tool', () => {
    expect(
      builtinTools
        .filter((tool) => isBuiltInReadOnly(tool))
        .map((tool) => tool.name)
        .sort(),
    ).toEqual(Object.keys(readsOfSub).sort());
  });

  it.each(Object.entries(readsOfSub))(
    'fails a %s whose folder was swapped for a symlink after the batched probe, reading nothing outside',
    async (tool, args) => {
      const outside = tempDir('correx-outside-');
      writeFileSync(join(outside, 'x.txt'), 'host secret\n');
      // Once the first read has run (both reads already probed), sub/ becomes a link outside.
      const swapAfterFirst = (workspace: string): ToolRunner => {
        const builtin = createBuiltinToolRunner();
        let ran = 0;
        return {
          async run(...runArgs) {
            const receipt = await builtin.run(...runArgs);
            ran += 1;
            if (ran === 1) {
              renameSync(join(workspace, 'sub'), join(workspace, 'sub-moved'));
              symlinkSync(outside, join(workspace, 'sub'));
            }
            return receipt;
          },
        };
      };
      const workflow = implementOnlyWorkflow(1, undefined, ['glob', 'grep']);
      const { outcome, events } = await run(
        `s-swapped-${tool}`,
        { 'a.txt': 'one\n', 'sub/x.txt': 'inside\n' },
        [
          { name: 'read_file', args: { path: 'a.txt' } },
          { name: tool, args },
        ],
        { config: scenarioConfig({ workflow }), tools: swapAfterFirst },
      );
      expect(outcome.status).toBe('completed');
      expect(callEvents(events).slice(0, 2)).toEqual(['world_observed:1', 'world_observed:2']);
      const swapped = receiptOf(events, 2);
      expect(swapped.outcome).not.toBe('succeeded');
      expect(swapped.error ?? '').toMatch(/resolves to|changed/);
      expect(JSON.stringify(events.map((event) => event.payload))).not.toContain('host secret');
    },
  );
});

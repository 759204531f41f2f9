import { createHash } from 'node:crypto';
import { z } from 'zod';
import { createCountingIdSource } from '../src/core/base/id-source.js';
import { createSteppingClock } from '../src/core/base/clock.js';
import { correxEventCatalog } from '../src/core/event-catalog.js';
import { createInMemoryEventStore } from '../src/core/events/in-memory-event-store.js';
import type { InferenceProvider } from '../src/core/inference/inference-provider.js';
import { createInferenceRouter } from '../src/core/inference/inference-router.js';
import { createKernelConfig, type KernelConfig } from '../src/core/kernel/kernel-config.js';
import type { KernelPorts } from '../src/core/kernel/kernel-ports.js';
import { replaySession } from '../src/core/kernel/replay-session.js';
import { runSession } from '../src/core/kernel/run-session.js';
import { parseWorkspacePolicy } from '../src/core/policies/workspace-policy.js';
import { createAssessmentPolicy } from '../src/core/toolintent/default-rules.js';
import { builtinTools } from '../src/core/tools/builtin-tools.js';
import { ChangeArtifactSchema } from '../src/core/transitions/default-coding-workflow.js';
import { parseWorkflow } from '../src/core/transitions/workflow.js';
import { createDefaultValidatorRegistry } from '../src/core/validation/default-validators.js';
import { row, type BenchRow } from './bench-table.js';

const WORKSPACE = '/bench/workspace';
const CALLS_PER_TURN = 50;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function benchConfig(): KernelConfig {
  const workflow = parseWorkflow({
    id: 'bench',
    initialStage: 'implement',
    stages: [
      {
        id: 'implement',
        role: 'implementer',
        instructions: 'Inspect the workspace.',
        allowedTools: ['list_dir'],
        artifact: { kind: 'change', schema: z.toJSONSchema(ChangeArtifactSchema) },
        transitions: [
          { when: { on: 'success' }, end: 'completed' },
          { when: { on: 'failure' }, end: 'failed' },
        ],
      },
    ],
  });
  return createKernelConfig({
    workflow,
    tools: builtinTools,
    policy: createAssessmentPolicy(parseWorkspacePolicy({})),
    router: createInferenceRouter({
      profiles: [
        {
          id: 'bench',
          provider: 'bench',
          model: 'bench',
          capabilities: ['tool_calling'],
          contextWindow: 1_000_000,
        },
      ],
    }),
    validators: createDefaultValidatorRegistry(),
    homeDirectory: '/bench/home',
    limits: { maxTurnsPerStage: 10_000, maxCallsPerTurn: CALLS_PER_TURN },
    sha256,
  });
}

/** A model that proposes `CALLS_PER_TURN` list_dir calls per turn for `turns` turns, then finishes. */
function benchModel(turns: number): InferenceProvider {
  let turn = 0;
  return {
    name: 'bench',
    infer(request) {
      turn += 1;
      const finish = turn > turns;
      return Promise.resolve({
        text: finish ? JSON.stringify({ summary: 'looked', filesChanged: [] }) : '',
        toolCalls: finish
          ? []
          : Array.from({ length: CALLS_PER_TURN }, (_unused, index) => ({
              callId: `t${turn}-${index}`,
              name: 'list_dir',
              argsRaw: JSON.stringify({ path: `dir-${index}` }),
              args: { path: `dir-${index}` },
            })),
        finishReason: finish ? 'stop' : 'tool_calls',
        usage: { inputTokens: 0, outputTokens: 0 },
        modelId: request.model,
        latencyMs: 0,
      });
    },
  };
}

/** The world as a constant directory and a tool that does nothing: what is left is the kernel. */
const noopPorts = (turns: number): KernelPorts => ({
  providers: new Map([['bench', benchModel(turns)]]),
  probe: {
    observe: (path) =>
      Promise.resolve({
        path,
        kind: 'directory',
        realPath: path,
        linkTarget: null,
        sha256: null,
        size: null,
        mtimeMs: 0,
        linkCount: null,
      }),
  },
  tools: {
    run: () =>
      Promise.resolve({
        outcome: 'succeeded',
        exitCode: null,
        error: null,
        output: 'ok',
        outputBytes: 2,
        outputSha256: sha256('ok'),
        truncated: false,
        files: [],
        durationMs: 0,
      }),
  },
});

async function recordSession(turns: number) {
  const store = createInMemoryEventStore({ catalog: correxEventCatalog, sha256 });
  const config = benchConfig();
  const start = process.hrtime.bigint();
  const outcome = await runSession(
    {
      store,
      sessionId: 'bench',
      config,
      ports: noopPorts(turns),
      clock: createSteppingClock('2026-11-30T12:00:00.000Z'),
      ids: createCountingIdSource('in'),
    },
    { type: 'start', task: 'look around', workspace: WORKSPACE, workflowId: 'bench', mode: 'auto' },
  );
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (outcome.status !== 'completed') throw new Error(`bench session ended ${outcome.status}`);
  return { store, config, seconds, events: await store.lastSequence('bench') };
}

/**
 * Kernel overhead per tool-call cycle (propose, probe, assess, approve, record intent, run a
 * no-op tool, record the receipt) with a scripted model on the in-memory store, and replay
 * speed (re-deciding a recorded session with no ports), against the store's own append and read.
 */
export async function runKernelBench(options: { quick?: boolean } = {}): Promise<BenchRow[]> {
  const turns = options.quick ? 4 : 34;
  const recorded = await recordSession(turns);
  const calls = turns * CALLS_PER_TURN;

  // Baseline: the store alone appending the same number of events one batch per event.
  const baselineStore = createInMemoryEventStore({ catalog: correxEventCatalog, sha256 });
  const all = await recorded.store.read('bench');
  const appendStart = process.hrtime.bigint();
  for (const event of all) {
    const { sequence: _s, position: _p, hash: _h, version: _v, ...fresh } = event;
    await baselineStore.append(fresh);
  }
  const appendSeconds = Number(process.hrtime.bigint() - appendStart) / 1e9;
  const baseline = row('store append, one event', all.length / appendSeconds, 'events/s');

  const cycle = row(
    `kernel tool-call cycle (${recorded.events} events, ${calls} calls)`,
    calls / recorded.seconds,
    'cycles/s',
    baseline,
  );

  const replayRow = row(
    `replay --verify of ${recorded.events} events`,
    recorded.events / (await replaySeconds(recorded)),
    'events/s',
    baseline,
  );

  // Cost against history: the same cycle and replay on a session a tenth as long. A ratio near
  // 1 means per-step cost does not grow with the session's length.
  // Recorded after the long one, so both run warmed up.
  const short = await recordSession(Math.max(1, Math.round(turns / 10)));
  const shortCalls = Math.max(1, Math.round(turns / 10)) * CALLS_PER_TURN;
  const shortCycle = row(
    `kernel cycle, short session (${short.events} events)`,
    shortCalls / short.seconds,
    'cycles/s',
  );
  const longCycle = row(
    `kernel cycle, long session (${recorded.events} events)`,
    calls / recorded.seconds,
    'cycles/s',
    shortCycle,
  );
  const shortReplay = row(
    `replay, short session (${short.events} events)`,
    short.events / (await replaySeconds(short)),
    'events/s',
  );
  const longReplay = row(
    `replay, long session (${recorded.events} events)`,
    recorded.events / (await replaySeconds(recorded)),
    'events/s',
    shortReplay,
  );
  return [baseline, cycle, replayRow, shortCycle, longCycle, shortReplay, longReplay];
}

async function replaySeconds(recorded: Awaited<ReturnType<typeof recordSession>>): Promise<number> {
  const start = process.hrtime.bigint();
  const report = await replaySession(recorded.store, 'bench', recorded.config);
  if (!report.ok) throw new Error(`bench replay diverged at ${report.divergence.sequence}`);
  return Number(process.hrtime.bigint() - start) / 1e9;
}

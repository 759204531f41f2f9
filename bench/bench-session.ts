import { nodeSha256 } from '../src/infrastructure/system/node-sha256.js';
import { z } from 'zod';
import { createCountingIdSource } from '../src/core/base/id-source.js';
import { createSteppingClock } from '../src/core/base/clock.js';
import { correxEventCatalog, type CorrexEventStore } from '../src/core/event-catalog.js';
import { createInMemoryEventStore } from '../src/core/events/in-memory-event-store.js';
import type { InferenceProvider } from '../src/core/inference/inference-provider.js';
import { createInferenceRouter } from '../src/core/inference/inference-router.js';
import { createKernelConfig, type KernelConfig, runSession } from '../src/core/kernel/index.js';
import type { KernelPorts } from '../src/core/kernel/index.js';
import { parseWorkspacePolicy } from '../src/core/policies/workspace-policy.js';
import { createAssessmentPolicy } from '../src/core/toolintent/default-rules.js';
import { builtinTools } from '../src/core/tools/builtin-tools.js';
import { ChangeArtifactSchema } from '../src/core/transitions/default-coding-workflow.js';
import { parseWorkflow } from '../src/core/transitions/workflow.js';
import { createDefaultValidatorRegistry } from '../src/core/validation/default-validators.js';
import { createDiskProjectCheckDetector } from '../src/infrastructure/checks/disk-project-check-detector.js';

/*
 * The session the kernel and replay benches record: one stage whose scripted model proposes
 * CALLS_PER_TURN list_dir calls a turn (or write_file calls, which can change the world) against
 * a constant world and a no-op tool, so what is measured is the kernel (and the store), not a
 * model or a filesystem.
 */

const WORKSPACE = '/bench/workspace';
export const CALLS_PER_TURN = 50;
// The product's SHA-256 (what the CLI and the server give the kernel), not a slower stand-in.
export const sha256 = nodeSha256;

export function benchConfig(tool: BenchTool = 'list_dir'): KernelConfig {
  const workflow = parseWorkflow({
    id: 'bench',
    initialStage: 'implement',
    stages: [
      {
        id: 'implement',
        role: 'implementer',
        instructions: 'Inspect the workspace.',
        allowedTools: [tool],
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

/** When a model turn began: wall clock (ns) and the process's CPU time (µs) so far. */
export type TurnMark = { readonly wallNs: bigint; readonly cpuMicros: number };

/**
 * A model that proposes `CALLS_PER_TURN` list_dir calls per turn for `turns` turns, then
 * finishes. It marks when each turn's call arrives: the time between two marks is one turn's
 * CALLS_PER_TURN tool-call cycles (and its request build) at that point of the session.
 */
function benchModel(
  turns: number,
  calls: number,
  marks: TurnMark[],
  tool: BenchTool,
  writeBytes: number | undefined,
): InferenceProvider {
  let turn = 0;
  return {
    name: 'bench',
    infer(request) {
      const cpu = process.cpuUsage();
      marks.push({ wallNs: process.hrtime.bigint(), cpuMicros: cpu.user + cpu.system });
      turn += 1;
      const finish = turn > turns;
      const artifact = JSON.stringify({ summary: 'looked', filesChanged: [] });
      // The stage ends with its finishing tool when the request offers one, else with JSON text.
      const finishing = request.tools.some((tool) => tool.name === 'finish_change');
      return Promise.resolve({
        text: finish && !finishing ? artifact : '',
        toolCalls: finish
          ? finishing
            ? [
                {
                  callId: 'finish',
                  name: 'finish_change',
                  argsRaw: artifact,
                  args: JSON.parse(artifact) as Record<string, unknown>,
                },
              ]
            : []
          : Array.from({ length: calls }, (_unused, index) => {
              const args =
                tool === 'list_dir'
                  ? { path: `dir-${index}` }
                  : {
                      path: `file-${turn}-${index}.txt`,
                      content:
                        writeBytes === undefined ? 'x' : benchFileContent(turn, index, writeBytes),
                    };
              return {
                callId: `t${turn}-${index}`,
                name: tool,
                argsRaw: JSON.stringify(args),
                args,
              };
            }),
        finishReason: finish ? 'stop' : 'tool_calls',
        usage: { inputTokens: 0, outputTokens: 0 },
        modelId: request.model,
        latencyMs: 0,
      });
    },
  };
}

/**
 * A source file of about `bytes` bytes for a bench write, different for each call (a model writes
 * a new file or a new version, never the same text twice).
 */
export function benchFileContent(turn: number, index: number, bytes: number): string {
  const lines: string[] = [`// file ${turn}.${index}`];
  let size = lines[0]!.length + 1;
  for (let line = 0; size < bytes; line += 1) {
    const text = `export const value${line} = compute(${turn}, ${index}, ${line}); // step ${line}`;
    lines.push(text);
    size += text.length + 1;
  }
  return `${lines.join('\n')}\n`.slice(0, Math.max(bytes, 1));
}

/** The tool the bench model calls: read-only, or one that can change the world. */
export type BenchTool = 'list_dir' | 'write_file';

/**
 * The world as constant directories (and no files: every write creates one) and a tool that
 * does nothing: what is left is the kernel.
 */
const noopPorts = (
  turns: number,
  calls: number,
  marks: TurnMark[],
  tool: BenchTool,
  writeBytes: number | undefined,
): KernelPorts => ({
  providers: new Map([['bench', benchModel(turns, calls, marks, tool, writeBytes)]]),
  // The workspace does not exist: no project files, so no checks.
  checks: createDiskProjectCheckDetector(),
  probe: {
    observe: (path) =>
      Promise.resolve({
        path,
        kind: path.endsWith('.txt') ? 'missing' : 'directory',
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

/**
 * Records a bench session of `turns` model turns into `store` (default: a fresh in-memory one)
 * and times it; `sessionId` names it; `callsPerTurn` (default CALLS_PER_TURN) calls of `tool`
 * (default list_dir) a turn.
 */
export async function recordSession(
  turns: number,
  options: {
    store?: CorrexEventStore;
    sessionId?: string;
    callsPerTurn?: number;
    tool?: BenchTool;
    /** The size of each write_file call's content (benchFileContent); default one byte. */
    writeBytes?: number;
    /** Default: `benchConfig(tool)`. */
    config?: KernelConfig;
  } = {},
) {
  const store = options.store ?? createInMemoryEventStore({ catalog: correxEventCatalog, sha256 });
  const sessionId = options.sessionId ?? 'bench';
  const config = options.config ?? benchConfig(options.tool);
  const marks: TurnMark[] = [];
  const start = process.hrtime.bigint();
  const outcome = await runSession(
    {
      store,
      sessionId,
      config,
      ports: noopPorts(
        turns,
        options.callsPerTurn ?? CALLS_PER_TURN,
        marks,
        options.tool ?? 'list_dir',
        options.writeBytes,
      ),
      clock: createSteppingClock('2026-11-30T12:00:00.000Z'),
      ids: createCountingIdSource('in'),
    },
    { type: 'start', task: 'look around', workspace: WORKSPACE, workflowId: 'bench', mode: 'auto' },
  );
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (outcome.status !== 'completed') throw new Error(`bench session ended ${outcome.status}`);
  return { store, config, seconds, marks, events: await store.lastSequence(sessionId) };
}

/**
 * The cost of one tool-call cycle near the end of a recorded session: the median over its last
 * `window` turns of each turn's wall and CPU time, divided by the calls a turn makes.
 */
export function lateCycleCost(
  marks: readonly TurnMark[],
  window = 10,
): { readonly wallMs: number; readonly cpuMs: number } {
  const spans: { wallMs: number; cpuMs: number }[] = [];
  // The last mark is the finishing turn; the spans before it are full turns of calls.
  for (let index = Math.max(1, marks.length - window); index < marks.length; index += 1) {
    const from = marks[index - 1]!;
    const to = marks[index]!;
    spans.push({
      wallMs: Number(to.wallNs - from.wallNs) / 1e6 / CALLS_PER_TURN,
      cpuMs: (to.cpuMicros - from.cpuMicros) / 1000 / CALLS_PER_TURN,
    });
  }
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
  };
  return {
    wallMs: median(spans.map((span) => span.wallMs)),
    cpuMs: median(spans.map((span) => span.cpuMs)),
  };
}

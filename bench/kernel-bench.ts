import { correxEventCatalog, type CorrexEvent } from '../src/core/event-catalog.js';
import {
  kernelProjection,
  runOf,
  buildStageRequest,
  replaySession,
} from '../src/core/kernel/index.js';
import { createInMemoryEventStore } from '../src/core/events/in-memory-event-store.js';
import type { KernelConfig } from '../src/core/kernel/index.js';
import { row, type BenchRow } from './bench-table.js';
import { CALLS_PER_TURN, lateCycleCost, recordSession, sha256 } from './bench-session.js';

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

  // Cost against history: the cost of a cycle late in a ~1k-event session against late in a
  // ~100k-event one (~10k with --quick), per wall and per CPU second, each measured over the
  // last turns of its own session (not averaged from the start). A ratio near 1 means a step
  // costs the same however long the session already is.
  const short = await recordSession(3);
  const long = await recordSession(options.quick ? 34 : 330);
  const shortCost = lateCycleCost(short.marks);
  const longCost = lateCycleCost(long.marks);
  const shortCycle = row(
    `kernel cycle late in a ${short.events}-event session (wall)`,
    1000 / shortCost.wallMs,
    'cycles/s',
  );
  const longCycle = row(
    `kernel cycle late in a ${long.events}-event session (wall)`,
    1000 / longCost.wallMs,
    'cycles/s',
    shortCycle,
  );
  const shortCpu = row(
    `kernel cycle late in a ${short.events}-event session (CPU)`,
    1000 / shortCost.cpuMs,
    'cycles/s',
  );
  const longCpu = row(
    `kernel cycle late in a ${long.events}-event session (CPU)`,
    1000 / longCost.cpuMs,
    'cycles/s',
    shortCpu,
  );
  // Kernel CPU per tool call, with one call per answer and with CALLS_PER_TURN calls per answer,
  // each measured late in its own session (the span between two model calls, divided by calls).
  const perCall = async (callsPerTurn: number) => {
    const session = await recordSession(options.quick ? 20 : 200, { callsPerTurn });
    // lateCycleCost divides each turn's span by CALLS_PER_TURN; a turn here holds callsPerTurn.
    return (lateCycleCost(session.marks, 100).cpuMs * CALLS_PER_TURN) / callsPerTurn;
  };
  const oneCall = row(
    'kernel cycle CPU per tool call, 1 call per answer',
    1000 / (await perCall(1)),
    'calls/s',
  );
  const manyCalls = row(
    `kernel cycle CPU per tool call, ${CALLS_PER_TURN} calls per answer`,
    1000 / (await perCall(CALLS_PER_TURN)),
    'calls/s',
    oneCall,
  );
  const shortReplay = row(
    `replay, short session (${short.events} events)`,
    short.events / (await replaySeconds(short)),
    'events/s',
  );
  const longReplay = row(
    `replay, long session (${long.events} events)`,
    long.events / (await replaySeconds(long)),
    'events/s',
    shortReplay,
  );
  return [
    baseline,
    cycle,
    replayRow,
    requestBuildRow(recorded.config, all, baseline),
    shortCycle,
    longCycle,
    shortCpu,
    longCpu,
    oneCall,
    manyCalls,
    shortReplay,
    longReplay,
  ];
}

async function replaySeconds(recorded: Awaited<ReturnType<typeof recordSession>>): Promise<number> {
  const start = process.hrtime.bigint();
  const report = await replaySession(recorded.store, 'bench', recorded.config);
  if (!report.ok) throw new Error(`bench replay diverged at ${report.divergence.sequence}`);
  return Number(process.hrtime.bigint() - start) / 1e9;
}

/**
 * The harness's own cost of one model call: building the stage request (routing, the budgeted
 * pack over the attempt's whole transcript, the native tool conversation, both digests) from the
 * state just before the session's last model call, whose transcript holds every earlier call.
 */
function requestBuildRow(
  config: KernelConfig,
  events: readonly CorrexEvent[],
  baseline: BenchRow,
): BenchRow {
  const last = events.findLastIndex((event) => event.payload.type === 'inference_requested');
  let state = kernelProjection.initial();
  for (const event of events.slice(0, last)) state = kernelProjection.evolve(state, event);
  const run = runOf(state);
  const stage = config.workflow.stages.get('implement');
  if (run === null || stage === undefined) throw new Error('bench state has no running stage');
  const repeats = 50;
  const start = process.hrtime.bigint();
  for (let index = 0; index < repeats; index += 1) {
    const built = buildStageRequest(config, state, stage, run, `bench.${index}`);
    if (!built.ok) throw new Error(built.message);
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return row(
    `stage request build (${run.transcript.length} transcript entries, native)`,
    repeats / seconds,
    'requests/s',
    baseline,
  );
}

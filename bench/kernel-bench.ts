import { correxEventCatalog, type CorrexEvent } from '../src/core/event-catalog.js';
import { kernelProjection, runOf } from '../src/core/kernel/kernel-state.js';
import { buildStageRequest } from '../src/core/kernel/stage-request.js';
import { createInMemoryEventStore } from '../src/core/events/in-memory-event-store.js';
import type { KernelConfig } from '../src/core/kernel/kernel-config.js';
import { replaySession } from '../src/core/kernel/replay-session.js';
import { row, type BenchRow } from './bench-table.js';
import { CALLS_PER_TURN, recordSession, sha256 } from './bench-session.js';

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
  return [
    baseline,
    cycle,
    replayRow,
    requestBuildRow(recorded.config, all, baseline),
    shortCycle,
    longCycle,
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

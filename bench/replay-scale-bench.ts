import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { correxEventCatalog } from '../src/core/event-catalog.js';
import { replaySession } from '../src/core/kernel/index.js';
import { openSqliteEventStore } from '../src/infrastructure/sqlite/sqlite-event-store.js';
import { nodeSha256 } from '../src/infrastructure/system/node-sha256.js';
import { CALLS_PER_TURN, recordSession } from './bench-session.js';
import { row, type BenchRow } from './bench-table.js';

const root = fileURLToPath(new URL('..', import.meta.url));
/** Events one bench turn records: its model call and CALLS_PER_TURN tool-call cycles. */
const EVENTS_PER_TURN = 6 * CALLS_PER_TURN + 6;

type ReplayRun = {
  readonly events: number;
  /** The replay itself, as `correx replay` reports it (without process start). */
  readonly replayMs: number;
  readonly cpuMs: number;
  readonly maxRssBytes: number;
  readonly peakHeapBytes: number;
};

/** Records a bench session of about `events` events into a SQLite file (synchronous NORMAL). */
async function recordSqliteSession(path: string, events: number) {
  const store = openSqliteEventStore(path, { catalog: correxEventCatalog, synchronous: 'normal' });
  try {
    const turns = Math.max(1, Math.round(events / EVENTS_PER_TURN));
    return await recordSession(turns, { store, sessionId: 'bench' });
  } finally {
    await store.close();
  }
}

/**
 * `correx --store <file> replay --verify bench` as a real subprocess of bin/correx, with a
 * preload that reports its peak RSS, peak heap and CPU time at exit.
 */
function replayVerify(storePath: string, usagePath: string): Promise<ReplayRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        join(root, 'bench/process-usage.mjs'),
        join(root, 'bin/correx'),
        '--store',
        storePath,
        'replay',
        '--verify',
        'bench',
      ],
      { env: { ...process.env, CORREX_BENCH_USAGE: usagePath }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const verdict = /identical — (\d+) events.* in (\d+) ms/.exec(out);
      if (code !== 0 || verdict === null)
        return reject(new Error(`replay --verify exited ${code}: ${out.trim()}`));
      const usage = JSON.parse(readFileSync(usagePath, 'utf8')) as {
        maxRssBytes: number;
        peakHeapBytes: number;
        cpuMicros: number;
      };
      resolve({
        events: Number(verdict[1]),
        replayMs: Math.max(1, Number(verdict[2])),
        cpuMs: usage.cpuMicros / 1000,
        maxRssBytes: usage.maxRssBytes,
        peakHeapBytes: usage.peakHeapBytes,
      });
    });
  });
}

/**
 * What `correx replay --verify` runs (replaySession over the SQLite store with the recorded
 * configuration and Node's SHA-256), in this process, timed by wall and CPU clock: on a loaded
 * machine the CPU time is the figure that does not depend on what else runs.
 */
async function replayInProcess(path: string): Promise<{ wallSeconds: number; cpuSeconds: number }> {
  const store = openSqliteEventStore(path, { catalog: correxEventCatalog });
  try {
    const cpu = process.cpuUsage();
    const start = process.hrtime.bigint();
    const report = await replaySession(store, 'bench', undefined, { sha256: nodeSha256 });
    const used = process.cpuUsage(cpu);
    if (!report.ok) throw new Error(`bench replay diverged at ${report.divergence.sequence}`);
    return {
      wallSeconds: Number(process.hrtime.bigint() - start) / 1e9,
      cpuSeconds: (used.user + used.system) / 1e6,
    };
  } finally {
    await store.close();
  }
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const signed = (bytes: number) => `${bytes < 0 ? '-' : '+'}${mb(Math.abs(bytes))}`;

/**
 * `correx replay --verify` of bench sessions of 10k and 100k events (and 1M with `--huge`) in a
 * SQLite store: events/s of each against the 10k one (flat in history means a ratio near 1),
 * in this process by wall and CPU clock and as a real bin/correx subprocess, whose peak RSS and
 * heap must not grow with the log's length.
 */
export async function runReplayScaleBench(
  options: { quick?: boolean; huge?: boolean } = {},
): Promise<{ rows: BenchRow[]; notes: string[] }> {
  const sizes = options.quick
    ? [1_000, 10_000]
    : options.huge
      ? [10_000, 100_000, 1_000_000]
      : [10_000, 100_000];
  const dir = mkdtempSync(join(tmpdir(), 'correx-replay-bench-'));
  const rows: BenchRow[] = [];
  const notes: string[] = [];
  try {
    // Warm up the replay path (not only the recording one) on a session as long as the first
    // size, so that size is not the one that pays for compiling it.
    const warm = join(dir, 'warm.db');
    await recordSqliteSession(warm, sizes[0]!);
    await replayInProcess(warm);
    rmSync(warm, { force: true });
    let baselineWall: BenchRow | undefined;
    let baselineCpu: BenchRow | undefined;
    let baselineCli: BenchRow | undefined;
    let baselineRun: ReplayRun | undefined;
    for (const size of sizes) {
      const path = join(dir, `replay-${size}.db`);
      const recorded = await recordSqliteSession(path, size);
      const events = recorded.events;
      const inProcess = await replayInProcess(path);
      const wall = row(
        `replay --verify, ${events} events (wall)`,
        events / inProcess.wallSeconds,
        'events/s',
        baselineWall,
      );
      const cpu = row(
        `replay --verify, ${events} events (CPU)`,
        events / inProcess.cpuSeconds,
        'events/s',
        baselineCpu,
      );
      const run = await replayVerify(path, join(dir, `usage-${size}.json`));
      const cli = row(
        `bin/correx replay --verify, ${run.events} events (wall, as it reports)`,
        run.events / (run.replayMs / 1000),
        'events/s',
        baselineCli,
      );
      baselineWall ??= wall;
      baselineCpu ??= cpu;
      baselineCli ??= cli;
      baselineRun ??= run;
      rows.push(wall, cpu, cli);
      notes.push(
        `${run.events} events: recorded in ${recorded.seconds.toFixed(1)} s; bin/correx replay --verify peak RSS ${mb(run.maxRssBytes)} (${signed(run.maxRssBytes - baselineRun.maxRssBytes)} against ${baselineRun.events}), peak heap ${mb(run.peakHeapBytes)} (${signed(run.peakHeapBytes - baselineRun.peakHeapBytes)}), process CPU ${(run.cpuMs / 1000).toFixed(1)} s`,
      );
      rmSync(path, { force: true });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { rows, notes };
}

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { correxEventCatalog } from '../src/core/event-catalog.js';
import { openSqliteEventStore } from '../src/infrastructure/sqlite/sqlite-event-store.js';
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

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/**
 * `correx replay --verify` of bench sessions of 10k and 100k events (and 1M with `--huge`) in a
 * SQLite store: events/s of each against the 10k one (flat in history means a ratio near 1),
 * and each process's peak RSS and heap, which must not grow with the log's length.
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
    let baseline: BenchRow | undefined;
    let baselineRun: ReplayRun | undefined;
    for (const size of sizes) {
      const path = join(dir, `replay-${size}.db`);
      const recorded = await recordSqliteSession(path, size);
      const run = await replayVerify(path, join(dir, `usage-${size}.json`));
      const replay = row(
        `replay --verify, ${run.events} events (wall)`,
        run.events / (run.replayMs / 1000),
        'events/s',
        baseline,
      );
      baseline ??= replay;
      baselineRun ??= run;
      rows.push(replay);
      rows.push(
        row(`  same, per CPU second (whole process)`, run.events / (run.cpuMs / 1000), 'events/s'),
      );
      notes.push(
        `${run.events} events: recorded in ${recorded.seconds.toFixed(1)} s, peak RSS ${mb(run.maxRssBytes)} (+${mb(run.maxRssBytes - baselineRun.maxRssBytes)} over ${baselineRun.events}), peak heap ${mb(run.peakHeapBytes)}`,
      );
      rmSync(path, { force: true });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { rows, notes };
}

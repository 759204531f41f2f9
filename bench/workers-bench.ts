import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { systemClock } from '../src/infrastructure/system/system-clock.js';
import { createUuidV7IdSource } from '../src/infrastructure/system/uuid-v7-id-source.js';
import { openStores } from '../src/infrastructure/open-store.js';
import { migratePostgres } from '../src/infrastructure/postgres/postgres-migrations.js';
import { openPostgresSessionLocker } from '../src/infrastructure/postgres/postgres-session-locker.js';
import { composeSessionHost } from '../src/main/compose-host.js';
import { sse, startFakeHttpServer } from '../test/providers/fake-http-server.js';
import { chatCompletionStream } from '../test/providers/openai-wire.js';
import { row, type BenchRow } from './bench-table.js';

const WORKFLOW = `id: finish-at-once
initialStage: implement
stages:
  - id: implement
    role: implementer
    instructions: Answer with the artifact.
    allowedTools: [read_file]
    capabilities: [tool_calling]
    artifact:
      kind: change
      schema:
        type: object
        properties: { summary: { type: string } }
        required: [summary]
        additionalProperties: false
    transitions:
      - when: { on: success }
        end: completed
      - when: { on: failure }
        end: failed
`;

export type WorkersBenchResult = {
  readonly rows: BenchRow[];
  /** Runnable → first driver lock with idle workers, per worker count: median and p99 in ms. */
  readonly latency: {
    readonly workers: number;
    readonly medianMs: number;
    readonly p99Ms: number;
  }[];
  /** From a worker's SIGSTOP to its session taken by another worker (lease `leaseMs`), in ms. */
  readonly takeover: { readonly leaseMs: number; readonly ms: number } | null;
  /** One append's time with the driver fence and without, same session, alternating rounds, µs. */
  readonly fence: { readonly fencedUs: number; readonly plainUs: number } | null;
};

/** The lease the workers run with here, so the SIGSTOP takeover finishes in seconds. */
const BENCH_LEASE_MS = 2000;

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

/**
 * `npm run bench -- --only workers`: sessions completed per second by 1, 2 and 4 `correx worker`
 * processes (a scripted model that answers with the artifact at once, no tool calls), each on
 * a fresh database, and the time from a session becoming runnable (its first event) to a
 * worker taking its driver lock. Sessions are recorded as `serve --no-drive` records them.
 */
export async function runWorkersBench(
  options: { quick?: boolean; url?: string } = {},
): Promise<WorkersBenchResult | null> {
  const base =
    options.url ??
    process.env.CORREX_BENCH_POSTGRES_URL ??
    'postgres://postgres@127.0.0.1:5432/test';
  const admin = new pg.Client({ connectionString: base, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (error) {
    console.log(`worker benchmarks skipped: ${base} unreachable (${(error as Error).message})`);
    return null;
  }
  const sessions = options.quick ? 8 : 40;
  const root = mkdtempSync(join(tmpdir(), 'correx-workers-bench-'));
  const home = join(root, 'home');
  mkdirSync(home);
  writeFileSync(join(root, 'workflow.yaml'), WORKFLOW);
  const model = await startFakeHttpServer();
  // The artifact through the stage's finishing tool, at once (a plain-text answer is no
  // artifact: the session would retry and fail instead of completing).
  /** While set, answers wait for it: the takeover phase keeps a session in a model call. */
  let hold: Promise<void> | null = null;
  model.reply((request, response) => {
    const answer = () =>
      sse(
        chatCompletionStream({
          toolCalls: [
            { id: 'finish', name: 'finish_change', arguments: JSON.stringify({ summary: 'done' }) },
          ],
        }),
      )(request, response);
    if (hold === null) answer();
    else void hold.then(answer);
  });
  const env = {
    ...process.env,
    CORREX_HOME: home,
    OPENAI_BASE_URL: `${model.url}/v1`,
    CORREX_MODEL: 'bench-model',
  };
  const rows: BenchRow[] = [];
  const latency: WorkersBenchResult['latency'] = [];
  let takeover: WorkersBenchResult['takeover'] = null;
  let fence: WorkersBenchResult['fence'] = null;
  try {
    for (const count of [1, 2, 4]) {
      const name = `correx_bench_workers_${process.pid}_${count}`;
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.query(`CREATE DATABASE "${name}"`);
      const url = new URL(base);
      url.pathname = `/${name}`;
      const location = url.toString();
      const workers: ChildProcess[] = [];
      try {
        await migratePostgres(location);
        const ready = [];
        for (let index = 0; index < count; index++) {
          const child = spawn(
            process.execPath,
            [
              '--import',
              'tsx',
              'src/main/cli.ts',
              '--store',
              location,
              'worker',
              '--concurrency',
              '4',
              '--lease-ms',
              String(BENCH_LEASE_MS),
            ],
            { env, stdio: ['ignore', 'pipe', 'inherit'] },
          );
          workers.push(child);
          ready.push(
            new Promise<void>((resolve, reject) => {
              let out = '';
              child.stdout!.on('data', (chunk: Buffer) => {
                out += chunk.toString('utf8');
                if (out.includes('driving up to')) resolve();
              });
              child.on('exit', (code) => reject(new Error(`worker exited (${code})`)));
            }),
          );
        }
        await Promise.all(ready);
        const stores = await openStores(location);
        const locker = openPostgresSessionLocker(location, 'correx');
        const host = await composeSessionHost({
          store: stores.events,
          locker,
          correxHome: home,
          protectedPaths: [],
          clock: systemClock,
          ids: createUuidV7IdSource(),
          env,
          notice: () => undefined,
          recordOnly: true,
        });
        const started = process.hrtime.bigint();
        for (let index = 0; index < sessions; index++) {
          const workspace = join(root, `${count}-${index}`);
          mkdirSync(workspace);
          await host.start({
            task: `bench ${index}`,
            workspace,
            workflow: join(root, 'workflow.yaml'),
            mode: 'auto',
          });
        }
        const pool = new pg.Pool({ connectionString: location, max: 1 });
        for (;;) {
          const { rows: done } = await pool.query<{ n: string }>(
            `SELECT count(*) AS n FROM correx.events WHERE type IN ('workflow_completed', 'workflow_failed')`,
          );
          if (Number(done[0]!.n) >= sessions) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        // Latency with idle workers: one session at a time, each recorded once the last is done,
        // so the time is discovery (NOTIFY, listing, lock), not waiting for a free slot.
        const probes: string[] = [];
        for (let index = 0; index < (options.quick ? 5 : 20); index++) {
          const workspace = join(root, `${count}-probe-${index}`);
          mkdirSync(workspace);
          const { sessionId } = await host.start({
            task: `probe ${index}`,
            workspace,
            workflow: join(root, 'workflow.yaml'),
            mode: 'auto',
          });
          probes.push(sessionId);
          for (;;) {
            const { rows: done } = await pool.query(
              `SELECT 1 FROM correx.events WHERE session_id = $1
               AND type IN ('workflow_completed', 'workflow_failed')`,
              [sessionId],
            );
            if (done.length > 0) break;
            await new Promise((resolve) => setTimeout(resolve, 10));
          }
        }
        const { rows: waits } = await pool.query<{ ms: number }>(
          `SELECT extract(epoch FROM min(d.acquired_at) - s.first_timestamp::timestamptz) * 1000 AS ms
           FROM correx.sessions s JOIN correx.session_drivers d USING (session_id)
           WHERE s.session_id = ANY($1::text[])
           GROUP BY s.session_id, s.first_timestamp`,
          [probes],
        );
        // A worker paused (SIGSTOP) while it drives a session in a model call: the time until
        // another worker holds that session (its lease ran out, the epoch moved on).
        if (count === 2) {
          let release: () => void = () => {};
          hold = new Promise<void>((resolve) => (release = resolve));
          const workspace = join(root, `${count}-takeover`);
          mkdirSync(workspace);
          const { sessionId } = await host.start({
            task: 'takeover',
            workspace,
            workflow: join(root, 'workflow.yaml'),
            mode: 'auto',
          });
          const holder = async () =>
            (
              await pool.query<{ driver: string | null; driver_epoch: string }>(
                `SELECT driver, driver_epoch FROM correx.sessions WHERE session_id = $1`,
                [sessionId],
              )
            ).rows[0];
          let first = await holder();
          while (first?.driver == null) {
            await new Promise((resolve) => setTimeout(resolve, 10));
            first = await holder();
          }
          const pid = Number(/:(\d+)$/.exec(first.driver)![1]);
          const paused = workers.find((child) => child.pid === pid)!;
          const stopped = process.hrtime.bigint();
          paused.kill('SIGSTOP');
          for (;;) {
            const now = await holder();
            if (Number(now!.driver_epoch) > Number(first.driver_epoch)) break;
            await new Promise((resolve) => setTimeout(resolve, 5));
          }
          takeover = {
            leaseMs: BENCH_LEASE_MS,
            ms: Number(process.hrtime.bigint() - stopped) / 1e6,
          };
          hold = null;
          release();
          paused.kill('SIGCONT');
        }
        // The fence's cost: appends to one session with its driver epoch and without, in
        // alternating rounds on the same store.
        if (count === 1) fence = await measureFence(stores.events, options.quick ? 200 : 1000);
        await pool.end();
        await locker.close();
        await stores.close();
        const sorted = waits.map((wait) => Number(wait.ms)).sort((a, b) => a - b);
        latency.push({
          workers: count,
          medianMs: percentile(sorted, 50),
          p99Ms: percentile(sorted, 99),
        });
        rows.push(
          row(
            `${sessions} sessions, ${count} worker(s)`,
            sessions / seconds,
            'sessions/s',
            rows[0],
          ),
        );
      } finally {
        for (const child of workers) child.kill('SIGTERM');
        await Promise.all(
          workers.map((child) =>
            child.exitCode === null ? new Promise((resolve) => child.on('exit', resolve)) : null,
          ),
        );
        await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      }
    }
  } finally {
    await model.close();
    await admin.end();
    rmSync(root, { recursive: true, force: true });
  }
  return { rows, latency, takeover, fence };
}

/** µs per one-event append to one session, with the driver epoch checked and without. */
async function measureFence(
  store: Awaited<ReturnType<typeof openStores>>['events'],
  appends: number,
): Promise<{ fencedUs: number; plainUs: number }> {
  const sessionId = `fence-bench-${process.pid}`;
  const epoch = await store.takeDriverEpoch(sessionId);
  let sequence = 0;
  const append = (fenced: boolean) =>
    store.append(
      {
        eventId: `${sessionId}-${sequence + 1}`,
        sessionId,
        timestamp: new Date().toISOString(),
        causationId: null,
        correlationId: null,
        payload: { type: 'steering_note_added', sessionId, content: 'bench' },
      },
      { expectedSequence: sequence++, ...(fenced ? { driverEpoch: epoch } : {}) },
    );
  const totals = { fenced: 0, plain: 0 };
  const rounds = 10;
  for (let round = 0; round < rounds; round++)
    for (const fenced of round % 2 === 0 ? [true, false] : [false, true]) {
      const started = process.hrtime.bigint();
      for (let index = 0; index < appends / rounds; index++) await append(fenced);
      totals[fenced ? 'fenced' : 'plain'] += Number(process.hrtime.bigint() - started) / 1e3;
    }
  return { fencedUs: totals.fenced / appends, plainUs: totals.plain / appends };
}

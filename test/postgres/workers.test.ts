import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replaySession } from '../../src/core/kernel/index.js';
import { openStores } from '../../src/infrastructure/open-store.js';
import { migratePostgres } from '../../src/infrastructure/postgres/postgres-migrations.js';
import { openRunnableSessions } from '../../src/infrastructure/postgres/postgres-runnable-sessions.js';
import { nodeSha256 } from '../../src/infrastructure/system/node-sha256.js';
import { correx, startCorrex, type RunningCli } from '../cli/cli-process.js';
import { sse, startFakeHttpServer, type FakeHttpServer } from '../providers/fake-http-server.js';
import { chatCompletionStream } from '../providers/openai-wire.js';
import { tempDir } from '../support/temp-dir.js';
import { probeTestServer, TEST_POSTGRES_URL } from './postgres-test-server.js';
import { WRITE_ONCE_WORKFLOW as WORKFLOW } from '../support/write-once-workflow.js';

const probe = await probeTestServer();

const SESSIONS = 30;
const TOKEN = 'workers-test-token-0123456789abcdef0123';

/**
 * The scripted model, stateless so that any number of sessions can share it: a conversation
 * that has not made the `write_file` call yet gets it, one that has gets the artifact. Each
 * answer comes after a short wait, so sessions are mid-flight when a worker is killed.
 */
/** The slow session's first answer waits for this, so listings taken meanwhile see it driven. */
let releaseSlow: () => void = () => {};
const slowGate = new Promise<void>((resolve) => (releaseSlow = resolve));

function scriptModel(server: FakeHttpServer) {
  server.reply((request, response) => {
    // The call's own arguments are in the conversation once it was made.
    const answered = JSON.stringify(request.body).includes('written once');
    const answer = answered
      ? chatCompletionStream({
          toolCalls: [
            {
              id: 'finish',
              name: 'finish_change',
              arguments: JSON.stringify({ summary: 'wrote note.txt', filesChanged: ['note.txt'] }),
            },
          ],
        })
      : chatCompletionStream({
          toolCalls: [
            {
              id: 'call_1',
              name: 'write_file',
              arguments: JSON.stringify({ path: 'note.txt', content: 'written once\n' }),
            },
          ],
        });
    // One session thinks until the listings are taken (however long a loaded machine needs).
    const slow = !answered && JSON.stringify(request.body).includes('SLOW');
    const reply = () => setTimeout(() => sse(answer)(request, response), 150);
    const task = /write note (\d+)/.exec(JSON.stringify(request.body));
    if (slow) void slowGate.then(reply);
    else if (!answered && task !== null && JSON.stringify(request.body).includes('HOLD')) {
      // Held from the start, so some sessions are still driven (and waiting) whenever the test
      // looks, however fast or slow the machine is.
      held.waiting.add(Number(task[1]));
      void held.gate.then(reply);
    } else reply();
  });
}

/** The first answer of every session whose task says HOLD waits for `release`. */
const held = (() => {
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  return { gate, waiting: new Set<number>(), release: () => release() };
})();
const HELD_SESSIONS = 3;

/** A database of its own: the CLI uses the default schema, which other tests share. */
async function freshDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `correx_workers_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    },
  };
}

type SessionRow = {
  sessionId: string;
  status: string;
  driver?: string | null;
  leaseAgeMs?: number | null;
  stalled?: boolean;
};

async function api<T>(base: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${base}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${TOKEN}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${path}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

/** Every started process's output, for a timeout's message. */
const outputs: (() => string)[] = [];

/**
 * Waits for a state. The bound is the last resort only (a loaded machine may take many times
 * longer than a quiet one): it stays below the test's own timeout so the message says what was
 * awaited, with every process's output.
 */
async function until<T>(
  what: string,
  check: () => Promise<T | undefined>,
  ms = Number(process.env.CORREX_TEST_WAIT_MS ?? 540_000),
) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline)
      throw new Error(
        `timed out waiting for ${what}\n${outputs.map((output) => output()).join('\n---\n')}`,
      );
    await new Promise((done) => setTimeout(done, 200));
  }
}

describe.skipIf(!probe.available)('workers sharing one PostgreSQL log', () => {
  const root = realpathSync(tempDir('correx-workers-test-'));
  const home = join(root, 'home');
  const workflowFile = join(root, 'write-once.yaml');
  let model: FakeHttpServer;
  let database: { url: string; drop(): Promise<void> };
  const processes: RunningCli[] = [];

  beforeAll(async () => {
    mkdirSync(home, { recursive: true });
    writeFileSync(workflowFile, WORKFLOW);
    model = await startFakeHttpServer();
    scriptModel(model);
    database = await freshDatabase();
    await migratePostgres(database.url);
  });
  afterAll(async () => {
    releaseSlow();
    held.release();
    for (const child of processes) if (child.child.exitCode === null) child.child.kill('SIGKILL');
    await Promise.all(processes.map((child) => child.exited));
    await model?.close();
    if (!process.env.CORREX_TEST_KEEP_DATABASE) await database?.drop();
  });

  it('serve --no-drive records 30 sessions, three workers drive them; one killed with -9, one stopped with SIGTERM: all complete, once each, and replay', async () => {
    const env = { OPENAI_BASE_URL: `${model.url}/v1`, CORREX_MODEL: 'served-model' };
    const start = (args: string[]) => {
      const child = startCorrex(home, ['--store', database.url, ...args], env);
      processes.push(child);
      outputs.push(() => child.output().slice(-3000));
      return child;
    };
    const serve = start([
      'serve',
      '--no-drive',
      '--port',
      '0',
      '--token',
      TOKEN,
      '--allow-root',
      root,
    ]);
    const [, base] = await serve.waitFor(/listening on (http:\/\/\S+)/);
    const ids: string[] = [];
    for (let index = 0; index < SESSIONS; index++) {
      const workspace = join(root, `w${index}`);
      mkdirSync(workspace);
      const { sessionId } = await api<{ sessionId: string }>(base!, '/api/sessions', {
        task: `write note ${index}${index === 0 ? ' SLOW' : index >= SESSIONS - HELD_SESSIONS ? ' HOLD' : ''}`,
        workspace,
        workflow: workflowFile,
        mode: 'auto',
      });
      ids.push(sessionId);
    }
    // Started once every session is recorded, so all three are busy when one is killed.
    const workers = [0, 1, 2].map(() =>
      start(['worker', '--concurrency', '4', '--sweep-ms', '300']),
    );
    await Promise.all(workers.map((worker) => worker.waitFor(/correx worker: .* driving up to/)));

    // The list names the worker driving a session while it runs.
    const driven = await until('a session listed with its driver', async () => {
      const { sessions } = await api<{ sessions: SessionRow[] }>(base!, '/api/sessions');
      return sessions.find((row) => typeof row.driver === 'string');
    });
    expect(driven.driver).toMatch(/^correx worker /);
    // With its lease: renewed moments ago, not stalled.
    expect(driven).toMatchObject({ leaseAgeMs: expect.any(Number), stalled: false });
    const listed = await correx(home, ['--store', database.url, 'sessions', '--limit', '30'], env);
    expect(listed.stdout).toMatch(/\bDRIVER\s+LEASE\b/);
    expect(listed.stdout).toMatch(/correx worker \S+:\d+/);
    releaseSlow();

    const completed = async () =>
      (await api<{ sessions: SessionRow[] }>(base!, '/api/sessions')).sessions.filter(
        (row) => row.status === 'completed',
      ).length;
    // A third done: kill a worker while it drives a session, mid-step. One that drives a held
    // session (waiting for its answer) holds it whenever it is killed; picking by how many
    // sessions a worker had taken could pick one that had just finished them all, and then
    // nothing was left to take over.
    await until('a third of the sessions done', async () =>
      (await completed()) >= SESSIONS / 3 ? true : undefined,
    );
    const workerName = (worker: RunningCli) =>
      /correx worker: (correx worker \S+) driving/.exec(worker.output())![1];
    const victim = await until('a worker driving a held session', async () => {
      const { sessions } = await api<{ sessions: SessionRow[] }>(base!, '/api/sessions');
      for (const index of held.waiting) {
        const row = sessions.find((candidate) => candidate.sessionId === ids[index]);
        const worker = workers.find((candidate) => workerName(candidate) === row?.driver);
        if (worker !== undefined) return worker;
      }
      return undefined;
    });
    const others = workers.filter((worker) => worker !== victim);
    victim!.child.kill('SIGKILL');
    await victim!.exited;

    // Two thirds done: stop another worker the way a service manager does.
    await until('two thirds of the sessions done', async () =>
      (await completed()) >= (2 * SESSIONS) / 3 ? true : undefined,
    );
    // The one to stop drives a session that waits for an answer held back until the stop has
    // paused it, so it has something to hand back however fast the machine is.
    const hold = held;
    const [stopping, heldId] = await until('a remaining worker waiting for an answer', async () => {
      const { sessions } = await api<{ sessions: SessionRow[] }>(base!, '/api/sessions');
      for (const index of hold.waiting) {
        const row = sessions.find((candidate) => candidate.sessionId === ids[index]);
        const worker = others.find((other) => workerName(other) === row?.driver);
        if (worker !== undefined) return [worker, ids[index]!] as const;
      }
      return undefined;
    });
    const remaining = others.find((worker) => worker !== stopping)!;
    stopping.child.kill('SIGTERM');
    await until('the stop to pause the session it drives', async () => {
      const { sessions } = await api<{ sessions: SessionRow[] }>(base!, '/api/sessions');
      return sessions.find((row) => row.sessionId === heldId)?.status === 'paused'
        ? true
        : undefined;
    });
    hold.release();
    const stopped = await stopping.exited;
    expect(stopped.code).toBe(0);
    const handedBack = Number(
      /correx worker: stopped; handed back (\d+) session\(s\)/.exec(stopped.stdout)?.[1],
    );
    expect(handedBack).toBeGreaterThan(0);
    const stoppedName = workerName(stopping);

    await until('every session completed', async () =>
      (await completed()) === SESSIONS ? true : undefined,
    );

    const stores = await openStores(database.url);
    const runnable = openRunnableSessions(database.url, 'workers test');
    let workerWrites = 0;
    try {
      for (const sessionId of ids) {
        const events = await stores.events.read(sessionId);
        // No tool effect twice: one receipt per call, and the file written once.
        const receipts = events.filter((event) => event.payload.type === 'tool_receipt');
        const calls = receipts.map((event) => (event.payload as { callId: string }).callId);
        expect(new Set(calls).size).toBe(calls.length);
        expect(events.at(-1)!.payload.type).toBe('workflow_completed');
        // Byte for byte, without model or tools.
        const report = await replaySession(stores.events, sessionId, undefined, {
          sha256: nodeSha256,
        });
        expect(report.ok, `${sessionId} replays`).toBe(true);
        // Never two drivers: every event a worker wrote falls in that worker's own driver record.
        const records = await runnable.sessions.driverRecords(sessionId);
        expect(records.length).toBeGreaterThan(0);
        for (const { sequence, writer } of await runnable.sessions.writers(sessionId)) {
          if (writer === null || !writer.startsWith('correx worker')) continue;
          workerWrites++;
          const inForce = records.filter((record) => record.fromSequence < sequence).at(-1);
          expect(inForce?.driver, `${sessionId} event ${sequence}`).toBe(writer);
        }
      }
      expect(workerWrites).toBeGreaterThan(SESSIONS * 10);
      // The stopped worker paused what it drove and resumed it in the log for the others.
      let resumedByStop = 0;
      for (const sessionId of ids) {
        const events = await stores.events.read(sessionId);
        if (
          events.some(
            (event) =>
              event.payload.type === 'orchestration_resumed' && event.payload.by === stoppedName,
          )
        )
          resumedByStop++;
      }
      expect(resumedByStop).toBe(handedBack);
      // Every session's workspace got its one file.
      for (let index = 0; index < SESSIONS; index++)
        expect(readFileSync(join(root, `w${index}`, 'note.txt'), 'utf8')).toBe('written once\n');
      // The killed worker died holding sessions (its records never closed), and another worker
      // took over each of them it had not finished itself: killed after its session's last
      // append but before letting go, it leaves nothing for anyone to take over.
      const victimName = workerName(victim!);
      let takenOver = 0;
      for (const id of ids) {
        const records = await runnable.sessions.driverRecords(id);
        const died = records.findIndex(
          (record) => record.driver === victimName && record.toSequence === null,
        );
        if (died === -1) continue;
        const lastWriter = (await runnable.sessions.writers(id)).at(-1)?.writer;
        if (died === records.length - 1 && lastWriter === victimName) continue;
        expect(records[died + 1]?.driver, `${id} taken over`).toMatch(/^correx worker /);
        expect(records[died + 1]?.driver).not.toBe(victimName);
        takenOver++;
      }
      expect(takenOver).toBeGreaterThan(0);
    } finally {
      await runnable.close();
      await stores.close();
    }
    for (const child of [serve, remaining]) child.child.kill('SIGTERM');
    expect((await remaining.exited).code).toBe(0);
  }, 600_000);

  it('an approval recorded by serve --no-drive wakes a session for one of two workers', async () => {
    // Workers an earlier test left running (it failed before stopping them) would take this
    // session too.
    for (const child of processes) if (child.child.exitCode === null) child.child.kill('SIGKILL');
    await Promise.all(processes.map((child) => child.exited));
    const env = { OPENAI_BASE_URL: `${model.url}/v1`, CORREX_MODEL: 'served-model' };
    const start = (args: string[]) => {
      const child = startCorrex(home, ['--store', database.url, ...args], env);
      processes.push(child);
      outputs.push(() => child.output().slice(-3000));
      return child;
    };
    const serve = start([
      'serve',
      '--no-drive',
      '--port',
      '0',
      '--token',
      TOKEN,
      '--allow-root',
      root,
    ]);
    const [, base] = await serve.waitFor(/listening on (http:\/\/\S+)/);
    const workers = [0, 1].map(() => start(['worker', '--sweep-ms', '300']));
    await Promise.all(workers.map((worker) => worker.waitFor(/driving up to/)));
    const workspace = join(root, 'prompted');
    mkdirSync(workspace);
    const { sessionId } = await api<{ sessionId: string }>(base!, '/api/sessions', {
      task: 'write a note, with approval',
      workspace,
      workflow: workflowFile,
      mode: 'prompt',
    });
    const pending = await until('the call to wait for approval', async () => {
      const { approvals } = await api<{ approvals: { callId: string }[] }>(
        base!,
        `/api/sessions/${sessionId}/approvals`,
      );
      return approvals[0];
    });
    // Waiting for a person: no worker holds it.
    await until('the session to be left undriven', async () => {
      const { sessions } = await api<{ sessions: SessionRow[] }>(base!, '/api/sessions');
      const row = sessions.find((candidate) => candidate.sessionId === sessionId);
      return row?.driver === null ? true : undefined;
    });
    await api(base!, `/api/sessions/${sessionId}/approvals/${pending.callId}`, {
      decision: 'approve',
    });
    await until('the approved session to complete', async () => {
      const { sessions } = await api<{ sessions: SessionRow[] }>(base!, '/api/sessions');
      return sessions.find((row) => row.sessionId === sessionId)?.status === 'completed'
        ? true
        : undefined;
    });
    expect(readFileSync(join(workspace, 'note.txt'), 'utf8')).toBe('written once\n');
    // Taken once to run until the approval request, and once more when the approval woke it.
    const takes = workers
      .map((worker) => worker.output().split(`${sessionId} taken`).length - 1)
      .reduce((sum, count) => sum + count, 0);
    expect(takes).toBe(2);
    for (const child of [serve, ...workers]) child.child.kill('SIGTERM');
    for (const worker of workers) expect((await worker.exited).code).toBe(0);
  }, 600_000);
});

import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replaySession } from '../../src/core/kernel/index.js';
import { openStores } from '../../src/infrastructure/open-store.js';
import { migratePostgres } from '../../src/infrastructure/postgres/postgres-migrations.js';
import { nodeSha256 } from '../../src/infrastructure/system/node-sha256.js';
import { startCorrex, type RunningCli } from '../cli/cli-process.js';
import {
  sse,
  startFakeHttpServer,
  type FakeHttpServer,
  type RecordedHttpRequest,
} from '../providers/fake-http-server.js';
import { chatCompletionStream } from '../providers/openai-wire.js';
import { tempDir } from '../support/temp-dir.js';
import { startPrivateCluster } from './private-cluster.js';
import { oneStageWorkflow } from '../support/write-once-workflow.js';

/**
 * Three real `correx worker` processes on a PostgreSQL cluster of the test's own, and the faults
 * that used to let two drivers append to one session (issue 34): a live worker's lock connection
 * ended, all of one worker's connections ended, a worker paused past its lease and resumed, and
 * the server restarted. Every fault is applied while the sessions wait for the model (answers
 * are held at a gate), and every wait is for a state, never for a time.
 */

const SESSIONS = 9;
const MARKS = 5;
// Long enough that a loaded machine (load average 20 on two cores) does not let a live lease lapse
// mid-command; short enough that the pause case takes seconds.
const LEASE_MS = 4000;
const TOKEN = 'chaos-test-token-0123456789abcdef012345';

const WORKFLOW = oneStageWorkflow(
  'chaos',
  ['read_file', 'exec'],
  'Run the commands the task asks for.',
);

/** Answers wait here while it is closed; requests whose caller went away leave it. */
const gate = {
  open: false,
  waiting: new Set<{ request: RecordedHttpRequest; answer: () => void }>(),
  release() {
    this.open = true;
    for (const entry of [...this.waiting]) {
      this.waiting.delete(entry);
      entry.answer();
    }
  },
  close() {
    this.open = false;
  },
};

/**
 * The model, stateless: a session's conversation that has run k marker commands gets the
 * command for mark k+1, until MARKS, then the finishing call. Each command appends one line
 * no other command writes, so a command run twice shows as a repeated line.
 */
function scriptModel(server: FakeHttpServer) {
  server.reply((request, response: ServerResponse) => {
    const body = JSON.stringify(request.body);
    const session = /chaos session (\d+)/.exec(body)?.[1] ?? 'x';
    const done = new Set([...body.matchAll(/mark-\d+-(\d+)/g)].map((match) => match[1])).size;
    const answer =
      done >= MARKS
        ? chatCompletionStream({
            toolCalls: [
              {
                id: 'finish',
                name: 'finish_change',
                arguments: JSON.stringify({ summary: 'marked', filesChanged: ['marks.txt'] }),
              },
            ],
          })
        : chatCompletionStream({
            toolCalls: [
              {
                id: `mark_${done + 1}`,
                name: 'exec',
                arguments: JSON.stringify({
                  command: `printf 'mark-${session}-${done + 1}\\n' >> marks.txt`,
                }),
              },
            ],
          });
    const entry = { request, answer: () => sse(answer)(request, response) };
    if (gate.open) entry.answer();
    else {
      gate.waiting.add(entry);
      response.on('close', () => gate.waiting.delete(entry));
    }
  });
}

/** Every started process's output, for a failed wait's message. */
const outputs: (() => string)[] = [];

/** Waits for a state; the bound is a last resort below the test's own timeout. */
async function until<T>(what: string, check: () => Promise<T | undefined>, ms = 120_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline)
      throw new Error(
        `timed out waiting for ${what}\n${outputs.map((output) => output().slice(-4000)).join('\n---\n')}`,
      );
    await new Promise((done) => setTimeout(done, 100));
  }
}

const cluster = await startPrivateCluster();

describe.skipIf(cluster === undefined)('workers under faults: one driver per session', () => {
  const root = realpathSync(tempDir('correx-chaos-'));
  const home = join(root, 'home');
  const workflowFile = join(root, 'chaos.yaml');
  let model: FakeHttpServer;
  let admin: pg.Pool;
  const processes: RunningCli[] = [];

  beforeAll(async () => {
    mkdirSync(home, { recursive: true });
    writeFileSync(workflowFile, WORKFLOW);
    model = await startFakeHttpServer();
    scriptModel(model);
    await migratePostgres(cluster!.url);
    admin = new pg.Pool({ connectionString: cluster!.url, max: 2 });
    admin.on('error', () => undefined);
    admin.on('connect', (client) => client.on('error', () => undefined));
  });
  afterAll(async () => {
    gate.release();
    for (const child of processes) {
      if (child.child.exitCode !== null) continue;
      child.child.kill('SIGCONT');
      child.child.kill('SIGKILL');
    }
    await Promise.all(processes.map((child) => child.exited));
    await admin?.end().catch(() => undefined);
    await model?.close();
    await cluster?.stop();
  });

  /** A query that rides out the restart: retried until the server answers. */
  const query = async <Row extends pg.QueryResultRow>(text: string, values: unknown[] = []) =>
    until(`the server to answer ${text.slice(0, 40)}`, async () => {
      try {
        return (await admin.query<Row>(text, values)).rows;
      } catch {
        return undefined;
      }
    });

  type Head = { session_id: string; driver: string | null; driver_epoch: string };
  const heads = async () =>
    query<Head>(
      `SELECT session_id, driver, driver_epoch FROM correx.sessions WHERE last_sequence > 0`,
    );
  const receipts = async () =>
    Number(
      (
        await query<{ n: string }>(
          `SELECT count(*) AS n FROM correx.events WHERE type = 'tool_receipt'`,
        )
      )[0]!.n,
    );
  const finished = async () =>
    Number(
      (
        await query<{ n: string }>(
          `SELECT count(*) AS n FROM correx.events WHERE type IN ('workflow_completed', 'workflow_failed')`,
        )
      )[0]!.n,
    );

  /** Lets the sessions run until `steps` more commands ran, then holds every answer again. */
  const progress = async (steps: number) => {
    const before = await receipts();
    gate.release();
    await until(`${steps} more commands`, async () =>
      (await receipts()) >= before + steps || (await finished()) === SESSIONS ? true : undefined,
    );
    gate.close();
  };

  /** Every session that has a driver is waiting at the gate (so no command is running now). */
  const quiet = async () =>
    until('every driven session to wait for the model', async () => {
      const driven = (await heads()).filter((head) => head.driver !== null).length;
      const ends = await finished();
      return driven > 0 && gate.waiting.size === driven && ends < SESSIONS ? driven : undefined;
    });

  /** The sessions a worker holds the lease of now, with their epochs. */
  const heldBy = async (worker: string) =>
    new Map(
      (await heads())
        .filter((head) => head.driver === worker)
        .map((head) => [head.session_id, Number(head.driver_epoch)]),
    );

  /** Waits until every one of `sessions` was taken again (its epoch moved on). */
  const retaken = (sessions: ReadonlyMap<string, number>, what: string) =>
    until(what, async () => {
      const now = new Map(
        (await heads()).map((head) => [head.session_id, Number(head.driver_epoch)]),
      );
      return [...sessions].every(([id, epoch]) => (now.get(id) ?? 0) > epoch) ? true : undefined;
    });

  it('a lock connection ended, all connections ended, a pause past the lease, a server restart: no command twice, no fenced append, every session replays', async () => {
    const env = { OPENAI_BASE_URL: `${model.url}/v1`, CORREX_MODEL: 'served-model' };
    const start = (args: string[]) => {
      const child = startCorrex(home, ['--store', cluster!.url, ...args], env);
      processes.push(child);
      outputs.push(() => child.output());
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
    const workspaces: string[] = [];
    for (let index = 0; index < SESSIONS; index++) {
      const workspace = join(root, `w${index}`);
      mkdirSync(workspace);
      workspaces.push(workspace);
      const response = await fetch(`${base!}/api/sessions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          task: `chaos session ${index}`,
          workspace,
          workflow: workflowFile,
          mode: 'auto',
        }),
      });
      expect(response.ok, await response.clone().text()).toBe(true);
    }
    const workers = [0, 1, 2].map(() =>
      start(['worker', '--concurrency', '4', '--sweep-ms', '300', '--lease-ms', String(LEASE_MS)]),
    );
    const names = await Promise.all(
      workers.map(
        async (worker) => (await worker.waitFor(/correx worker: (correx worker \S+) driving/))[1]!,
      ),
    );
    const workerOf = (name: string) => workers[names.indexOf(name)]!;
    /** The worker that holds the most leases now (every one holds some once all are taken). */
    const busiest = async () => {
      const counts = new Map<string, number>();
      for (const head of await heads())
        if (head.driver !== null) counts.set(head.driver, (counts.get(head.driver) ?? 0) + 1);
      return [...counts].sort((a, b) => b[1] - a[1])[0]![0];
    };

    // (a) The lock connection of a live worker ends; the worker keeps its other connections.
    await progress(3);
    await quiet();
    const [lockHolder] = await query<{
      session_id: string;
      driver: string;
      driver_backend: number;
      driver_epoch: string;
    }>(
      `SELECT session_id, driver, driver_backend, driver_epoch FROM correx.sessions
       WHERE driver IS NOT NULL AND driver_backend IS NOT NULL LIMIT 1`,
    );
    await query(`SELECT pg_terminate_backend($1, 5000)`, [lockHolder!.driver_backend]);
    await retaken(
      new Map([[lockHolder!.session_id, Number(lockHolder!.driver_epoch)]]),
      '(a) the session of the ended lock connection to be taken again',
    );
    await until('(a) its worker to say it lost the session', async () =>
      workerOf(lockHolder!.driver).output().includes(`lost the session ${lockHolder!.session_id}`)
        ? true
        : undefined,
    );

    // (b) Every connection of one worker ends.
    await progress(3);
    await quiet();
    const cut = await busiest();
    const cutSessions = await heldBy(cut);
    await query(
      `SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity WHERE application_name = $1`,
      [cut],
    );
    await retaken(cutSessions, '(b) the sessions of the cut-off worker to be taken again');

    // (d) The server restarts while sessions wait for the model. It restarts as after a crash,
    // and commits asynchronously (private-cluster.ts): every append acknowledged before it is
    // still there after (correx's connections ask for durable commits), or the next driver would
    // run again a command whose start was lost. An event is known by its hash, which a driver
    // appending again what was lost would not repeat (its timestamp differs).
    await progress(3);
    const beforeRestart = await quiet().then(() => receipts());
    const logged = async () =>
      (
        await query<{ event: string }>(
          `SELECT session_id || ' ' || sequence || ' ' || type || ' ' || hash AS event FROM correx.events`,
        )
      ).map((row) => row.event);
    const acknowledged = await logged();
    await cluster!.restart();
    const kept = new Set(await logged());
    expect(acknowledged.filter((event) => !kept.has(event))).toEqual([]);
    gate.release();
    await until('(d) the sessions to go on after the restart', async () =>
      (await receipts()) > beforeRestart || (await finished()) === SESSIONS ? true : undefined,
    );
    gate.close();
    // (c) A worker paused past its lease: the others take its sessions; resumed, it is fenced.
    await quiet();
    const paused = await busiest();
    const pausedSessions = await heldBy(paused);
    workerOf(paused).child.kill('SIGSTOP');
    // The answers go out: the paused worker's wait in its socket, the others go on.
    gate.release();
    await retaken(pausedSessions, "(c) the paused worker's sessions to be taken by others");
    workerOf(paused).child.kill('SIGCONT');
    await until('(c) the resumed worker to say it lost its sessions', async () =>
      [...pausedSessions.keys()].every((id) =>
        workerOf(paused).output().includes(`lost the session ${id}`),
      )
        ? true
        : undefined,
    );
    /**
     * A command that was running when its driver lost the session cannot be known to have run:
     * the next driver asks a person (an exec is not idempotent). The person looks at the marker
     * file, as one would: the line is there, so it ran (deny the re-run); it is not, so it did
     * not (approve it). Either way no command runs twice, and the session goes on. Like a
     * careful person, it looks only once the card says the driver that started the command has
     * stopped (`interrupted.startedBy`, from the lost driver's own record) or that driver's
     * process has ended: a command the lost driver had just started may not have written its
     * line yet, and a look before that would approve a second run.
     */
    type Card = {
      callId: string;
      interrupted: {
        startedBy: { driver: string; state: 'released' | 'stopped' | 'unconfirmed' } | null;
      } | null;
    };
    const starterStopped = (card: Card) => {
      if (card.interrupted === null) return true;
      const { startedBy } = card.interrupted;
      if (startedBy === null) return false;
      if (startedBy.state !== 'unconfirmed') return true;
      // The server (restarted once) drove nothing in auto mode worth waiting on: as before.
      if (!names.includes(startedBy.driver)) return true;
      return workerOf(startedBy.driver).child.exitCode !== null;
    };
    const decided = new Set<string>();
    /** What the stand-in person decided, and on what, for a failure's message. */
    const decisions: string[] = [];
    const answerInterrupted = async () => {
      const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
      for (const { session_id: sessionId } of await heads()) {
        const listed = await fetch(`${base!}/api/sessions/${sessionId}/approvals`, { headers });
        if (!listed.ok) continue;
        const { approvals } = (await listed.json()) as { approvals: Card[] };
        for (const approval of approvals) {
          if (!starterStopped(approval)) continue;
          const key = `${sessionId} ${approval.callId}`;
          const mark = /mark-(\d+)-(\d+)/.exec(JSON.stringify(approval));
          if (decided.has(key) || mark === null) continue;
          const file = join(workspaces[Number(mark[1])]!, 'marks.txt');
          const ran = existsSync(file) && readFileSync(file, 'utf8').split('\n').includes(mark[0]);
          const response = await fetch(
            `${base!}/api/sessions/${sessionId}/approvals/${approval.callId}`,
            {
              method: 'POST',
              headers,
              body: JSON.stringify(
                ran
                  ? { decision: 'deny', reason: 'it ran before its driver lost the session' }
                  : { decision: 'approve' },
              ),
            },
          );
          if (response.ok) decided.add(key);
          decisions.push(
            `${key} ${mark[0]} ${ran ? 'deny (the line is there)' : 'approve (no line)'} starter ${JSON.stringify(approval.interrupted?.startedBy ?? null)} -> ${response.status}`,
          );
        }
      }
    };
    await until('every session to finish', async () => {
      await answerInterrupted();
      return (await finished()) === SESSIONS ? true : undefined;
    }).catch(async (error: unknown) => {
      // What each unfinished session's log ends with, for the failure's message.
      const tails = await query<{ session_id: string; types: string }>(
        `SELECT session_id, string_agg(type, ' ' ORDER BY sequence) AS types FROM (
           SELECT session_id, sequence, type, rank() OVER (PARTITION BY session_id ORDER BY sequence DESC) AS r
           FROM correx.events) e WHERE r <= 8 GROUP BY session_id`,
      );
      const drivers = await query(
        `SELECT session_id, worker, from_sequence, epoch, released_at, stopped_at FROM correx.session_drivers ORDER BY id`,
      );
      const cards: unknown[] = [];
      for (const { session_id: sessionId } of await heads()) {
        const listed = await fetch(`${base!}/api/sessions/${sessionId}/approvals`, {
          headers: { authorization: `Bearer ${TOKEN}` },
        });
        if (listed.ok) cards.push(await listed.json());
      }
      throw new Error(
        `${(error as Error).message}\n${JSON.stringify(tails, null, 1)}\nDRIVERS ${JSON.stringify(drivers)}\nCARDS ${JSON.stringify(cards)}`,
      );
    });
    // No worker died: every fault was ridden out.
    for (const worker of workers)
      expect(worker.child.exitCode, worker.output().slice(-3000)).toBeNull();

    const stores = await openStores(cluster!.url);
    try {
      const sessions = (await heads()).map((head) => head.session_id);
      expect(sessions).toHaveLength(SESSIONS);
      for (const sessionId of sessions) {
        const events = await stores.events.read(sessionId);
        // Nothing after the session's final event.
        expect(
          events.at(-1)!.payload.type,
          `${sessionId}: ${JSON.stringify(events.slice(-8).map((event) => event.payload)).slice(0, 3000)}`,
        ).toBe('workflow_completed');
        // Each command ran once: one receipt per call, one line per mark, no line twice.
        const calls = events
          .filter((event) => event.payload.type === 'tool_receipt')
          .map((event) => (event.payload as { callId: string }).callId);
        expect(new Set(calls).size, sessionId).toBe(calls.length);
        const index = /chaos session (\d+)/.exec(
          JSON.stringify(events.find((event) => event.payload.type === 'session_created')!.payload),
        )![1]!;
        const lines = readFileSync(join(workspaces[Number(index)]!, 'marks.txt'), 'utf8')
          .trim()
          .split('\n');
        const story = () =>
          `${sessionId}\nDECISIONS ${decisions.join('\n')}\nWORKERS ${outputs
            .flatMap((output) => output().split('\n'))
            .filter((line) => line.includes(sessionId))
            .join('\n')}\nEVENTS ${events
            .map((event) => {
              const payload = event.payload as { type: string; callId?: string; argsRaw?: string };
              return `${event.sequence} ${payload.type}${payload.callId === undefined ? '' : ` ${payload.callId}`}${payload.argsRaw === undefined ? '' : ` ${payload.argsRaw}`}`;
            })
            .join('\n')}`;
        expect(lines, story()).toEqual(
          Array.from({ length: MARKS }, (_, k) => `mark-${index}-${k + 1}`),
        );
        // Byte for byte, without model or tools.
        const report = await replaySession(stores.events, sessionId, undefined, {
          sha256: nodeSha256,
        });
        expect(report.ok, `${sessionId} replays`).toBe(true);
        // No event from a fenced-out driver: each event a worker wrote falls to the holder of
        // the newest epoch taken before it.
        const records = await query<{ worker: string; from_sequence: string; epoch: string }>(
          `SELECT worker, from_sequence, epoch FROM correx.session_drivers
           WHERE session_id = $1 ORDER BY epoch`,
          [sessionId],
        );
        const writers = await query<{ sequence: string; writer: string | null }>(
          `SELECT sequence, writer FROM correx.events WHERE session_id = $1 ORDER BY sequence`,
          [sessionId],
        );
        for (const { sequence, writer } of writers) {
          if (writer === null || !writer.startsWith('correx worker')) continue;
          const inForce = records
            .filter((record) => Number(record.from_sequence) < Number(sequence))
            .at(-1);
          expect(inForce?.worker, `${sessionId} event ${sequence}`).toBe(writer);
        }
      }
    } finally {
      await stores.close();
    }
    for (const child of [serve, ...workers]) child.child.kill('SIGTERM');
    for (const worker of workers) expect((await worker.exited).code).toBe(0);
  }, 300_000);
});

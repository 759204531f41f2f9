import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratePostgres } from '../../src/infrastructure/postgres/postgres-migrations.js';
import { probeTestServer, TEST_POSTGRES_URL } from '../postgres/postgres-test-server.js';
import { startFakeHttpServer, type FakeHttpServer } from '../providers/fake-http-server.js';
import { writeThenFinish } from '../support/model-turns.js';
import { tempDir } from '../support/temp-dir.js';
import { WRITE_ONCE_WORKFLOW as WORKFLOW } from '../support/write-once-workflow.js';
import { correx } from './cli-process.js';

const probe = await probeTestServer();

type Envelope = {
  sessionId: string;
  sequence: number;
  payload: {
    type: string;
    result?: { usage: { inputTokens: number; outputTokens: number } };
    files?: { path: string; access: string }[];
  };
};
type Summary = {
  type: 'summary';
  sessionId: string;
  status: string;
  exitCode: number;
  tokens: { input: number; output: number };
  filesChanged: { path: string; change: string; added: number | null; removed: number | null }[];
  lastSequence: number;
  next: string[];
};

/** A database of its own: the CLI uses the default schema, which other tests share. */
async function freshDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `correx_run_json_${process.pid}_${Date.now()}`;
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

/**
 * `correx run --json` is the same on both stores: every stdout line parses, the event lines are
 * the log byte for byte (as `correx events --json` reads it back), and the summary agrees with
 * the log on status, files changed and tokens.
 */
describe.each([
  { store: 'sqlite', available: true },
  { store: 'postgres', available: probe.available },
])('correx run --json on $store', ({ store, available }) => {
  const root = realpathSync(tempDir(`correx-run-json-${store}-`));
  const home = join(root, 'home');
  const workflowFile = join(root, 'write-once.yaml');
  let model: FakeHttpServer;
  let env: NodeJS.ProcessEnv;
  let location: string;
  let database: { url: string; drop(): Promise<void> } | undefined;
  beforeAll(async () => {
    if (!available) return;
    mkdirSync(home, { recursive: true });
    writeFileSync(workflowFile, WORKFLOW);
    model = await startFakeHttpServer();
    env = { OPENAI_BASE_URL: `${model.url}/v1`, CORREX_MODEL: 'served-model' };
    if (store === 'postgres') {
      database = await freshDatabase();
      await migratePostgres(database.url);
      location = database.url;
    } else {
      // Beside the workspace, not above it: a SQLite store's folder is kept from the agent.
      location = join(root, 'store', 'correx.db');
    }
  });
  afterAll(async () => {
    await model?.close();
    await database?.drop();
  });

  it.skipIf(!available)(
    'streams the log as NDJSON and ends with a summary that agrees with it',
    async () => {
      model.reply(...writeThenFinish('notes/hello.txt', 'first\nsecond\nthird\n'));
      const dir = join(root, 'workspace');
      mkdirSync(dir, { recursive: true });
      const result = await correx(
        home,
        [
          '--store',
          location,
          'run',
          'write notes/hello.txt',
          '--workspace',
          dir,
          '--workflow',
          workflowFile,
          '--mode',
          'auto',
          '--json',
        ],
        env,
      );
      expect(result.code, result.stderr).toBe(0);
      const lines = result.stdout.trimEnd().split('\n');
      const parsed = lines.map((line) => JSON.parse(line) as Envelope | Summary);
      const summary = parsed.at(-1) as Summary;
      expect(summary.type).toBe('summary');
      // Only the last line is not an event: no waiting notice in auto mode.
      expect(parsed.slice(0, -1).every((line) => !('type' in line))).toBe(true);
      // A person's lines went to stderr.
      expect(result.stderr).toContain('── summary of session');

      const events = await correx(
        home,
        ['--store', location, 'events', summary.sessionId, '--json'],
        env,
      );
      expect(events.code).toBe(0);
      const logLines = events.stdout.trimEnd().split('\n');
      expect(lines.slice(0, -1)).toEqual(logLines);
      const log = logLines.map((line) => JSON.parse(line) as Envelope);
      expect(log.map((event) => event.sequence)).toEqual(log.map((_, index) => index + 1));

      expect(summary.lastSequence).toBe(log.length);
      expect(log.at(-1)!.payload.type).toBe('workflow_completed');
      expect(summary).toMatchObject({ status: 'completed', exitCode: 0 });
      const usage = log.flatMap((event) =>
        event.payload.type === 'inference_completed' ? [event.payload.result!.usage] : [],
      );
      expect(usage.length).toBeGreaterThan(0);
      expect(summary.tokens).toEqual({
        input: usage.reduce((sum, u) => sum + u.inputTokens, 0),
        output: usage.reduce((sum, u) => sum + u.outputTokens, 0),
      });
      const written = log.flatMap((event) =>
        event.payload.type === 'tool_receipt'
          ? (event.payload.files ?? []).filter((f) => f.access !== 'read').map((f) => f.path)
          : [],
      );
      expect(summary.filesChanged).toEqual([
        { path: join(dir, 'notes', 'hello.txt'), change: 'created', added: 3, removed: 0 },
      ]);
      expect(written).toEqual([join(dir, 'notes', 'hello.txt')]);
      expect(summary.next).toContain(`correx diff ${summary.sessionId}`);
      // A later read of the store gives the same object, byte for byte.
      const shown = await correx(
        home,
        ['--store', location, 'show', summary.sessionId, '--summary', '--json'],
        env,
      );
      expect(shown.stdout.trimEnd()).toBe(lines.at(-1));
    },
    120_000,
  );
});

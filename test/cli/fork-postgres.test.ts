import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratePostgres } from '../../src/infrastructure/postgres/postgres-migrations.js';
import { probeTestServer, TEST_POSTGRES_URL } from '../postgres/postgres-test-server.js';
import {
  sse,
  startFakeHttpServer,
  type FakeHandler,
  type FakeHttpServer,
} from '../providers/fake-http-server.js';
import { chatCompletionStream } from '../providers/openai-wire.js';
import { outsideTmpFolder } from '../support/outside-tmp.js';
import { oneStageWorkflow } from '../support/write-once-workflow.js';
import { correx } from './cli-process.js';

// Without a server this file skips with the reason (and fails under CI, which requires one).
const probe = await probeTestServer();

type Event = {
  sequence: number;
  hash: string;
  payload: Record<string, unknown> & { type: string };
};

function call(id: string, name: string, args: Record<string, unknown>): FakeHandler {
  return sse(chatCompletionStream({ toolCalls: [{ id, name, arguments: JSON.stringify(args) }] }));
}

/**
 * `correx fork` on a PostgreSQL store, through the real CLI: the same guarantees as on SQLite
 * (test/cli/fork.test.ts): the workspace rebuilt at the point (contents and modes, a command's
 * changes undone from pre-images), the prefix verified against the parent, both sessions replay.
 */
describe.runIf(probe.available)('correx fork on PostgreSQL', () => {
  const root = realpathSync(outsideTmpFolder());
  const home = join(root, 'home');
  const workspace = join(root, 'project');
  const workflowFile = join(root, 'change-files.yaml');
  const name = `correx_fork_${process.pid}_${Date.now()}`;
  let url = '';
  let model: FakeHttpServer;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    await admin.end();
    const location = new URL(TEST_POSTGRES_URL);
    location.pathname = `/${name}`;
    url = location.toString();
    await migratePostgres(url);
    model = await startFakeHttpServer();
    env = { OPENAI_BASE_URL: `${model.url}/v1`, CORREX_MODEL: 'served-model' };
    mkdirSync(home, { recursive: true });
    mkdirSync(workspace, { recursive: true });
    writeFileSync(join(workspace, 'keep.txt'), 'keep\n');
    writeFileSync(
      workflowFile,
      oneStageWorkflow('change-files', ['read_file', 'write_file', 'exec']),
    );
    writeFileSync(join(home, 'harness.yaml'), 'policy:\n  allowedExecutables: [sh]\n');
  }, 60_000);
  afterAll(async () => {
    await model?.close();
    const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  });

  const cli = (args: string[]) => correx(home, ['--store', url, ...args], env);
  async function events(sessionId: string): Promise<Event[]> {
    const listed = await cli(['events', sessionId, '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    return listed.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Event);
  }

  it('forks before a command, rebuilds the workspace from pre-images, and both sessions replay', async () => {
    model.reply(
      call('c1', 'exec', { argv: ['sh', '-c', 'echo one > a.txt; chmod 640 a.txt'] }),
      call('c2', 'exec', { argv: ['sh', '-c', 'echo two > a.txt; chmod 755 a.txt; rm keep.txt'] }),
      call('fin', 'finish_change', { summary: 'changed', filesChanged: ['a.txt', 'keep.txt'] }),
    );
    const ran = await cli([
      'run',
      'change a.txt twice',
      '--workspace',
      workspace,
      '--workflow',
      workflowFile,
      '--mode',
      'auto',
    ]);
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
    const parentId = /^session (\S+)$/m.exec(ran.stdout)![1]!;
    const parent = await events(parentId);

    model.reply(call('fin', 'finish_change', { summary: 'kept it', filesChanged: [] }));
    const forkWorkspace = join(root, 'forked');
    const forked = await cli([
      'fork',
      parentId,
      '--at',
      'call:2',
      '--workspace',
      forkWorkspace,
      '--mode',
      'auto',
    ]);
    expect(forked.code, forked.stdout + forked.stderr).toBe(0);
    const forkId = /^session (\S+)$/m.exec(forked.stdout)![1]!;
    const fork = await events(forkId);
    const marker = fork.find((event) => event.payload.type === 'session_forked')!;
    const k = marker.payload.atSequence as number;
    expect(marker.payload).toMatchObject({
      parentSessionId: parentId,
      parentHash: parent[k - 1]!.hash,
    });
    // The fork ran the second call again (its proposal is the parent's) in the workspace as it
    // was at k: the first command's a.txt (content and mode) and keep.txt, both rebuilt from
    // the pre-images though the parent's workspace moved on.
    const rerun = fork.filter((event) => event.sequence > k && Array.isArray(event.payload.files));
    const files = rerun.flatMap(
      (event) =>
        event.payload.files as {
          path: string;
          before: string | null;
          modeBefore?: number | null;
        }[],
    );
    const a = files.find((file) => file.path.endsWith('/a.txt'))!;
    expect(a.before).toBe(createHash('sha256').update('one\n').digest('hex'));
    expect(a.modeBefore).toBe(0o640);
    const keep = files.find((file) => file.path.endsWith('/keep.txt'))!;
    expect(keep.before).toBe(createHash('sha256').update('keep\n').digest('hex'));
    expect(fork.at(-1)!.payload.type).toBe('workflow_completed');
    expect(readFileSync(join(forkWorkspace, 'a.txt'), 'utf8')).toBe('two\n');
    expect(statSync(join(forkWorkspace, 'a.txt')).mode & 0o777).toBe(0o755);
    expect(existsSync(join(workspace, 'keep.txt'))).toBe(false);

    for (const id of [parentId, forkId]) {
      const replayed = await cli(['replay', id, '--verify']);
      expect(replayed.code, replayed.stdout + replayed.stderr).toBe(0);
    }
    const gate = await cli(['eval', 'replay', parentId, forkId]);
    expect(gate.code, gate.stdout + gate.stderr).toBe(0);
  }, 240_000);
});

import { execFile } from 'node:child_process';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnvironment, CORREX_CLI } from '../cli/cli-process.js';
import { outsideTmpFolder } from '../support/outside-tmp.js';
import { startProductionServer, type ProductionServer } from './support/production-server.js';
import { api } from './support/server-fixture.js';

type Saved = {
  id: string;
  startedAt: string;
  finishedAt: string;
  suite: string;
  models: { model: string; runs: number; passed: number; passRate: number }[];
  runs: { model: string; task: string; sessionId: string; passed: boolean }[];
};

/** `correx eval run` of one task by two scripted models into the server's store and home. */
async function evalRun(home: string, store: string, workdir: string): Promise<Saved> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      ...CORREX_CLI,
      '--store',
      store,
      'eval',
      'run',
      'builtin',
      '--model',
      'scripted:good',
      '--model',
      'scripted:weak',
      '--task',
      'fix-median',
      '--workdir',
      workdir,
      '--json',
    ],
    { env: cliEnvironment(home), timeout: 300_000 },
  );
  return JSON.parse(stdout) as Saved;
}

describe('GET /api/evals', () => {
  const root = realpathSync(outsideTmpFolder());
  let server: ProductionServer;
  let saved: Saved;

  beforeAll(async () => {
    const home = join(root, 'home');
    mkdirSync(home, { recursive: true });
    saved = await evalRun(home, join(home, 'evals-api.db'), join(root, 'runs'));
    // Beside it: a report of another store's sessions, and a file that is no report.
    const evals = join(home, 'evals');
    writeFileSync(
      join(evals, 'elsewhere.json'),
      JSON.stringify({
        ...saved,
        id: 'elsewhere',
        runs: saved.runs.map((run) => ({ ...run, sessionId: `other-${run.sessionId}` })),
      }),
    );
    writeFileSync(join(evals, 'broken.json'), '{"id": "broken"');
    server = await startProductionServer({
      root,
      modelUrl: 'http://127.0.0.1:9',
      name: 'evals-api',
      evalReports: true,
    });
  }, 360_000);
  afterAll(async () => {
    await server?.close();
  });

  it('lists the eval runs saved for this store with each model’s pass rate', async () => {
    expect(saved.models).toMatchObject([
      { model: 'scripted:good', runs: 1, passed: 1, passRate: 1 },
      { model: 'scripted:weak', runs: 1, passed: 0, passRate: 0 },
    ]);
    const listed = await api(server.address).get('/api/evals');
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    const body = listed.body as {
      evals: { id: string; suite: string; runs: number; models: unknown[] }[];
      unreadable: { file: string; reason: string }[];
    };
    expect(body.evals).toEqual([
      {
        id: saved.id,
        startedAt: saved.startedAt,
        finishedAt: saved.finishedAt,
        suite: 'builtin',
        models: saved.models,
        runs: 2,
      },
    ]);
    expect(body.unreadable).toEqual([{ file: 'broken.json', reason: 'not JSON' }]);
  });

  it('serves one eval run with each run’s session, and names an unknown one', async () => {
    const one = await api(server.address).get(`/api/evals/${saved.id}`);
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    const body = one.body as Omit<Saved, 'runs'> & {
      runs: (Saved['runs'][number] & { inStore: boolean })[];
    };
    expect(body.runs.map((run) => [run.model, run.task, run.passed, run.inStore])).toEqual([
      ['scripted:good', 'fix-median', true, true],
      ['scripted:weak', 'fix-median', false, true],
    ]);
    expect(body.runs.map((run) => run.sessionId)).toEqual(saved.runs.map((run) => run.sessionId));
    const session = await api(server.address).get(`/api/sessions/${body.runs[0]!.sessionId}`);
    expect(session.status).toBe(200);

    for (const id of ['no-such-eval', 'elsewhere', 'broken']) {
      const missing = await api(server.address).get(`/api/evals/${id}`);
      expect(missing.status, id).toBe(id === 'broken' ? 500 : 404);
      expect(missing.body).toEqual(
        id === 'broken'
          ? {
              error: {
                code: 'internal',
                message: 'the report of eval run broken cannot be read: not JSON',
              },
            }
          : { error: { code: 'eval_not_found', message: `no eval run ${id}` } },
      );
    }
    const path = await api(server.address).get('/api/evals/..%2Fserver-token');
    expect(path.status).toBe(400);
    expect(path.body).toMatchObject({ error: { code: 'invalid_request' } });
  });
});

import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { correx } from '../cli/cli-process.js';
import { sse, startFakeHttpServer, type FakeHttpServer } from '../providers/fake-http-server.js';
import { chatCompletionStream } from '../providers/openai-wire.js';
import { outsideTmpFolder } from '../support/outside-tmp.js';
import {
  startProductionServer,
  waitForEvent,
  type ProductionServer,
} from './support/production-server.js';
import { api } from './support/server-fixture.js';

function exec(id: string, command: string) {
  return sse(
    chatCompletionStream({
      toolCalls: [{ id, name: 'exec', arguments: JSON.stringify({ command }) }],
    }),
  );
}

const finish = sse(
  chatCompletionStream({
    toolCalls: [
      {
        id: 'fin',
        name: 'finish_change',
        arguments: JSON.stringify({ summary: 'ran it', filesChanged: ['a.txt'] }),
      },
    ],
  }),
);

describe('GET /api/compare', () => {
  const root = realpathSync(outsideTmpFolder());
  let model: FakeHttpServer;
  let server: ProductionServer;
  let parentId = '';
  let forkId = '';

  beforeAll(async () => {
    model = await startFakeHttpServer();
    server = await startProductionServer({
      root,
      modelUrl: model.url,
      name: 'compare-api',
      keepPreimages: true,
    });
    // The parent writes a.txt twice; its fork, from the stage's start, writes it once, otherwise.
    model.reply(exec('c1', 'echo one > a.txt'), exec('c2', 'echo two > a.txt'), finish);
    const started = await api(server.address).post('/api/sessions', {
      task: 'write a.txt twice',
      workspace: server.workspace,
      workflow: server.workflow,
      mode: 'auto',
    });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    parentId = (started.body as { sessionId: string }).sessionId;
    await waitForEvent(server.store, parentId, 'workflow_completed');
    model.reply(exec('d1', 'echo three > a.txt'), finish);
    const forked = await api(server.address).post(`/api/sessions/${parentId}/fork`, {
      at: 'stage:implement',
      mode: 'auto',
    });
    expect(forked.status, JSON.stringify(forked.body)).toBe(201);
    forkId = (forked.body as { sessionId: string }).sessionId;
    await waitForEvent(server.store, forkId, 'workflow_completed');
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await model?.close();
  });

  it('names an unknown session with a 404 and its code, and refuses a missing one', async () => {
    const unknown = await api(server.address).get(`/api/compare?a=${parentId}&b=no-such-session`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({
      error: { code: 'session_not_found', message: 'no session no-such-session (b)' },
    });
    const missing = await api(server.address).get(`/api/compare?a=${parentId}`);
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ error: { code: 'invalid_request' } });
  });

  it('answers what `correx compare --json` prints for the same two sessions', async () => {
    const reply = await api(server.address).get(`/api/compare?a=${parentId}&b=${forkId}`);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const body = reply.body as {
      firstDifference: { sequence: number } | null;
      a: { sessionId: string; status: string; filesChanged: { path: string }[] };
      b: { sessionId: string; status: string };
      files: { path: string; same: boolean; diff: string[] | null }[];
    };
    expect(body.a).toMatchObject({ sessionId: parentId, status: 'completed' });
    expect(body.b).toMatchObject({ sessionId: forkId, status: 'completed' });
    expect(body.firstDifference).not.toBeNull();
    // The parent wrote "two" after the fork point; the fork left a.txt with "one".
    expect(body.files).toEqual([
      { path: 'a.txt', a: 'created', b: 'created', same: false, diff: expect.any(Array) },
    ]);
    expect(body.files[0]!.diff).toEqual(expect.arrayContaining(['-two', '+three']));

    // The CLI over the same store and home computes the very same object.
    const cli = await correx(server.home, [
      '--store',
      join(server.home, 'compare-api.db'),
      'compare',
      parentId,
      forkId,
      '--json',
    ]);
    expect(cli.code, cli.stderr).toBe(0);
    expect(JSON.parse(cli.stdout)).toEqual(body);
  }, 60_000);
});

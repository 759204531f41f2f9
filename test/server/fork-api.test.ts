import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

describe('POST /api/sessions/:id/fork', () => {
  const root = realpathSync(outsideTmpFolder());
  let model: FakeHttpServer;
  let server: ProductionServer;
  let parentId = '';

  beforeAll(async () => {
    model = await startFakeHttpServer();
    server = await startProductionServer({
      root,
      modelUrl: model.url,
      name: 'fork-api',
      keepPreimages: true,
    });
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
    expect(readFileSync(join(server.workspace, 'a.txt'), 'utf8')).toBe('two\n');
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await model?.close();
  });

  it('forks at a call, starts the fork at once, and answers its id; the fork replays', async () => {
    model.reply(finish);
    const forked = await api(server.address).post(`/api/sessions/${parentId}/fork`, {
      at: 'call:2',
      mode: 'auto',
    });
    expect(forked.status, JSON.stringify(forked.body)).toBe(201);
    const body = forked.body as {
      sessionId: string;
      parentSessionId: string;
      atSequence: number;
      named: string;
      workspace: string;
      missing: string[];
    };
    expect(body).toMatchObject({ parentSessionId: parentId, missing: [] });
    expect(body.named).toMatch(/^call implement\.1\.2\.1 \(exec, proposed at #\d+\)$/);
    expect(body.workspace.startsWith(`${server.workspace}-fork-`)).toBe(true);
    // Started here: it runs to its end without anyone resuming it.
    const events = await waitForEvent(server.store, body.sessionId, 'workflow_completed');
    expect(events[body.atSequence]!.payload).toMatchObject({
      type: 'session_forked',
      parentSessionId: parentId,
      atSequence: body.atSequence,
      by: 'api',
    });
    // The rebuilt workspace held a.txt as the first command left it; the fork ran the second again.
    const rerun = events.find(
      (event) => event.sequence > body.atSequence && event.payload.type === 'tool_receipt',
    );
    expect(rerun).toBeDefined();
    expect(readFileSync(join(body.workspace, 'a.txt'), 'utf8')).toBe('two\n');
    const listed = await api(server.address).get(`/api/sessions/${body.sessionId}`);
    expect(listed.status).toBe(200);
    const verified = await api(server.address).post(
      `/api/sessions/${body.sessionId}/replay-verify`,
    );
    expect(verified).toMatchObject({ status: 200, body: { ok: true } });
  }, 120_000);

  it('refuses, naming why, an unknown stage or call, a workspace outside the roots, an unknown profile, a bad body', async () => {
    const post = (body: unknown) =>
      api(server.address).post(`/api/sessions/${parentId}/fork`, body);
    const stage = await post({ at: 'stage:review' });
    expect(stage.status).toBe(400);
    expect(JSON.stringify(stage.body)).toMatch(
      /never started a stage \\"review\\"; the stages it started: implement#1/,
    );
    const call = await post({ at: 'call:implement.1.9.1' });
    expect(call.status).toBe(400);
    expect(JSON.stringify(call.body)).toMatch(/the nearest: implement\.1\.\d\.1/);
    const outside = await post({ at: 'implement', workspace: '/var/tmp/correx-fork-elsewhere' });
    expect(outside).toMatchObject({
      status: 403,
      body: { error: { code: 'workspace_not_allowed' } },
    });
    const profile = await post({ at: 'implement', modelProfile: 'no-such-profile' });
    expect(profile.status).toBe(400);
    expect(JSON.stringify(profile.body)).toContain('no model profile \\"no-such-profile\\"');
    // Only configured workflow names: the server reads no file on a client's word.
    const file = await post({ at: 'implement', workflow: '/etc/passwd' });
    expect(file).toMatchObject({ status: 400, body: { error: { code: 'invalid_request' } } });
    const missing = await api(server.address).post('/api/sessions/nope/fork', { at: 3 });
    expect(missing.status).toBe(404);
  }, 120_000);
});

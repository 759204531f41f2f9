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

/*
 * What the model saw, over REST and the CLI: a session recorded by a real server against an
 * OpenAI-compatible endpoint stores its context manifests by reference; `GET .../context` and
 * `correx show --context` rebuild them, and say what came into each call's pack.
 */

function call(id: string, name: string, args: object) {
  return sse(chatCompletionStream({ toolCalls: [{ id, name, arguments: JSON.stringify(args) }] }));
}

type Summary = {
  requestId: string;
  stageId: string;
  recordedAs: string;
  included: number;
  totalTokens: number;
  change: { added: string[]; dropped: string[] } | null;
  reportedInputTokens: number | null;
};
type Full = Omit<Summary, 'included'> & {
  manifest: { included: { id: string; kind: string }[]; excluded: unknown[]; totalTokens: number };
};

describe('GET /api/sessions/:sessionId/context', () => {
  const root = realpathSync(outsideTmpFolder());
  let model: FakeHttpServer;
  let server: ProductionServer;
  let sessionId = '';

  beforeAll(async () => {
    model = await startFakeHttpServer();
    server = await startProductionServer({ root, modelUrl: model.url, name: 'context-api' });
    model.reply(
      call('c1', 'exec', { command: 'echo one > a.txt' }),
      call('c2', 'read_file', { path: 'a.txt' }),
      call('fin', 'finish_change', { summary: 'wrote a.txt', filesChanged: ['a.txt'] }),
    );
    const started = await api(server.address).post('/api/sessions', {
      task: 'write a.txt and read it back',
      workspace: server.workspace,
      workflow: server.workflow,
      mode: 'auto',
    });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    sessionId = (started.body as { sessionId: string }).sessionId;
    await waitForEvent(server.store, sessionId, 'workflow_completed');
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await model?.close();
  });

  it('lists every model call with its pack, and what came in since the previous call', async () => {
    const reply = await api(server.address).get(`/api/sessions/${sessionId}/context`);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const { calls } = reply.body as { calls: Summary[] };
    expect(calls.length).toBe(3);
    expect(calls.map((one) => one.recordedAs)).toEqual(['reference', 'reference', 'reference']);
    expect(calls[0]!.change).toBeNull();
    // The second call's pack holds the first call's answer and the exec's result; the third the read.
    for (const later of calls.slice(1)) {
      expect(later.change!.added.length).toBeGreaterThan(0);
      expect(later.included).toBeGreaterThan(calls[0]!.included);
    }
    expect(calls.every((one) => one.reportedInputTokens !== null)).toBe(true);
    const events = await server.store.read(sessionId);
    const requested = events.filter((event) => event.payload.type === 'inference_requested');
    expect(calls.map((one) => one.requestId)).toEqual(
      requested.map((event) => (event.payload as { requestId: string }).requestId),
    );
  });

  it("answers one call's whole manifest, as `correx show --context <call> --json` prints it", async () => {
    const last = await api(server.address).get(`/api/sessions/${sessionId}/context/last`);
    expect(last.status, JSON.stringify(last.body)).toBe(200);
    const body = last.body as Full;
    const byPosition = await api(server.address).get(`/api/sessions/${sessionId}/context/3`);
    const byId = await api(server.address).get(
      `/api/sessions/${sessionId}/context/${body.requestId}`,
    );
    expect(byPosition.body).toEqual(body);
    expect(byId.body).toEqual(body);
    // What came in is in the pack, item by item; the exec's result is among them.
    const ids = body.manifest.included.map((entry) => entry.id);
    for (const id of body.change!.added) expect(ids).toContain(id);
    expect(body.manifest.included.map((entry) => entry.kind)).toContain('tool_result');

    const cli = await correx(server.home, [
      '--store',
      join(server.home, 'context-api.db'),
      'show',
      sessionId,
      '--context',
      'last',
      '--json',
    ]);
    expect(cli.code, cli.stderr).toBe(0);
    expect(JSON.parse(cli.stdout)).toEqual(body);
  }, 60_000);

  it('names a call the session does not have with a 404 and its code', async () => {
    for (const ref of ['4', 'implement.9.9']) {
      const reply = await api(server.address).get(`/api/sessions/${sessionId}/context/${ref}`);
      expect(reply.status).toBe(404);
      expect(reply.body).toMatchObject({ error: { code: 'model_call_not_found' } });
    }
    const bad = await api(server.address).get(`/api/sessions/${sessionId}/context/..%2Fx`);
    expect(bad.status).toBe(400);
    const unknown = await api(server.address).get('/api/sessions/no-such-session/context');
    expect(unknown.status).toBe(404);

    const cli = await correx(server.home, [
      '--store',
      join(server.home, 'context-api.db'),
      'show',
      sessionId,
      '--context',
      '9',
    ]);
    expect(cli.code).toBe(2);
    expect(cli.stderr).toContain('has no model call "9"');
  }, 60_000);
});

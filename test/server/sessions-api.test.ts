import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EventDto } from '../../src/interfaces/protocol/event-dto.js';
import { EventsPageResponseSchema } from '../../src/interfaces/protocol/rest-dto.js';
import type { ServerMessage } from '../../src/interfaces/protocol/server-message.js';
import { apiRoutes } from '../../src/interfaces/server/api-routes.js';
import { toEventDto } from '../../src/interfaces/protocol/to-event-dto.js';
import { api, closeAfterEach, connect, isType, startTestServer } from './support/server-fixture.js';
import { WRITE_THEN_DONE, yieldingModel } from './support/session-scripts.js';
import { createTestRouter } from './support/test-router.js';

closeAfterEach();

const ended =
  (sessionId: string, type = 'workflow_completed') =>
  (message: ServerMessage) =>
    message.type === 'event' && message.sessionId === sessionId && message.event.type === type;

async function promptSession() {
  const model = yieldingModel(WRITE_THEN_DONE);
  const fixture = await startTestServer({ modelFor: () => model });
  const { address, workspace } = fixture;
  const created = await api(address).post('/api/sessions', {
    task: 'write notes',
    workspace,
    mode: 'prompt',
  });
  expect(created.status).toBe(201);
  const { sessionId } = created.body as { sessionId: string };
  return { ...fixture, model, sessionId };
}

describe('sessions over REST and WebSocket', () => {
  it('an approval decided over REST unblocks the waiting session', async () => {
    const { address, sessionId, workspace, host } = await promptSession();
    const client = await connect(address);
    client.send({ type: 'subscribe', sessionId });
    const request = await client.next(isType('approval_requested', sessionId));
    expect(request.approval).toMatchObject({
      callId: 'implement.1.1.1',
      tool: 'write_file',
      tier: 'T1',
    });
    expect(existsSync(join(workspace, 'notes.txt'))).toBe(false);

    const listed = await api(address).get(`/api/sessions/${sessionId}/approvals`);
    expect(listed.body).toMatchObject({
      approvals: [{ callId: 'implement.1.1.1', tool: 'write_file', tier: 'T1' }],
    });
    const session = await api(address).get(`/api/sessions/${sessionId}`);
    expect(session.body).toMatchObject({ status: 'running', running: false, task: 'write notes' });

    // A caller cannot name the approver: not a reserved name, not another person.
    for (const by of ['auto', 'policy', 'auto:policy', 'mallory'])
      expect(
        await api(address).post(`/api/sessions/${sessionId}/approvals/implement.1.1.1`, {
          decision: 'approve',
          by,
        }),
      ).toMatchObject({ status: 403, body: { error: { code: 'forbidden_decider' } } });
    const decided = await api(address).post(
      `/api/sessions/${sessionId}/approvals/implement.1.1.1`,
      { decision: 'approve', reason: 'fine' },
    );
    expect(decided).toMatchObject({
      status: 200,
      body: {
        refused: false,
        // Recorded as a person: the identity this server authenticates.
        events: [{ type: 'approval_granted', payload: { by: { kind: 'human', id: 'api' } } }],
      },
    });
    await client.next(ended(sessionId));
    expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe('hi\n');
    const again = await api(address).post(`/api/sessions/${sessionId}/approvals/implement.1.1.1`, {
      decision: 'approve',
    });
    expect(again).toMatchObject({ status: 409, body: { error: { code: 'conflict' } } });
    expect(await api(address).post(`/api/sessions/${sessionId}/replay-verify`)).toMatchObject({
      status: 200,
      body: { ok: true },
    });
    expect((await api(address).get('/api/sessions')).body).toMatchObject({
      sessions: [{ sessionId, status: 'completed', task: 'write notes', running: false }],
    });
    expect(host.running()).toEqual([]);
  });

  it('steering input sent over WebSocket goes through the router and reaches the next pack', async () => {
    const model = yieldingModel(WRITE_THEN_DONE);
    const fixture = await startTestServer({
      modelFor: () => model,
      deps: {
        router: {
          onUserInput: (...args) =>
            createTestRouter(fixture.store, fixture.host).onUserInput(...args),
        },
      },
    });
    const { address, workspace } = fixture;
    const { sessionId } = (
      await api(address).post('/api/sessions', { task: 'write notes', workspace, mode: 'prompt' })
    ).body as { sessionId: string };
    const client = await connect(address);
    client.send({ type: 'subscribe', sessionId });
    await client.next(isType('approval_requested', sessionId));

    client.send({
      type: 'user_input',
      requestId: 'q1',
      sessionId,
      text: 'how far?',
      mode: 'normal',
    });
    const answer = await client.next(isType('router_response'));
    expect(answer).toMatchObject({
      requestId: 'q1',
      sessionId,
      citedSequences: [expect.any(Number)],
    });

    client.send({
      type: 'user_input',
      requestId: 's1',
      sessionId,
      text: 'Keep notes.txt under ten lines.',
      mode: 'steering',
    });
    const steered = await client.next((m) => m.type === 'router_response' && m.requestId === 's1');
    expect(steered).toMatchObject({ note: { sequence: expect.any(Number) } });
    const note = await client.next(
      (m) => m.type === 'event' && m.event.type === 'steering_note_added',
    );
    expect(note).toMatchObject({
      event: { payload: { content: 'Keep notes.txt under ten lines.' } },
    });

    await api(address).post(`/api/sessions/${sessionId}/approvals/implement.1.1.1`, {
      decision: 'approve',
    });
    await client.next(ended(sessionId));
    expect(model.request(0)).not.toContain('Keep notes.txt under ten lines.');
    expect(model.request(1)).toContain('Keep notes.txt under ten lines.');
  });

  it('pages through events from a sequence with the same envelopes the store holds', async () => {
    const { address, sessionId, store } = await promptSession();
    const client = await connect(address);
    client.send({ type: 'subscribe', sessionId });
    await client.next(isType('approval_requested', sessionId));
    const pages: EventDto[] = [];
    let after = 0;
    for (;;) {
      const reply = await api(address).get(
        `/api/sessions/${sessionId}/events?after=${after}&limit=3`,
      );
      const page = EventsPageResponseSchema.parse(reply.body);
      pages.push(...page.events);
      if (page.events.length === 0) break;
      expect(page.events.length).toBeLessThanOrEqual(3);
      after = page.nextAfter;
    }
    expect(pages).toEqual((await store.read(sessionId)).map(toEventDto));
    const bad = await api(address).get(`/api/sessions/${sessionId}/events?after=-1`);
    expect(bad.status).toBe(400);
    const tooMany = await api(address).get(`/api/sessions/${sessionId}/events?limit=100000`);
    expect(tooMany.status).toBe(400);
  });

  it('pauses, resumes and cancels; a refused move says so', async () => {
    const { address, sessionId } = await promptSession();
    const client = await connect(address);
    client.send({ type: 'subscribe', sessionId });
    await client.next(isType('approval_requested', sessionId));
    const paused = await api(address).post(`/api/sessions/${sessionId}/pause`, { reason: 'lunch' });
    expect(paused.body).toMatchObject({
      refused: false,
      events: [{ type: 'orchestration_paused' }],
    });
    const twice = await api(address).post(`/api/sessions/${sessionId}/pause`);
    expect(twice.body).toMatchObject({ refused: true, events: [{ type: 'lifecycle_rejected' }] });
    expect((await api(address).get(`/api/sessions/${sessionId}`)).body).toMatchObject({
      status: 'paused',
    });
    const resumed = await api(address).post(`/api/sessions/${sessionId}/resume`, {});
    expect(resumed.body).toMatchObject({ events: [{ type: 'orchestration_resumed' }] });
    const cancelled = await api(address).post(`/api/sessions/${sessionId}/cancel`, {
      reason: 'enough',
    });
    expect(cancelled.body).toMatchObject({ events: [{ type: 'workflow_cancelled' }] });
    await client.next(ended(sessionId, 'workflow_cancelled'));
    expect((await api(address).get(`/api/sessions/${sessionId}`)).body).toMatchObject({
      status: 'cancelled',
    });
  });

  it('retries a failed session as `correx resume --retry` does, and refuses one that has not failed', async () => {
    // The model refuses the first request: the stage, then the workflow, fails.
    const model = yieldingModel([
      { fail: { category: 'invalid_request', message: 'not today' } },
      ...WRITE_THEN_DONE,
    ]);
    const { address, workspace, host } = await startTestServer({ modelFor: () => model });
    const created = await api(address).post('/api/sessions', {
      task: 'write notes',
      workspace,
      mode: 'auto',
    });
    const { sessionId } = created.body as { sessionId: string };
    const client = await connect(address);
    client.send({ type: 'subscribe', sessionId });
    await client.next(ended(sessionId, 'workflow_failed'));
    expect((await api(address).get(`/api/sessions/${sessionId}`)).body).toMatchObject({
      status: 'failed',
    });

    const retried = await api(address).post(`/api/sessions/${sessionId}/retry`, {
      reason: 'the model is back',
    });
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({
      refused: false,
      events: [
        {
          type: 'session_retried',
          payload: { stageId: 'implement', attempt: 2, by: 'api', reason: 'the model is back' },
        },
      ],
    });
    // The server drives it again, from the failed stage, to its end.
    await client.next(ended(sessionId));
    expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe('hi\n');
    expect(host.running()).not.toContain(sessionId);

    // A completed session is not retried: the kernel's refusal, as a 400 with its reason.
    const again = await api(address).post(`/api/sessions/${sessionId}/retry`, {});
    expect(again.status).toBe(400);
    expect(JSON.stringify(again.body)).toContain('only a failed session can be retried');
    const unknown = await api(address).post('/api/sessions/nope/retry', {});
    expect(unknown.status).toBe(404);
  });

  it('takes a follow-up turn of a completed session (POST /turns) and broadcasts its events', async () => {
    const model = yieldingModel([
      ...WRITE_THEN_DONE,
      { toolCalls: [{ name: 'write_file', args: { path: 'more.txt', content: 'more\n' } }] },
      { text: JSON.stringify({ summary: 'more', filesChanged: ['more.txt'] }) },
    ]);
    const { address, workspace } = await startTestServer({ modelFor: () => model });
    const created = await api(address).post('/api/sessions', {
      task: 'write notes',
      workspace,
      mode: 'auto',
    });
    const { sessionId } = created.body as { sessionId: string };
    const client = await connect(address);
    client.send({ type: 'subscribe', sessionId });
    await client.next(ended(sessionId));

    const asked = await api(address).post(`/api/sessions/${sessionId}/turns`, {
      text: 'now also write more.txt',
    });
    expect(asked.status).toBe(202);
    expect(asked.body).toMatchObject({
      sessionId,
      turn: 2,
      events: [
        {
          type: 'turn_requested',
          payload: { turn: 2, text: 'now also write more.txt', requestedBy: 'api' },
        },
      ],
    });
    // The turn's events reach the session's subscribers as any other's.
    const checked = await client.next(ended(sessionId, 'turn_workspace_checked'));
    expect(checked).toMatchObject({
      event: { payload: { turn: 2, compared: 1, changed: [] } },
    });
    const turnAt = (asked.body as { events: { sequence: number }[] }).events[0]!.sequence;
    await client.next(
      (message) =>
        ended(sessionId)(message) && message.type === 'event' && message.event.sequence > turnAt,
    );
    expect(readFileSync(join(workspace, 'more.txt'), 'utf8')).toBe('more\n');
    expect((await api(address).get(`/api/sessions/${sessionId}`)).body).toMatchObject({
      status: 'completed',
    });

    const empty = await api(address).post(`/api/sessions/${sessionId}/turns`, { text: '' });
    expect(empty.status).toBe(400);
    const unknown = await api(address).post('/api/sessions/nope/turns', { text: 'x' });
    expect(unknown.status).toBe(404);
  });

  it('refuses a follow-up turn of a session that has not ended', async () => {
    const { address, sessionId } = await promptSession();
    const client = await connect(address);
    client.send({ type: 'subscribe', sessionId });
    await client.next(isType('approval_requested', sessionId));
    const refused = await api(address).post(`/api/sessions/${sessionId}/turns`, { text: 'more' });
    expect(refused.status).toBe(409);
    expect(JSON.stringify(refused.body)).toContain(
      'a follow-up turn waits until its workflow ended',
    );
  });

  it('records a redirect for the session to decide, and refuses a body without a target', async () => {
    const { address, sessionId } = await promptSession();
    const client = await connect(address);
    client.send({ type: 'subscribe', sessionId });
    await client.next(isType('approval_requested', sessionId));
    const missing = await api(address).post(`/api/sessions/${sessionId}/redirect`, {});
    expect(missing.status).toBe(400);
    const unknown = await api(address).post('/api/sessions/no-such-session/redirect', {
      to: 'implement',
    });
    expect(unknown.status).toBe(404);
    const asked = await api(address).post(`/api/sessions/${sessionId}/redirect`, {
      to: 'nowhere',
      reason: 'try another stage',
    });
    expect(asked.status).toBe(200);
    expect(asked.body).toMatchObject({
      refused: false,
      events: [
        { type: 'redirect_requested', payload: { to: 'nowhere', reason: 'try another stage' } },
      ],
    });
  });

  it('serves an OpenAPI 3.1 document that describes every registered API route', async () => {
    const { address, server } = await startTestServer();
    const reply = await api(address).get('/api/openapi.json');
    expect(reply.status).toBe(200);
    const document = reply.body as {
      openapi: string;
      paths: Record<string, Record<string, unknown>>;
    };
    expect(document.openapi).toBe('3.1.0');
    const registered = server.routes().filter((route) => route.path.startsWith('/api'));
    expect(registered.length).toBe(Object.keys(apiRoutes).length);
    for (const route of registered) {
      const path = route.path.replace(/:([A-Za-z]+)/g, '{$1}');
      expect(
        document.paths[path]?.[route.method.toLowerCase()],
        `${route.method} ${path}`,
      ).toBeDefined();
    }
  });
});

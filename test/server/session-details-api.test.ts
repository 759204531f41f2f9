import { realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  GetSessionResponseSchema,
  ListApprovalsResponseSchema,
  ListSessionsResponseSchema,
  SessionOptionsResponseSchema,
} from '../../src/interfaces/protocol/rest-dto.js';
import type { ScriptedTurn } from '../../src/infrastructure/providers/scripted-provider.js';
import type { ServerMessage } from '../../src/interfaces/protocol/server-message.js';
import { api, closeAfterEach, connect, isType, startTestServer } from './support/server-fixture.js';
import { WRITE_THEN_DONE, yieldingModel } from './support/session-scripts.js';
import { implementOnlyWorkflow, scenarioConfig } from '../kernel/kernel-harness.js';

closeAfterEach();

const ended =
  (sessionId: string) =>
  (message: ServerMessage): boolean =>
    message.type === 'event' &&
    message.sessionId === sessionId &&
    message.event.type === 'workflow_completed';

/** A server with one session in prompt mode waiting for its write_file to be approved. */
async function waitingSession(script: readonly ScriptedTurn[] = WRITE_THEN_DONE) {
  const fixture = await startTestServer({ modelFor: () => yieldingModel(script) });
  const { sessionId } = (
    await api(fixture.address).post('/api/sessions', {
      task: 'write notes',
      workspace: fixture.workspace,
      mode: 'prompt',
    })
  ).body as { sessionId: string };
  const client = await connect(fixture.address);
  client.send({ type: 'subscribe', sessionId });
  const announced = await client.next(isType('approval_requested', sessionId));
  return { ...fixture, sessionId, client, announced };
}

describe('session list rows, options and approval details', () => {
  it('lists each session with its stage, mode, tokens and pending count, filtered by status', async () => {
    const [write, ...rest] = WRITE_THEN_DONE;
    const { address, sessionId, workspace, client } = await waitingSession([
      { ...write, usage: { inputTokens: 120, outputTokens: 30 } } as ScriptedTurn,
      ...rest,
    ]);
    const { sessionId: autoId } = (
      await api(address).post('/api/sessions', { task: 'auto notes', workspace, mode: 'auto' })
    ).body as { sessionId: string };
    client.send({ type: 'subscribe', sessionId: autoId });
    await client.next(ended(autoId));

    const listed = ListSessionsResponseSchema.parse((await api(address).get('/api/sessions')).body);
    const waiting = listed.sessions.find((row) => row.sessionId === sessionId);
    expect(waiting).toMatchObject({
      status: 'running',
      task: 'write notes',
      stage: 'implement',
      mode: 'prompt',
      pendingApprovals: 1,
      running: false,
    });
    expect(waiting?.tokens).toEqual({ input: 120, output: 30 });
    expect(listed.sessions.find((row) => row.sessionId === autoId)).toMatchObject({
      status: 'completed',
      mode: 'auto',
      stage: 'implement',
      pendingApprovals: 0,
    });

    const completed = ListSessionsResponseSchema.parse(
      (await api(address).get('/api/sessions?status=completed')).body,
    );
    expect(completed.sessions.map((row) => row.sessionId)).toEqual([autoId]);
    const running = ListSessionsResponseSchema.parse(
      (await api(address).get('/api/sessions?status=running')).body,
    );
    expect(running.sessions.map((row) => row.sessionId)).toEqual([sessionId]);
    expect((await api(address).get('/api/sessions?status=failed')).body).toEqual({
      sessions: [],
    });
    expect(await api(address).get('/api/sessions?status=sleeping')).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_request' } },
    });
    expect((await api(address).get('/api/sessions?colour=red')).status).toBe(400);

    expect((await api(address).get(`/api/sessions/${sessionId}`)).body).toMatchObject({
      mode: 'prompt',
    });
  });

  it('gives each session its cost by the recorded prices, in the list and the summary; null without prices', async () => {
    const prices = { inputPerMillion: 3, outputPerMillion: 15 };
    const [write, ...rest] = WRITE_THEN_DONE;
    const priced = await startTestServer({
      modelFor: () =>
        yieldingModel([
          { ...write, usage: { inputTokens: 1200, outputTokens: 300 } } as ScriptedTurn,
          ...rest,
        ]),
      config: scenarioConfig({ workflow: implementOnlyWorkflow(), prices }),
    });
    const { sessionId } = (
      await api(priced.address).post('/api/sessions', {
        task: 'auto notes',
        workspace: priced.workspace,
        mode: 'auto',
      })
    ).body as { sessionId: string };
    const client = await connect(priced.address);
    client.send({ type: 'subscribe', sessionId });
    await client.next(ended(sessionId));
    // The cost from the log's own usage numbers, by the configured prices.
    const usage = (await priced.store.read(sessionId)).flatMap((event) =>
      event.payload.type === 'inference_completed' ? [event.payload.result.usage] : [],
    );
    expect(usage.length).toBeGreaterThan(0);
    const expected = usage.reduce(
      (sum, u) =>
        sum +
        (u.inputTokens * prices.inputPerMillion + u.outputTokens * prices.outputPerMillion) / 1e6,
      0,
    );
    expect(expected).toBeGreaterThan(0);
    const listed = ListSessionsResponseSchema.parse(
      (await api(priced.address).get('/api/sessions')).body,
    );
    expect(listed.sessions.find((row) => row.sessionId === sessionId)?.cost).toBeCloseTo(
      expected,
      12,
    );
    const one = GetSessionResponseSchema.parse(
      (await api(priced.address).get(`/api/sessions/${sessionId}`)).body,
    );
    expect(one.cost).toBeCloseTo(expected, 12);
    expect(one.tokens).toEqual({
      input: usage.reduce((sum, u) => sum + u.inputTokens, 0),
      output: usage.reduce((sum, u) => sum + u.outputTokens, 0),
    });

    const { address, sessionId: unpriced } = await waitingSession();
    const row = ListSessionsResponseSchema.parse((await api(address).get('/api/sessions')).body);
    expect(row.sessions.find((r) => r.sessionId === unpriced)?.cost).toBeNull();
  });

  it('describes a pending approval with its arguments, resolved targets and findings, over REST and WebSocket', async () => {
    const { address, sessionId, workspace, announced } = await waitingSession();
    const notes = join(realpathSync(workspace), 'notes.txt');
    const expected = {
      callId: 'implement.1.1.1',
      tool: 'write_file',
      tier: 'T1',
      stageId: 'implement',
      reason: expect.any(String),
      verdict: expect.any(String),
      risk: expect.any(String),
      targets: [{ param: 'path', raw: 'notes.txt', resolved: notes, realPath: notes, write: true }],
      findings: expect.any(Array),
    };
    const listed = ListApprovalsResponseSchema.parse(
      (await api(address).get(`/api/sessions/${sessionId}/approvals`)).body,
    );
    expect(listed.approvals).toEqual([expect.objectContaining(expected)]);
    const [approval] = listed.approvals;
    expect(JSON.parse(approval?.arguments ?? 'null')).toEqual({
      path: 'notes.txt',
      content: 'hi\n',
    });
    expect(approval?.reason.length).toBeGreaterThan(0);
    expect(announced.approval).toEqual(approval);

    // A later subscriber whose cursor lies between the proposal and the request still gets both.
    const proposal = (
      (await api(address).get(`/api/sessions/${sessionId}/events?limit=1000`)).body as {
        events: { sequence: number; type: string }[];
      }
    ).events.find((event) => event.type === 'tool_call_proposed');
    const late = await connect(address);
    late.send({ type: 'subscribe', sessionId, afterSequence: proposal?.sequence ?? 0 });
    expect((await late.next(isType('approval_requested', sessionId))).approval).toEqual(approval);
  });

  it('reports the rule findings of a call the rules question', async () => {
    // A call the rules ask about (with flag sandbox-containment an npm install without its
    // registry on the egress allowlist is final, so a remote git call stands in for it).
    const argv = ['git', 'fetch'];
    const fixture = await startTestServer({
      modelFor: () =>
        yieldingModel([
          { toolCalls: [{ name: 'exec', args: { argv } }] },
          { text: JSON.stringify({ summary: 'done', filesChanged: [] }) },
        ]),
    });
    const { sessionId } = (
      await api(fixture.address).post('/api/sessions', {
        task: 'fetch',
        workspace: fixture.workspace,
        mode: 'prompt',
      })
    ).body as { sessionId: string };
    const client = await connect(fixture.address);
    client.send({ type: 'subscribe', sessionId });
    const announced = await client.next(isType('approval_requested', sessionId));
    const pending = ListApprovalsResponseSchema.parse(
      (await api(fixture.address).get(`/api/sessions/${sessionId}/approvals`)).body,
    );
    expect(pending.approvals).toEqual([
      {
        callId: 'implement.1.1.1',
        tool: 'exec',
        tier: 'T3',
        reason: expect.stringContaining('git fetch talks to a remote'),
        stageId: 'implement',
        arguments: JSON.stringify({ argv }),
        verdict: 'ASK',
        risk: 'high',
        targets: [],
        findings: [
          {
            ruleId: 'exec-interpreter',
            severity: 'ask',
            code: 'git_network',
            message: 'git fetch talks to a remote',
            tier: 'T3',
          },
          {
            ruleId: 'exec-interpreter',
            severity: 'info',
            code: 'programs',
            message: expect.stringMatching(/^runs git/) as unknown as string,
            tier: 'T0',
          },
        ],
        // "Always allow" records this exact command line, as the CLI's prompt does.
        alwaysAllow: {
          scope: { kind: 'command', command: JSON.stringify(argv) },
          description: `command: ${JSON.stringify(argv)}`,
        },
        recordedContent: null,
        interrupted: null,
      },
    ]);
    expect(announced.approval).toEqual(pending.approvals[0]);
  });

  it('lists what a new session may be started with', async () => {
    const { address, workspace } = await startTestServer();
    const reply = await api(address).get('/api/options');
    expect(reply.status).toBe(200);
    expect(SessionOptionsResponseSchema.parse(reply.body)).toEqual({
      allowedRoots: [realpathSync(dirname(workspace))],
      workflows: ['implement-only'],
      defaultWorkflow: 'implement-only',
      modelProfiles: ['scripted'],
      defaultModelProfile: null,
      modes: ['prompt', 'auto', 'yolo', 'deny'],
      defaultMode: 'auto',
    });
    const document = (await api(address).get('/api/openapi.json')).body as {
      paths: Record<string, Record<string, { parameters?: { name: string }[] }>>;
    };
    expect(document.paths['/api/options']?.get).toBeDefined();
    expect(document.paths['/api/sessions']?.get?.parameters?.map((p) => p.name)).toEqual([
      'status',
    ]);
    expect((await api(address, 'x'.repeat(40)).get('/api/options')).status).toBe(401);
  });

  it('streams session list rows to a socket that subscribes to the list', async () => {
    const fixture = await startTestServer({ modelFor: () => yieldingModel(WRITE_THEN_DONE) });
    const { address, workspace } = fixture;
    const watcher = await connect(address);
    watcher.send({ type: 'subscribe_sessions' });
    await watcher.next(isType('sessions_subscribed'));
    watcher.send({ type: 'subscribe_sessions' });
    expect(await watcher.next(isType('error'))).toMatchObject({ code: 'already_subscribed' });

    const { sessionId } = (
      await api(address).post('/api/sessions', { task: 'write notes', workspace, mode: 'prompt' })
    ).body as { sessionId: string };
    const waiting = await watcher.next(
      (m) =>
        m.type === 'session_updated' &&
        m.session.sessionId === sessionId &&
        m.session.pendingApprovals === 1,
    );
    expect(waiting).toMatchObject({
      session: { status: 'running', mode: 'prompt', stage: 'implement', task: 'write notes' },
    });

    await api(address).post(`/api/sessions/${sessionId}/approvals/implement.1.1.1`, {
      decision: 'approve',
    });
    const done = await watcher.next(
      (m) =>
        m.type === 'session_updated' &&
        m.session.sessionId === sessionId &&
        m.session.status === 'completed',
    );
    expect(done).toMatchObject({ session: { pendingApprovals: 0 } });

    watcher.send({ type: 'unsubscribe_sessions' });
    await watcher.next(isType('sessions_unsubscribed'));
    watcher.send({ type: 'unsubscribe_sessions' });
    expect(
      await watcher.next((m) => m.type === 'error' && m.code === 'not_subscribed'),
    ).toBeDefined();
  });
});

import { describe, expect, it } from 'vitest';
import {
  AddGrantResponseSchema,
  AlwaysAllowResponseSchema,
  ListGrantsResponseSchema,
} from '../../src/interfaces/protocol/grants-dto.js';
import { ListApprovalsResponseSchema } from '../../src/interfaces/protocol/rest-dto.js';
import { ALWAYS_ALLOW_REASON } from '../../src/interfaces/record-grant.js';
import { api, closeAfterEach, connect, isType, startTestServer } from './support/server-fixture.js';
import { yieldingModel } from './support/session-scripts.js';

closeAfterEach();

/** Reads README.md, then rewrites it (a T1 write: in prompt mode it waits for a person). */
const READ_THEN_WRITE = [
  { toolCalls: [{ name: 'read_file', args: { path: 'README.md' } }] },
  { toolCalls: [{ name: 'write_file', args: { path: 'README.md', content: 'hello\nworld\n' } }] },
  { text: JSON.stringify({ summary: 'done', filesChanged: ['README.md'] }) },
];

async function waitingWrite() {
  const fixture = await startTestServer({
    files: { 'README.md': 'hello\n' },
    deps: { user: 'alice' },
    modelFor: () => yieldingModel(READ_THEN_WRITE),
  });
  const client = api(fixture.address);
  const { sessionId } = (
    await client.post('/api/sessions', {
      task: 'extend the readme',
      workspace: fixture.workspace,
      mode: 'prompt',
    })
  ).body as { sessionId: string };
  const socket = await connect(fixture.address);
  socket.send({ type: 'subscribe', sessionId });
  const announced = await socket.next(isType('approval_requested', sessionId));
  return { ...fixture, client, sessionId, socket, callId: announced.approval.callId };
}

describe('grants and "always allow" over REST', () => {
  it('describes a waiting write with the grant "always allow" records and the content the log holds', async () => {
    const { client, sessionId } = await waitingWrite();
    const { approvals } = ListApprovalsResponseSchema.parse(
      (await client.get(`/api/sessions/${sessionId}/approvals`)).body,
    );
    expect(approvals).toHaveLength(1);
    expect(approvals[0]).toMatchObject({
      tool: 'write_file',
      alwaysAllow: {
        scope: { kind: 'path', tool: 'write_file', glob: 'README.md' },
        description: 'write_file on README.md',
      },
      recordedContent: 'hello\n',
    });
  });

  it('records the exact grant the CLI records, approves the call, and the session goes on', async () => {
    const { client, sessionId, callId, socket, store } = await waitingWrite();
    const reply = await client.post(
      `/api/sessions/${sessionId}/approvals/${callId}/always-allow`,
      {},
    );
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const allowed = AlwaysAllowResponseSchema.parse(reply.body);
    expect(allowed.scope).toEqual({ kind: 'path', tool: 'write_file', glob: 'README.md' });
    expect(allowed.events.map((event) => event.type)).toEqual([
      'approval_grant_added',
      'approval_granted',
    ]);
    await socket.next(
      (message) => message.type === 'event' && message.event.type === 'workflow_completed',
    );
    const events = await store.read(sessionId);
    const grant = events.find((event) => event.payload.type === 'approval_grant_added');
    expect(grant?.payload).toMatchObject({
      grantId: allowed.grantId,
      lifetime: 'session',
      stageId: null,
      expiresAt: null,
      by: 'alice',
      reason: ALWAYS_ALLOW_REASON,
    });
    const granted = events.find(
      (event) => event.payload.type === 'approval_granted' && event.payload.callId === callId,
    );
    expect(granted?.payload).toMatchObject({
      callId,
      reason: `always allowed: ${allowed.grantId}`,
    });
    const again = await client.post(
      `/api/sessions/${sessionId}/approvals/${callId}/always-allow`,
      {},
    );
    expect(again.status).toBe(409);
  });

  it('adds, lists and revokes grants as correx grant and correx revoke do', async () => {
    const { client, sessionId } = await waitingWrite();
    const added = await client.post(`/api/sessions/${sessionId}/grants`, {
      scope: { kind: 'command', command: 'npm test' },
      stage: 'implement',
      reason: 'tests are safe',
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const { grantId } = AddGrantResponseSchema.parse(added.body);
    const listed = ListGrantsResponseSchema.parse(
      (await client.get(`/api/sessions/${sessionId}/grants`)).body,
    );
    expect(listed.grants).toEqual([
      {
        grantId,
        scope: { kind: 'command', command: 'npm test' },
        description: 'command: npm test',
        stageId: 'implement',
        expiresAt: null,
        by: 'alice',
        reason: 'tests are safe',
      },
    ]);
    expect(
      (await client.post(`/api/sessions/${sessionId}/grants`, { scope: { kind: 'host' } })).status,
    ).toBe(400);
    expect(
      (
        await client.post(`/api/sessions/${sessionId}/grants`, {
          scope: { kind: 'host', host: 'example.org' },
          reason: 'x',
          by: 'auto',
        })
      ).status,
    ).toBe(403);
    const revoked = await client.post(`/api/sessions/${sessionId}/grants/${grantId}/revoke`, {});
    expect(revoked.status).toBe(200);
    expect(
      ListGrantsResponseSchema.parse((await client.get(`/api/sessions/${sessionId}/grants`)).body)
        .grants,
    ).toEqual([]);
    expect(
      (await client.post(`/api/sessions/${sessionId}/grants/${grantId}/revoke`, {})).status,
    ).toBe(409);
    expect((await client.post(`/api/sessions/${sessionId}/grants/nope/revoke`, {})).status).toBe(
      404,
    );
  });
});

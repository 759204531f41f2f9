import { describe, expect, it } from 'vitest';
import type { ServerMessage } from '../../src/interfaces/protocol/server-message.js';
import {
  api,
  closeAfterEach,
  connect,
  isType,
  lastSequenceOf,
  startTestServer,
  type SocketClient,
} from './support/server-fixture.js';
import { busyScript, WRITE_THEN_DONE, yieldingModel } from './support/session-scripts.js';

closeAfterEach();

type EventMessage = Extract<ServerMessage, { type: 'event' }>;

function sequencesOf(client: SocketClient, sessionId: string, from = 0): number[] {
  return client.messages
    .slice(from)
    .filter((m): m is EventMessage => m.type === 'event' && m.sessionId === sessionId)
    .map((m) => m.event.sequence);
}

const range = (from: number, to: number) =>
  Array.from({ length: Math.max(0, to - from + 1) }, (_unused, index) => from + index);

const finished = (sessionId: string) => (message: ServerMessage) =>
  message.type === 'event' &&
  message.sessionId === sessionId &&
  ['workflow_completed', 'workflow_failed', 'workflow_cancelled'].includes(message.event.type);

describe('WebSocket messages', () => {
  it('answers malformed, unknown, binary and oversized messages with errors and stays open', async () => {
    const { address } = await startTestServer({ deps: { limits: { maxMessageBytes: 1_000 } } });
    const client = await connect(address);
    const cases: [string | Buffer, boolean, string][] = [
      ['{"type": "subscribe", ', false, 'invalid_message'],
      ['"hello"', false, 'invalid_message'],
      [JSON.stringify({ type: 'launch_missiles' }), false, 'invalid_message'],
      [
        JSON.stringify({ type: 'subscribe', sessionId: 's', afterSequence: -1 }),
        false,
        'invalid_message',
      ],
      [JSON.stringify({ type: 'ping', extra: true }), false, 'invalid_message'],
      [Buffer.from(JSON.stringify({ type: 'ping' })), true, 'invalid_message'],
      [JSON.stringify({ type: 'ping', requestId: 'x'.repeat(2_000) }), false, 'message_too_large'],
    ];
    for (const [data, binary, code] of cases) {
      const from = client.messages.length;
      client.sendRaw(data, binary);
      const reply = await client.next(() => true, from);
      expect(reply, String(data).slice(0, 60)).toMatchObject({ type: 'error', code });
    }
    client.send({ type: 'ping', requestId: 'still-here' });
    expect(await client.next(isType('pong'))).toEqual({ type: 'pong', requestId: 'still-here' });
    // A frame beyond the hard cap closes this connection (1009) but not the server.
    const other = await connect(address);
    other.sendRaw('x'.repeat(2 * 1024 * 1024));
    expect((await other.closed).code).toBe(1009);
    client.send({ type: 'ping', requestId: 'after' });
    expect(await client.next((m) => m.type === 'pong' && m.requestId === 'after')).toBeTruthy();
  });

  it('keeps its subscriptions straight: one per session, cursors within the log, unsubscribe', async () => {
    const model = yieldingModel(WRITE_THEN_DONE);
    const { address, workspace } = await startTestServer({ modelFor: () => model });
    const created = await api(address).post('/api/sessions', {
      task: 't',
      workspace,
      mode: 'prompt',
    });
    const { sessionId } = created.body as { sessionId: string };
    const client = await connect(address);
    client.send({ type: 'subscribe', sessionId });
    const caughtUp = await client.next(isType('approval_requested', sessionId));
    expect(caughtUp.approval).toMatchObject({ callId: 'implement.1.1.1', tier: 'T1' });
    const last = sequencesOf(client, sessionId).at(-1)!;
    client.send({ type: 'subscribe', sessionId });
    expect(await client.next(isType('error'))).toMatchObject({ code: 'already_subscribed' });
    client.send({ type: 'unsubscribe', sessionId });
    await client.next(isType('unsubscribed'));
    client.send({ type: 'unsubscribe', sessionId });
    expect(
      await client.next((m) => m.type === 'error' && m.code === 'not_subscribed'),
    ).toBeTruthy();
    client.send({ type: 'subscribe', sessionId, afterSequence: last + 1 });
    expect(
      await client.next((m) => m.type === 'error' && m.code === 'cursor_out_of_range'),
    ).toBeTruthy();
  });

  it('a reconnect with a cursor receives exactly the events it missed', async () => {
    const model = yieldingModel(WRITE_THEN_DONE);
    const { address, workspace } = await startTestServer({ modelFor: () => model });
    const { sessionId } = (
      await api(address).post('/api/sessions', { task: 't', workspace, mode: 'prompt' })
    ).body as { sessionId: string };
    const first = await connect(address);
    first.send({ type: 'subscribe', sessionId });
    await first.next(isType('approval_requested', sessionId));
    const seen = sequencesOf(first, sessionId);
    expect(seen).toEqual(range(1, seen.length));
    const waiting = { sequence: seen.length };
    await first.close();

    const decided = await api(address).post(
      `/api/sessions/${sessionId}/approvals/implement.1.1.1`,
      {
        decision: 'approve',
      },
    );
    expect(decided.status).toBe(200);
    const watcher = await connect(address);
    watcher.send({ type: 'subscribe', sessionId });
    await watcher.next(finished(sessionId));
    const total = sequencesOf(watcher, sessionId).at(-1)!;
    expect(total).toBeGreaterThan(waiting.sequence);

    for (const cursor of [waiting.sequence, 3]) {
      const again = await connect(address);
      again.send({ type: 'subscribe', sessionId, afterSequence: cursor });
      const done = await again.next(isType('caught_up', sessionId));
      expect(done.sequence).toBe(total);
      expect(sequencesOf(again, sessionId)).toEqual(range(cursor + 1, total));
      // Already decided, so it is history, not a request.
      expect(again.messages.some((m) => m.type === 'approval_requested')).toBe(false);
      await again.close();
    }
  });

  it('a client that drops mid-run and reconnects from its cursor ends with every event once', async () => {
    const model = yieldingModel(busyScript(8));
    const { address, workspace } = await startTestServer({ modelFor: () => model });
    const { sessionId } = (await api(address).post('/api/sessions', { task: 't', workspace }))
      .body as { sessionId: string };
    const received: number[] = [];
    let cursor = 0;
    for (let attempt = 0; ; attempt++) {
      const client = await connect(address);
      client.send({ type: 'subscribe', sessionId, afterSequence: cursor });
      // Drop after a few events, until the session is over.
      await client.next(
        (m) => finished(sessionId)(m) || sequencesOf(client, sessionId).length >= 5,
      );
      // Events the server sends while the close handshake is under way still arrive, so what
      // the client keeps, its next cursor and whether it saw the end all come from the same
      // messages: everything it received, read once the socket is closed.
      await client.close();
      received.push(...sequencesOf(client, sessionId));
      cursor = received.at(-1) ?? cursor;
      if (client.messages.some(finished(sessionId)) || attempt > 200) break;
    }
    expect(received).toEqual(range(1, received.length));
    expect(received.length).toBe(await lastSequenceOf(address, sessionId));
  });

  it('50 concurrent subscribers all receive every event of a running session, in order', async () => {
    const model = yieldingModel(busyScript(10));
    const { address, workspace, store } = await startTestServer({ modelFor: () => model });
    const { sessionId } = (await api(address).post('/api/sessions', { task: 't', workspace }))
      .body as { sessionId: string };
    const clients = await Promise.all(Array.from({ length: 50 }, () => connect(address)));
    for (const client of clients) client.send({ type: 'subscribe', sessionId });
    await Promise.all(clients.map((client) => client.next(finished(sessionId))));
    const total = await store.lastSequence(sessionId);
    expect(total).toBeGreaterThan(100);
    const stored = (await store.read(sessionId)).map((event) => event.eventId);
    for (const client of clients) {
      expect(sequencesOf(client, sessionId)).toEqual(range(1, total));
      const ids = client.messages
        .filter((m): m is EventMessage => m.type === 'event')
        .map((m) => m.event.eventId);
      expect(ids).toEqual(stored);
    }
  });
});

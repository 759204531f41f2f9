import { connect as tcpConnect, type Socket } from 'node:net';
import { isInputEvent } from '../../src/core/kernel/decider/input-events.js';
import { describe, expect, it } from 'vitest';
import type { ServerMessage } from '../../src/interfaces/protocol/server-message.js';
import { SHUTDOWN_ACTOR } from '../../src/interfaces/server/session-index.js';
import { api, closeAfterEach, connect, isType, startTestServer } from './support/server-fixture.js';
import { busyScript, yieldingModel } from './support/session-scripts.js';

closeAfterEach();

describe('graceful shutdown', () => {
  it('pauses running sessions on close and resumes them on the next start, losing no event', async () => {
    const first = await startTestServer({ modelFor: () => yieldingModel(busyScript(10)) });
    const { sessionId } = (
      await api(first.address).post('/api/sessions', { task: 't', workspace: first.workspace })
    ).body as { sessionId: string };
    const client = await connect(first.address);
    client.send({ type: 'subscribe', sessionId });
    // Close while the session is mid-stage: after a few tool receipts.
    await client.next(
      () =>
        client.messages.filter((m) => m.type === 'event' && m.event.type === 'tool_receipt')
          .length >= 4,
    );
    await first.close();
    expect((await client.closed).code).toBe(1001);
    const before = await first.store.read(sessionId);
    // The pause is recorded when shutdown begins; the result of the effect that was running
    // may follow it, and nothing is decided after it.
    const at = before.findIndex((event) => event.payload.type === 'orchestration_paused');
    expect(before[at]?.payload).toMatchObject({ by: SHUTDOWN_ACTOR });
    expect(before.slice(at + 1).every((event) => isInputEvent(event.payload))).toBe(true);
    expect(first.host.running()).toEqual([]);

    // The next start, over the same store, finishes the stage with a fresh model.
    const second = await startTestServer({
      reuse: { store: first.store, workspace: first.workspace, storePath: first.storePath },
      modelFor: () => yieldingModel(busyScript(0)),
      idPrefix: 'second',
    });
    expect(second.address.resumed).toEqual([sessionId]);
    const watcher = await connect(second.address);
    watcher.send({ type: 'subscribe', sessionId });
    await watcher.next(
      (m: ServerMessage) => m.type === 'event' && m.event.type === 'workflow_completed',
    );
    const after = await second.store.read(sessionId);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.map((event) => event.sequence)).toEqual(after.map((_event, index) => index + 1));
    expect(after.map((event) => event.payload.type)).toContain('orchestration_resumed');
    expect(
      (await api(second.address).post(`/api/sessions/${sessionId}/replay-verify`)).body,
    ).toMatchObject({
      ok: true,
    });
    await watcher.next(isType('caught_up'));
  });
});

describe('a shutdown no peer can hold', () => {
  it('closes while a client holds a half-sent request and another an idle keep-alive connection', async () => {
    const server = await startTestServer();
    const open = (): Promise<Socket> =>
      new Promise((resolve, reject) => {
        const socket = tcpConnect(server.address.port, '127.0.0.1', () => resolve(socket));
        socket.on('error', reject);
      });
    // A request whose headers never end: Node counts its connection as active, not idle.
    const stalled = await open();
    stalled.write(`GET /api/sessions HTTP/1.1\r\nhost: 127.0.0.1:${server.address.port}\r\n`);
    const keptAlive = await open();
    keptAlive.write(
      `GET /api/sessions HTTP/1.1\r\nhost: 127.0.0.1:${server.address.port}\r\nconnection: keep-alive\r\n\r\n`,
    );
    await new Promise((resolve) => keptAlive.once('data', resolve));
    const ended = (socket: Socket) =>
      new Promise<void>((resolve) => socket.once('close', () => resolve()));
    const bothEnded = Promise.all([ended(stalled), ended(keptAlive)]);
    await server.close();
    await bothEnded;
  });
});

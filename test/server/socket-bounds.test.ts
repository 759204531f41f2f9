import { describe, expect, it } from 'vitest';
import type { CorrexEventStore } from '../../src/core/event-catalog.js';
import {
  api,
  closeAfterEach,
  connect,
  isType,
  refusedUpgrade,
  startTestServer,
} from './support/server-fixture.js';

closeAfterEach();

/** 1,000 notes of 20 kB in session `big`: 20 MB, more than kernel socket buffers hold. */
async function seedBig(store: CorrexEventStore): Promise<void> {
  for (let batch = 0; batch < 10; batch++)
    await store.appendAll(
      Array.from({ length: 100 }, (_unused, index) => ({
        eventId: `big-${batch}-${index}`,
        sessionId: 'big',
        timestamp: '2026-12-01T12:00:00.000Z',
        payload: {
          type: 'steering_note_added' as const,
          sessionId: 'big',
          content: `${batch}.${index} ${'x'.repeat(19_990)}`,
        },
      })),
    );
}

/** The server's bounds on WebSocket clients, met by real `ws` clients over real sockets. */
describe('WebSocket bounds', () => {
  it('catches a reading client up on a session far larger than the bound, every event once', async () => {
    const server = await startTestServer({ deps: { limits: { maxBufferedBytes: 64 * 1024 } } });
    await seedBig(server.store);
    const client = await connect(server.address);
    client.send({ type: 'subscribe', sessionId: 'big', afterSequence: 0 });
    await client.next(isType('caught_up'));
    const sequences = client.messages.flatMap((m) =>
      m.type === 'event' ? [m.event.sequence] : [],
    );
    expect(sequences).toEqual(Array.from({ length: 1_000 }, (_unused, index) => index + 1));
  });

  it('closes a subscriber that stops reading (1013) instead of buffering the session for it', async () => {
    const server = await startTestServer({
      deps: { limits: { maxBufferedBytes: 64 * 1024, slowConsumerMs: 200 } },
    });
    await seedBig(server.store);
    const client = await connect(server.address);
    // The client stops reading: the kernel buffers fill, the server's backlog grows.
    (client.socket as unknown as { _socket: { pause(): void; resume(): void } })._socket.pause();
    client.send({ type: 'subscribe', sessionId: 'big', afterSequence: 0 });
    // The server gives up on it: it closes (and stops reading the store for it) instead of
    // buffering the whole session in memory. Reading again shows what it sent, then the close.
    await expect.poll(() => server.server.stats().followers).toBe(1);
    await expect.poll(() => server.server.stats().followers, { timeout: 10_000 }).toBe(0);
    (client.socket as unknown as { _socket: { resume(): void } })._socket.resume();
    const { code } = await client.closed;
    expect(code).toBe(1013);
    const received = client.messages.filter((message) => message.type === 'event').length;
    expect(received).toBeLessThan(1_000);
  });

  it('closes a client that floods messages past the rate limit (1008)', async () => {
    const server = await startTestServer({
      deps: { limits: { messageBurst: 20, messagesPerSecond: 1 } },
    });
    const client = await connect(server.address);
    for (let index = 0; index < 500; index++) client.send({ type: 'ping', requestId: `p${index}` });
    const { code, reason } = await client.closed;
    expect(code).toBe(1008);
    expect(reason).toMatch(/rate limit/);
    const pongs = client.messages.filter(isType('pong')).length;
    expect(pongs).toBeGreaterThan(0);
    expect(pongs).toBeLessThan(500);
  });

  it('a token rotation refuses the old token at once and closes the sockets opened with it (4001)', async () => {
    const server = await startTestServer();
    const client = await connect(server.address);
    const next = 'the-next-token-of-thirty-two-chars-or-more';
    server.server.rotateToken(next);
    expect((await client.closed).code).toBe(4001);
    expect((await api(server.address).get('/api/sessions')).status).toBe(401);
    const fresh = await connect(server.address, { token: next });
    fresh.send({ type: 'ping', requestId: 'p' });
    await fresh.next(isType('pong'));
  });

  it('refuses WebSockets beyond the connection limit (503) while REST stays reachable', async () => {
    const server = await startTestServer({ deps: { limits: { maxSockets: 3 } } });
    const open = [];
    for (let index = 0; index < 3; index++) open.push(await connect(server.address));
    expect(await refusedUpgrade(server.address, {})).toBe(503);
    expect((await api(server.address).get('/api/sessions')).status).toBe(200);
    // A closed socket frees its place.
    await open[0]!.close();
    await expect
      .poll(
        async () =>
          await connect(server.address).then(
            () => true,
            () => false,
          ),
      )
      .toBe(true);
  });
});

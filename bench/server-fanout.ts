import { tmpdir } from 'node:os';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { correxEventCatalog, type EventPayload } from '../src/core/event-catalog.js';
import type { NewEvent } from '../src/core/events/event-envelope.js';
import { createInMemoryEventStore } from '../src/core/events/in-memory-event-store.js';
import { createCorrexServer } from '../src/interfaces/server/correx-server.js';
import { WIRE_SUBPROTOCOL } from '../src/interfaces/server/request-guard.js';
import type { SessionHost } from '../src/interfaces/session-host.js';
import { row, type BenchRow } from './bench-table.js';

const TOKEN = 'bench-token-bench-token-bench-token-0000';
const SESSION = 'fanout';
const BATCH = 10;

/** The server never starts a session here: events are appended to the store directly. */
const idleHost: SessionHost = {
  start: () => Promise.reject(new Error('not in the bench')),
  command: () => Promise.reject(new Error('not in the bench')),
  resume: () => Promise.reject(new Error('not in the bench')),
  continue: () => Promise.reject(new Error('not in the bench')),
  options: () => Promise.reject(new Error('not in the bench')),
  running: () => [],
  replayVerify: () => Promise.reject(new Error('not in the bench')),
  shutdown: () => Promise.resolve(),
};

function note(index: number): NewEvent<EventPayload> {
  return {
    eventId: `fanout-${index}`,
    sessionId: SESSION,
    timestamp: new Date(Date.UTC(2026, 0, 1) + index).toISOString(),
    payload: { type: 'steering_note_added', sessionId: SESSION, content: `note ${index}` },
  };
}

type Measurement = { eventsPerSecond: number; deliveriesPerSecond: number; p99Ms: number };

/**
 * Appends `events` events to one session as fast as the store takes them while `subscribers`
 * WebSocket clients follow it live: deliveries per second (events × subscribers, from the
 * first append to the last delivery). Then appends events one at a time, each once every
 * subscriber has the previous one: the p99 of append-to-delivery latency over those deliveries.
 */
async function measureFanout(subscribers: number, events: number): Promise<Measurement> {
  const store = createInMemoryEventStore({ catalog: correxEventCatalog });
  await store.append(note(0));
  const server = createCorrexServer({
    store,
    host: idleHost,
    token: TOKEN,
    allowedRoots: [tmpdir()],
  });
  const { port } = await server.listen();
  const probes = Math.min(200, events);
  const appendedAt = new Float64Array(events + probes + 2);
  const latencies: number[] = [];
  let onProbe: { sequence: number; left: number; resolve: () => void } | undefined;
  let remaining = subscribers;
  let lastDelivery = 0;
  let allDelivered!: () => void;
  const delivered = new Promise<void>((resolve) => (allDelivered = resolve));
  const clients = await Promise.all(
    Array.from({ length: subscribers }, async () => {
      const socket = new WebSocket(`ws://127.0.0.1:${port}/api/ws`, [WIRE_SUBPROTOCOL], {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
      const caughtUp = new Promise<void>((resolve) => {
        socket.on('message', (data: Buffer) => {
          const message = JSON.parse(data.toString('utf8')) as {
            type: string;
            event?: { sequence: number };
          };
          if (message.type === 'caught_up') resolve();
          if (message.type !== 'event' || message.event!.sequence === 1) return;
          const now = performance.now();
          const sequence = message.event!.sequence;
          if (sequence > events + 1) {
            latencies.push(now - appendedAt[sequence]!);
            if (onProbe?.sequence === sequence && --onProbe.left === 0) onProbe.resolve();
            return;
          }
          if (sequence === events + 1) {
            lastDelivery = now;
            if (--remaining === 0) allDelivered();
          }
        });
      });
      socket.send(JSON.stringify({ type: 'subscribe', sessionId: SESSION }));
      await caughtUp;
      return socket;
    }),
  );
  const start = performance.now();
  for (let first = 1; first <= events; first += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, events - first + 1) }, (_u, i) =>
      note(first + i),
    );
    const at = performance.now();
    for (let i = 0; i < batch.length; i++) appendedAt[first + 1 + i] = at;
    await store.appendAll(batch);
  }
  await delivered;
  const seconds = (lastDelivery - start) / 1000;
  // Latency without a backlog: one event at a time, the next once every subscriber has it.
  latencies.length = 0;
  for (let index = 0; index < probes; index++) {
    const sequence = events + 2 + index;
    const received = new Promise<void>(
      (resolve) => (onProbe = { sequence, left: subscribers, resolve }),
    );
    appendedAt[sequence] = performance.now();
    await store.append(note(sequence - 1));
    await received;
  }
  for (const socket of clients) socket.close();
  await server.close();
  await store.close();
  latencies.sort((a, b) => a - b);
  return {
    eventsPerSecond: events / seconds,
    deliveriesPerSecond: (events * subscribers) / seconds,
    p99Ms: latencies[Math.floor(latencies.length * 0.99)] ?? 0,
  };
}

export async function runServerFanoutBench(options: { quick?: boolean } = {}): Promise<BenchRow[]> {
  const events = options.quick ? 300 : 3_000;
  const one = await measureFanout(1, events);
  const hundred = await measureFanout(100, events);
  const baseline = row('events to 1 subscriber', one.deliveriesPerSecond, 'events/s');
  const latencyBaseline = row('p99 delivery latency, 1 subscriber', one.p99Ms * 1000, 'µs');
  return [
    baseline,
    row('events fanned out to 100 subscribers', hundred.eventsPerSecond, 'events/s', baseline),
    row('deliveries to 100 subscribers', hundred.deliveriesPerSecond, 'msgs/s', baseline),
    latencyBaseline,
    // A latency: here a ratio above 1 means slower than with one subscriber.
    row('p99 delivery latency, 100 subscribers', hundred.p99Ms * 1000, 'µs', latencyBaseline),
  ];
}

import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { correxEventCatalog } from '../../src/core/event-catalog.js';
import { openPostgresEventStore } from '../../src/infrastructure/postgres/postgres-event-store.js';
import type { HammerAttempt } from './hammer-writer.js';
import { probeTestServer, schemaTracker, TEST_POSTGRES_URL } from './postgres-test-server.js';

const server = await probeTestServer();
const script = fileURLToPath(new URL('./hammer-writer.ts', import.meta.url));
const PER_WRITER = 150;

type Writer = { child: ChildProcess; ready: Promise<void>; output: Promise<string> };

function startWriter(schema: string, writer: string): Writer {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', script, TEST_POSTGRES_URL, schema, 'hammered', writer, String(PER_WRITER)],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  let signalReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (signalReady = resolve));
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (stdout.startsWith('ready\n')) signalReady();
  });
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const output = once(child, 'exit').then(([code]) => {
    if (code !== 0) throw new Error(`writer ${writer} exited with ${String(code)}: ${stderr}`);
    return stdout;
  });
  return { child, ready: Promise.race([ready, output.then(() => undefined)]), output };
}

describe.skipIf(!server.available)('PostgresEventStore with two OS processes', () => {
  const schemas = schemaTracker();

  it('two processes hammering one session: no gaps, no duplicates, a conflict exactly when the slot was taken', async () => {
    // A fresh schema: both processes also migrate it at the same moment.
    const schema = schemas.next();
    const writers = [startWriter(schema, 'A'), startWriter(schema, 'B')];
    await Promise.all(writers.map((writer) => writer.ready));
    for (const { child } of writers) child.stdin!.write('go\n');
    const outputs = await Promise.all(writers.map(({ output }) => output));
    const attempts = outputs.map(
      (text) => JSON.parse(text.trim().split('\n').at(-1)!) as HammerAttempt[],
    );

    const store = await openPostgresEventStore({
      connectionString: TEST_POSTGRES_URL,
      schema,
      catalog: correxEventCatalog,
    });
    try {
      const events = await store.read('hammered');
      expect(events.map((event) => event.sequence)).toEqual(events.map((_, index) => index + 1));
      expect(new Set(events.map((event) => event.eventId)).size).toBe(events.length);
      expect(events).toHaveLength(2 * PER_WRITER);
      expect(await store.verify('hammered')).toMatchObject({
        ok: true,
        lastSequence: 2 * PER_WRITER,
      });

      // Every attempt stored its event in the slot after the sequence it expected, or found
      // that slot already taken by the other process: no lost write, no spurious conflict.
      const all = attempts.flat();
      for (const attempt of all) {
        const slot = events[attempt.expected]!;
        if (attempt.outcome === 'stored') {
          expect(slot.eventId).toBe(attempt.eventId);
          expect(attempt.sequence).toBe(attempt.expected + 1);
        } else {
          expect(slot.eventId).not.toBe(attempt.eventId);
          expect(attempt.sequence).toBeGreaterThan(attempt.expected);
        }
      }
      const conflicts = all.filter((attempt) => attempt.outcome === 'conflict').length;
      const taken = all.filter((attempt) => events[attempt.expected]!.eventId !== attempt.eventId);
      expect(conflicts).toBe(taken.length);
      expect(all.length - conflicts).toBe(events.length);
      // The processes really did interleave.
      expect(conflicts).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
  });
});

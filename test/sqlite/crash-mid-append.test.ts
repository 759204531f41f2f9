import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { correxEventCatalog } from '../../src/core/event-catalog.js';
import { openSqliteEventStore } from '../../src/infrastructure/sqlite/sqlite-event-store.js';
import { tempDir } from '../support/temp-dir.js';

const root = join(import.meta.dirname, '..', '..');
const child = join(import.meta.dirname, 'append-forever.ts');

/** Runs the appending child until it has acknowledged `acks` batches, SIGKILLs it, and returns the last acknowledged sequence. */
function runAndKill(path: string, sessionId: string, acks: number): Promise<number> {
  return new Promise((resolve, reject) => {
    // One process (node with tsx's loader), not the tsx launcher: the kill must hit the writer itself.
    const process_ = spawn(process.execPath, ['--import', 'tsx', child, path, sessionId], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let acknowledged = 0;
    let seen = 0;
    let stderr = '';
    process_.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    process_.stdout.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) {
        const match = /^acked (\d+)$/.exec(line);
        if (!match) continue;
        acknowledged = Number(match[1]);
        seen += 1;
        // Kill while the next append is very likely in flight: no waiting for a quiet moment.
        if (seen === acks) process_.kill('SIGKILL');
      }
    });
    // 'close' waits for the pipes to drain, so every ack the child wrote before dying is counted.
    process_.on('close', (_code, signal) =>
      signal === 'SIGKILL'
        ? resolve(acknowledged)
        : reject(new Error(`child exited on its own: ${stderr}`)),
    );
  });
}

describe('SQLite store: a process killed mid-append', () => {
  it('loses no acknowledged event and leaves no partial batch, kill after kill', async () => {
    const path = join(tempDir(), 'crash.db');
    for (let round = 1; round <= 5; round++) {
      const acknowledged = await runAndKill(path, 'crashy', 3 + round);
      const store = openSqliteEventStore(path, { catalog: correxEventCatalog });
      const last = await store.lastSequence('crashy');
      // Everything acknowledged is there; at most the batch in flight was committed after its ack was lost.
      expect(last).toBeGreaterThanOrEqual(acknowledged);
      expect(last - acknowledged).toBeLessThanOrEqual(10);
      // Batches are atomic: the log ends on a batch boundary, the chain holds, sequences are gapless.
      expect(last % 10).toBe(0);
      expect(await store.verify('crashy')).toMatchObject({ ok: true, lastSequence: last });
      const events = await store.read('crashy');
      expect(events.map((event) => event.sequence)).toEqual(events.map((_, index) => index + 1));
      await store.close();
    }
  }, 120_000);
});

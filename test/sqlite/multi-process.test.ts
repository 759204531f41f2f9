import { spawn } from 'node:child_process';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { correxEventCatalog } from '../../src/core/event-catalog.js';
import { openSqliteEventStore } from '../../src/infrastructure/sqlite/sqlite-event-store.js';
import { SqliteBusyError } from '../../src/infrastructure/sqlite/sqlite-errors.js';
import { StaleDriverError } from '../../src/core/events/stale-driver-error.js';
import { expectRejection } from '../support/expect-rejection.js';
import { noteEvent } from '../support/sample-events.js';
import { tempDir } from '../support/temp-dir.js';

const root = join(import.meta.dirname, '..', '..');
const writer = join(import.meta.dirname, 'contending-writer.ts');

function runWriter(path: string, name: string, count: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', writer, path, name, String(count)], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', () => resolve(out.trim()));
  });
}

describe('SQLite store: several processes on one file', () => {
  it('a driver fenced out by another process taking the session is refused, and the log keeps only valid appends', async () => {
    const path = join(tempDir('correx-sqlite-'), 'fenced.db');
    const store = openSqliteEventStore(path, { catalog: correxEventCatalog });
    try {
      const mine = await store.takeDriverEpoch('s');
      await store.append(noteEvent('s', 1), { driverEpoch: mine, expectedSequence: 0 });
      const taker = await new Promise<string>((resolve, reject) => {
        const child = spawn(
          process.execPath,
          ['--import', 'tsx', join(import.meta.dirname, 'fencing-driver.ts'), path, 's'],
          { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
        );
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        child.on('error', reject);
        child.on('close', () => resolve(out.trim()));
      });
      expect(taker).toBe(`took ${mine + 1}`);
      const before = await store.read('s');
      const error = await expectRejection(
        store.append(noteEvent('s', 3), { driverEpoch: mine }),
        StaleDriverError,
      );
      expect(error.code).toBe('driver_fenced');
      expect(await store.read('s')).toEqual(before);
      expect(before.map((event) => event.eventId)).toEqual(['s-e000001', 's-taker']);
      // A person's command is no driver append: it lands.
      expect((await store.append(noteEvent('s', 3))).sequence).toBe(3);
    } finally {
      await store.close();
    }
  });

  it('four processes open and append at once: every append lands, no raw SQLITE_BUSY', async () => {
    const path = join(tempDir('correx-sqlite-'), 'shared.db');
    await openSqliteEventStore(path, { catalog: correxEventCatalog }).close();
    const writers = ['a', 'b', 'c', 'd'];
    const outputs = await Promise.all(writers.map((name) => runWriter(path, name, 40)));
    for (const output of outputs) expect(output).toMatch(/^done /);
    const store = openSqliteEventStore(path, { catalog: correxEventCatalog });
    try {
      for (const name of writers) {
        expect(await store.verify(`own-${name}`)).toMatchObject({ ok: true, lastSequence: 200 });
      }
      expect(await store.verify('shared')).toMatchObject({ ok: true, lastSequence: 160 });
      const shared = await store.read('shared');
      expect(new Set(shared.map((event) => event.eventId)).size).toBe(160);
    } finally {
      await store.close();
    }
  }, 120_000);

  it('opens a current store while another connection holds the write lock', async () => {
    const path = join(tempDir('correx-sqlite-'), 'locked.db');
    await openSqliteEventStore(path, { catalog: correxEventCatalog }).close();
    const holder = new Database(path);
    holder.exec('BEGIN IMMEDIATE');
    try {
      // Opening reads the schema version; it takes no write lock, so it does not wait.
      const store = openSqliteEventStore(path, { catalog: correxEventCatalog, busyTimeoutMs: 0 });
      expect(await store.lastSequence('s')).toBe(0);
      await store.close();
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
  });

  it('retries a locked append within a bound, then fails with a named retryable error', async () => {
    const path = join(tempDir('correx-sqlite-'), 'busy.db');
    const store = openSqliteEventStore(path, { catalog: correxEventCatalog, busyTimeoutMs: 5 });
    const holder = new Database(path);
    try {
      holder.exec('BEGIN IMMEDIATE');
      const error = await expectRejection(store.append(noteEvent('s', 1)), SqliteBusyError);
      expect(error).toMatchObject({ code: 'sqlite_busy', retryable: true });
      expect(error.message).toMatch(/nothing was written, try again$/);
      expect(await store.lastSequence('s')).toBe(0);
      // A lock released while the append retries: the append lands.
      const pending = store.append(noteEvent('s', 1));
      setTimeout(() => holder.exec('ROLLBACK'), 30);
      expect((await pending).sequence).toBe(1);
    } finally {
      if (holder.inTransaction) holder.exec('ROLLBACK');
      holder.close();
      await store.close();
    }
  });
});

import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { correxEventCatalog } from '../../src/core/event-catalog.js';
import { openSqliteEventStore } from '../../src/infrastructure/sqlite/sqlite-event-store.js';
import { SqliteStorageError } from '../../src/infrastructure/sqlite/sqlite-errors.js';
import { expectRejection } from '../support/expect-rejection.js';
import { noteEvent } from '../support/sample-events.js';
import { tempDir } from '../support/temp-dir.js';

/** A real full disk: a 1 MiB tmpfs, where the machine lets this process mount one (root). */
function mountTinyDisk(): string | undefined {
  const mountPoint = join(tempDir('correx-disk-full-'), 'disk');
  mkdirSync(mountPoint);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mountPoint], {
      stdio: 'ignore',
    });
  } catch {
    return undefined;
  }
  afterAll(() => execFileSync('umount', [mountPoint], { stdio: 'ignore' }));
  return mountPoint;
}

const disk = mountTinyDisk();

describe('SQLite store: the disk is full', () => {
  it.skipIf(disk === undefined)(
    'fails an append with a named one-sentence error, loses nothing, and appends again once there is space',
    async () => {
      const path = join(disk!, 'full.db');
      const store = openSqliteEventStore(path, { catalog: correxEventCatalog });
      try {
        const big = 'x'.repeat(20_000);
        let last = 0;
        let failure: unknown;
        for (let index = 1; index <= 400 && failure === undefined; index++) {
          try {
            const event = noteEvent('s', index, {
              payload: { type: 'steering_note_added', sessionId: 's', content: big },
            });
            last = (await store.append(event)).sequence;
          } catch (error) {
            failure = error;
          }
        }
        expect(failure).toBeInstanceOf(SqliteStorageError);
        const error = failure as SqliteStorageError;
        expect(error.code).toBe('sqlite_storage_failed');
        expect(error.message).toMatch(/could not write \(the disk is full, SQLITE_FULL\)/);
        expect(error.message.split('. ')).toHaveLength(1);
        expect(await store.verify('s')).toMatchObject({ ok: true, lastSequence: last });
        await expectRejection(
          store.append(
            noteEvent('s', last + 1, {
              payload: { type: 'steering_note_added', sessionId: 's', content: big },
            }),
          ),
          SqliteStorageError,
        );
        // Space freed: the same store goes on where it was.
        execFileSync('mount', ['-o', 'remount,size=16m', disk!], { stdio: 'ignore' });
        const next = await store.append(
          noteEvent('s', last + 1, {
            payload: { type: 'steering_note_added', sessionId: 's', content: big },
          }),
        );
        expect(next.sequence).toBe(last + 1);
        expect(await store.verify('s')).toMatchObject({ ok: true, lastSequence: last + 1 });
      } finally {
        await store.close();
      }
    },
  );
});

import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { correxEventCatalog } from '../../src/core/event-catalog.js';
import { openSqliteEventStore } from '../../src/infrastructure/sqlite/sqlite-event-store.js';
import { SqliteStorageError } from '../../src/infrastructure/sqlite/sqlite-errors.js';
import { expectRejection } from '../support/expect-rejection.js';
import { noteEvent } from '../support/sample-events.js';
import { tempDir } from '../support/temp-dir.js';
import { replaySession, runSession } from '../../src/core/kernel/index.js';
import {
  implementOnlyWorkflow,
  livePorts,
  newClock,
  newIds,
  scenarioConfig,
  scenarioWorkspace,
  scriptedModel,
} from '../kernel/kernel-harness.js';

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
const sessionDisk = mountTinyDisk();

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

  it.skipIf(sessionDisk === undefined)(
    'stops a session with that error, and the session resumes to its end once there is space',
    async () => {
      const { workspace } = scenarioWorkspace({});
      const path = join(sessionDisk!, 'session.db');
      const big = (n: number) => `${n}`.repeat(150_000);
      const turns = [1, 2, 3, 4, 5].map((n) => ({
        toolCalls: [{ name: 'write_file', args: { path: `f${n}.txt`, content: big(n) } }],
      }));
      const done = { text: JSON.stringify({ summary: 'wrote five files', filesChanged: [] }) };
      const config = scenarioConfig({ workflow: implementOnlyWorkflow() });
      const drive = async (round: number) => {
        const store = openSqliteEventStore(path, { catalog: correxEventCatalog });
        const answered = (await store.read('s-full')).filter(
          (event) => event.payload.type === 'inference_completed',
        ).length;
        try {
          return await runSession(
            {
              store,
              sessionId: 's-full',
              config,
              ports: livePorts(scriptedModel([...turns, done].slice(answered))),
              clock: newClock(),
              ids: newIds(`r${round}`),
            },
            round === 0
              ? {
                  type: 'start',
                  task: 'write five files',
                  workspace,
                  workflowId: 'implement-only',
                  mode: 'auto',
                }
              : undefined,
          );
        } finally {
          await store.close();
        }
      };
      const failure = await drive(0).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(SqliteStorageError);
      execFileSync('mount', ['-o', 'remount,size=64m', sessionDisk!], { stdio: 'ignore' });
      const resumed = await drive(1);
      expect(resumed.status).toBe('completed');
      for (const n of [1, 2, 3, 4, 5])
        expect(readFileSync(join(workspace, `f${n}.txt`), 'utf8')).toBe(big(n));
      const store = openSqliteEventStore(path, { catalog: correxEventCatalog });
      try {
        expect((await store.verify('s-full')).ok).toBe(true);
        const report = await replaySession(store, 's-full', config);
        expect(report.ok).toBe(true);
      } finally {
        await store.close();
      }
    },
    60_000,
  );
});

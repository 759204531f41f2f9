import Database from 'better-sqlite3';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp-dir.js';
import { openSqliteDatabase, SQLITE_SCHEMA_VERSION, SqliteOpenError } from './sqlite-database.js';

/**
 * Opening a store is safe from many processes at once: it waits out another process's lock
 * rather than failing, including on the lock paths where SQLite's busy handler is not asked
 * (a connection in a read transaction asking for the write lock is refused at once).
 */
const dir = tempDir('correx-sqlite-open-');
const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/**
 * Another process that takes the file's write lock and says so. It lets go after
 * `releaseAfterMs` on its own clock (this process may be blocked inside an open meanwhile), or
 * when `release` is called.
 */
async function lockHolder(
  path: string,
  releaseAfterMs?: number,
): Promise<{ release: () => Promise<void> }> {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `const db = new (require('better-sqlite3'))(${JSON.stringify(path)});
       db.exec('BEGIN IMMEDIATE');
       const release = () => { db.exec('COMMIT'); db.close(); process.exit(0); };
       process.stdin.once('data', release);
       ${releaseAfterMs === undefined ? '' : `setTimeout(release, ${releaseAfterMs});`}
       console.log('held');`,
    ],
    { cwd: repositoryRoot, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  children.push(child);
  await once(child.stdout!, 'data');
  return {
    release: async () => {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.stdin!.write('go\n');
      await exited;
    },
  };
}

function expectCurrentWalStore(path: string): void {
  const db = new Database(path, { readonly: true });
  expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
  expect(db.pragma('user_version', { simple: true })).toBe(SQLITE_SCHEMA_VERSION);
  db.close();
}

describe('opening a SQLite store another process has locked', () => {
  it('waits for the lock on a new file, where SQLite itself refuses at once, then opens it', async () => {
    const path = join(dir, 'new-and-locked.db');
    await lockHolder(path, 300);
    // Before retrying, this failed at once with "database is locked", with 5 s of busy timeout.
    openSqliteDatabase(path).close();
    expectCurrentWalStore(path);
  });

  it('fails with a named error once the busy timeout has passed, and opens cleanly after', async () => {
    const path = join(dir, 'held-too-long.db');
    const holder = await lockHolder(path);
    let failure: unknown;
    try {
      openSqliteDatabase(path, { busyTimeoutMs: 100 }).close();
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(SqliteOpenError);
    expect((failure as Error).message).toMatch(/cannot open SQLite store .* locked/);
    await holder.release();
    openSqliteDatabase(path).close();
    expectCurrentWalStore(path);
  });

  it('lets several processes create one new store at the same moment, each opening all three stores', async () => {
    const path = join(dir, 'created-at-once.db');
    const startAt = Date.now() + 1500;
    // Each process spins to the same instant so that their opens overlap on the new file.
    const script = `
      const at = ${startAt};
      const { openStores } = await import(${JSON.stringify(join(repositoryRoot, 'src/infrastructure/open-store.ts'))});
      const { openSqliteArtifactStore } = await import(${JSON.stringify(join(repositoryRoot, 'src/infrastructure/sqlite/sqlite-artifact-store.ts'))});
      while (Date.now() < at) {}
      try {
        const stores = await openStores(${JSON.stringify(path)});
        await openSqliteArtifactStore(${JSON.stringify(path)}).close();
        await stores.close();
        console.log('opened');
      } catch (error) {
        console.log(String(error));
      }`;
    const runs = Array.from({ length: 4 }, async () => {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '-e', script],
        { cwd: repositoryRoot, stdio: ['ignore', 'pipe', 'inherit'] },
      );
      children.push(child);
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
      await once(child, 'exit');
      return out.trim();
    });
    expect(await Promise.all(runs)).toEqual(['opened', 'opened', 'opened', 'opened']);
    expectCurrentWalStore(path);
  });
});

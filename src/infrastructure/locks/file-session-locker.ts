import Database from 'better-sqlite3';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { SessionBusyError, type SessionLock, type SessionLocker } from './session-locker.js';

/**
 * Who holds a session, as its holder writes it beside the OS lock. `lock: 'os'` marks a record
 * written under the OS lock; a record without it was written by a correx before the OS lock
 * (a lock file created exclusively), whose live holder is still respected.
 */
type Holder = { readonly pid: number; readonly host: string; readonly lock?: 'os' };

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readHolder(path: string): Holder | undefined {
  try {
    const holder = JSON.parse(readFileSync(path, 'utf8')) as Partial<Holder>;
    return typeof holder.pid === 'number' && typeof holder.host === 'string'
      ? (holder as Holder)
      : undefined;
  } catch {
    return undefined;
  }
}

const describeHolder = (holder: Holder | undefined) =>
  holder === undefined ? 'another process' : `process ${holder.pid} on ${holder.host}`;

/**
 * Takes the driver lock of a session: an exclusive SQLite transaction on `<dir>/<session>.lockdb`,
 * which is an OS (fcntl) lock held for as long as this process drives the session. Taking it is
 * atomic, so of any number of processes racing (from no lock, a dead holder's, an empty file)
 * exactly one wins; a holder that dies, `kill -9` included, releases it with its process, so
 * nothing is ever judged stale by reading a file. `<dir>/<session>.lock` names the holder for
 * the busy message (written whole, by rename). Guards processes sharing one CORREX_HOME (the
 * embedded store's case), not machines sharing a PostgreSQL store.
 */
function acquireSessionLock(directory: string, sessionId: string): SessionLock {
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  const name = encodeURIComponent(sessionId);
  const recordPath = join(directory, `${name}.lock`);
  const database = new Database(join(directory, `${name}.lockdb`), { timeout: 0 });
  try {
    database.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    database.close();
    if ((error as { code?: unknown }).code === 'SQLITE_BUSY')
      throw new SessionBusyError(sessionId, describeHolder(readHolder(recordPath)));
    throw error;
  }
  const me: Holder = { pid: process.pid, host: hostname(), lock: 'os' };
  const previous = readHolder(recordPath);
  if (
    previous !== undefined &&
    previous.lock === undefined &&
    previous.host === me.host &&
    previous.pid !== me.pid &&
    alive(previous.pid)
  ) {
    // An older correx drives it by its lock file alone.
    database.close();
    throw new SessionBusyError(sessionId, describeHolder(previous));
  }
  const temporary = `${recordPath}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(me), { mode: 0o600 });
  renameSync(temporary, recordPath);
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      // The record goes first: whoever takes the lock next writes its own.
      rmSync(recordPath, { force: true });
      database.close();
    },
  };
}

/** Driver locks as files in `directory` (`$CORREX_HOME/locks`), for processes on one machine. */
export function createFileSessionLocker(directory: string): SessionLocker {
  const held = new Set<SessionLock>();
  return {
    acquire: async (sessionId) => {
      const lock = acquireSessionLock(directory, sessionId);
      const tracked: SessionLock = {
        release: async () => {
          held.delete(tracked);
          await lock.release();
        },
      };
      held.add(tracked);
      return tracked;
    },
    // A closing driver hands back what it still holds, as its exit would.
    close: async () => {
      for (const lock of [...held]) await lock.release();
    },
  };
}

import { mkdirSync, openSync, readFileSync, rmSync, writeSync, closeSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { SessionBusyError, type SessionLock, type SessionLocker } from './session-locker.js';

/** `token` tells this acquisition from any later one, even by the same process. */
type Holder = { readonly pid: number; readonly host: string; readonly token?: string };

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
    return JSON.parse(readFileSync(path, 'utf8')) as Holder;
  } catch {
    return undefined;
  }
}

/**
 * Takes the driver lock of a session: a file `<dir>/<session>.lock` created exclusively, naming
 * this process. A lock whose process is gone (a crash, `kill -9`) is taken over; a live holder
 * on this machine makes it a `SessionBusyError`. Guards processes sharing one CORREX_HOME (the
 * embedded store's case), not machines sharing a PostgreSQL store.
 */
function acquireSessionLock(directory: string, sessionId: string): SessionLock {
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  const path = join(directory, `${encodeURIComponent(sessionId)}.lock`);
  const me: Holder = { pid: process.pid, host: hostname(), token: randomUUID() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, JSON.stringify(me));
      closeSync(fd);
      return {
        async release() {
          const holder = readHolder(path);
          if (holder?.token === me.token) rmSync(path, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readHolder(path);
      const stale = holder === undefined || (holder.host === me.host && !alive(holder.pid));
      if (!stale) throw new SessionBusyError(sessionId, `process ${holder.pid} on ${holder.host}`);
      rmSync(path, { force: true });
    }
  }
  throw new SessionBusyError(sessionId, 'another process that took its lock just now');
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

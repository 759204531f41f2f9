import Database from 'better-sqlite3';
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { EventStore } from '../../core/events/event-store.js';
import { processStartTime } from '../system/process-start-time.js';
import { SessionBusyError, type SessionLock, type SessionLocker } from './session-locker.js';

/**
 * Who holds a session, as its holder writes it beside the OS lock. `lock: 'os'` marks a record
 * written under the OS lock; a record without it was written by a correx before the OS lock
 * (a lock file created exclusively), whose live holder is still respected.
 */
type Holder = {
  readonly pid: number;
  readonly host: string;
  readonly lock?: 'os';
  /** When the holder process started (ms since the epoch), so a reused pid is told apart. */
  readonly started?: number;
};

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Slack for start times read to about a second (Linux's boot time is whole seconds). */
const START_SLACK_MS = 1500;

/**
 * Whether the holder written at `path` is still the live process that wrote it: its pid is
 * alive, and that process started when the holder says (or, for a record without a start time,
 * before the record was written). A pid reused by an unrelated process is not the holder.
 */
export function holderAlive(holder: Holder, path: string): boolean {
  if (!alive(holder.pid)) return false;
  const started = processStartTime(holder.pid);
  if (started === undefined) return true;
  if (holder.started !== undefined) return Math.abs(started - holder.started) <= START_SLACK_MS;
  try {
    return started <= statSync(path).mtimeMs + START_SLACK_MS;
  } catch {
    return true;
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
function acquireSessionLock(directory: string, sessionId: string): SessionLock & { close(): void } {
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
  const started = processStartTime(process.pid);
  const me: Holder = {
    pid: process.pid,
    host: hostname(),
    lock: 'os',
    ...(started === undefined ? {} : { started }),
  };
  const previous = readHolder(recordPath);
  if (
    previous !== undefined &&
    previous.lock === undefined &&
    previous.host === me.host &&
    previous.pid !== me.pid &&
    holderAlive(previous, recordPath)
  ) {
    // An older correx drives it by its lock file alone.
    database.close();
    throw new SessionBusyError(sessionId, describeHolder(previous));
  }
  const temporary = `${recordPath}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(me), { mode: 0o600 });
  renameSync(temporary, recordPath);
  let released = false;
  const close = () => {
    if (released) return;
    released = true;
    // The record goes first: whoever takes the lock next writes its own.
    rmSync(recordPath, { force: true });
    database.close();
  };
  return { close, release: async () => close() };
}

/**
 * Driver locks as files in `directory` (`$CORREX_HOME/locks`), for processes on one machine.
 * With `epochs` (the store the sessions are recorded in), each take also moves the session's
 * driver epoch on, so an append of any earlier holder is refused by the store itself.
 */
export function createFileSessionLocker(
  directory: string,
  epochs?: Pick<EventStore, 'takeDriverEpoch'>,
): SessionLocker {
  const held = new Set<SessionLock>();
  return {
    acquire: async (sessionId) => {
      const lock = acquireSessionLock(directory, sessionId);
      let epoch: number | undefined;
      try {
        epoch = await epochs?.takeDriverEpoch(sessionId);
      } catch (error) {
        lock.close();
        throw error;
      }
      const tracked: SessionLock = {
        ...(epoch === undefined ? {} : { epoch }),
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

import { CorrexError } from '../../core/base/correx-error.js';
import { sleepSync } from '../system/sleep-sync.js';

/**
 * Another process held the SQLite file's write lock past the busy timeout and every bounded
 * retry. Nothing was written; the same append can be tried again.
 */
export class SqliteBusyError extends CorrexError {
  readonly retryable = true;
  constructor(path: string, attempts: number) {
    super(
      'sqlite_busy',
      `the SQLite store ${path} stayed locked by another process through ${attempts} attempts; nothing was written, try again`,
    );
  }
}

/**
 * The disk refused a write (full, an I/O error such as a failed fsync, or read-only). The
 * transaction was rolled back, so the log is as it was: free space or fix the disk and resume.
 */
export class SqliteStorageError extends CorrexError {
  constructor(path: string, problem: string, code: string) {
    super(
      'sqlite_storage_failed',
      `the SQLite store ${path} could not write (${problem}, ${code}); nothing was written: free space or fix the disk, then resume`,
    );
  }
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_') ? code : undefined;
}

/** Whether SQLite said another connection holds the lock (the error to retry on). */
export function isSqliteBusy(error: unknown): boolean {
  const code = codeOf(error);
  return code !== undefined && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

/** A storage failure as `SqliteStorageError`, or undefined when `error` is not one. */
export function storageErrorOf(path: string, error: unknown): SqliteStorageError | undefined {
  const code = codeOf(error);
  if (code === undefined) return undefined;
  if (code === 'SQLITE_FULL') return new SqliteStorageError(path, 'the disk is full', code);
  if (code.startsWith('SQLITE_IOERR'))
    return new SqliteStorageError(path, 'the disk reported an I/O error', code);
  if (code.startsWith('SQLITE_READONLY'))
    return new SqliteStorageError(path, 'the file is read-only', code);
  return undefined;
}

/** Tries of one write while SQLite reports the file locked, each after its own busy timeout. */
const BUSY_ATTEMPTS = 5;

/** Spaced out and jittered, so writers that collided do not collide again in step. */
function busyBackoffMs(attempt: number): number {
  return Math.min(1000, 25 * 2 ** attempt) * (0.5 + Math.random() / 2);
}

/**
 * Runs one write transaction of the store at `path`. SQLite already waited its busy timeout for
 * the lock; a few more tries, spaced out, ride out a writer that holds it longer, then it is
 * `SqliteBusyError`. A rolled-back transaction makes a retry clean. A full disk or an I/O error
 * is `SqliteStorageError`; anything else (a conflict, a constraint) is rethrown as it is.
 * `stillOpen` is called before each retry (the store may have been closed meanwhile).
 */
export async function writeWithRetry<T>(
  path: string,
  write: () => T,
  stillOpen: () => void = () => {},
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return write();
    } catch (error) {
      if (!isSqliteBusy(error)) throw storageErrorOf(path, error) ?? error;
      if (attempt >= BUSY_ATTEMPTS) throw new SqliteBusyError(path, attempt);
    }
    // A held timer: a write in flight keeps the process alive until it lands or fails.
    await new Promise((resolve) => setTimeout(resolve, busyBackoffMs(attempt)));
    stillOpen();
  }
}

/**
 * Runs `step` of opening the store, again while SQLite reports the file locked, until
 * `timeoutMs` has passed. SQLite's busy handler does not cover every lock it takes: a connection
 * inside a read transaction that asks for the write lock is refused at once, to avoid deadlock.
 * Switching a new file to WAL takes that path, so two processes creating one store at the same
 * moment refused one of them outright. Each step is one statement or one transaction, which
 * leaves nothing behind when refused, so trying it again is clean.
 */
export function retryWhileBusy<T>(timeoutMs: number, step: () => T): T {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return step();
    } catch (error) {
      const wait = busyBackoffMs(attempt);
      if (!isSqliteBusy(error) || Date.now() + wait > deadline) throw error;
      // Opening is synchronous (a store is usable once constructed), so the wait blocks.
      sleepSync(wait);
    }
  }
}

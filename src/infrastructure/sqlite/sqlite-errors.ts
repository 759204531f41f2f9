import { CorrexError } from '../../core/base/correx-error.js';

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

import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { holderAlive } from '../infrastructure/locks/file-session-locker.js';

/**
 * Who drives a session now, as its driver lock file (`$CORREX_HOME/locks`, see
 * file-session-locker) tells: the live process holding it, or null when no live process does
 * (never driven here, finished, or its driver was killed). Only reads: it never takes or breaks
 * a lock. A holder on another machine is reported as it is written (its liveness is unknown).
 */
export function fileSessionDriver(
  locksDirectory: string,
  sessionId: string,
): { readonly pid: number; readonly host: string } | null {
  const path = join(locksDirectory, `${encodeURIComponent(sessionId)}.lock`);
  let holder: { pid?: unknown; host?: unknown; started?: unknown };
  try {
    holder = JSON.parse(readFileSync(path, 'utf8')) as typeof holder;
  } catch {
    return null;
  }
  if (typeof holder.pid !== 'number' || typeof holder.host !== 'string') return null;
  const driver = { pid: holder.pid, host: holder.host };
  if (driver.host !== hostname()) return driver;
  // A pid reused by an unrelated process since the holder died is no driver.
  const started = typeof holder.started === 'number' ? { started: holder.started } : {};
  return holderAlive({ ...driver, ...started }, path) ? driver : null;
}

/** The live holder of a session's lock file in words (`pid 4242 on box`), or null. */
export function fileLockHolder(locksDirectory: string, sessionId: string): string | null {
  const driver = fileSessionDriver(locksDirectory, sessionId);
  return driver === null ? null : `pid ${driver.pid} on ${driver.host}`;
}

import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

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
  let holder: { pid?: unknown; host?: unknown };
  try {
    holder = JSON.parse(
      readFileSync(join(locksDirectory, `${encodeURIComponent(sessionId)}.lock`), 'utf8'),
    ) as { pid?: unknown; host?: unknown };
  } catch {
    return null;
  }
  if (typeof holder.pid !== 'number' || typeof holder.host !== 'string') return null;
  const driver = { pid: holder.pid, host: holder.host };
  if (driver.host !== hostname()) return driver;
  try {
    process.kill(driver.pid, 0);
    return driver;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? driver : null;
  }
}

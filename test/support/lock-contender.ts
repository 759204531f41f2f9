/**
 * One process racing for a session's driver lock, for the lock tests. Args: <lock dir>
 * <session>. It says `ready` over IPC once loaded, tries to take the lock on `go`, reports
 * `held` or `busy`, and keeps what it got until told to `release` (it answers `released`) or
 * `exit`, or until it is killed.
 */
import { createFileSessionLocker } from '../../src/infrastructure/locks/file-session-locker.js';
import type { SessionLock } from '../../src/infrastructure/locks/session-locker.js';

const [directory, sessionId] = process.argv.slice(2) as [string, string];
const locker = createFileSessionLocker(directory);
let held: SessionLock | undefined;

process.on('message', (message: string) => {
  if (message === 'go') {
    locker.acquire(sessionId).then(
      (lock) => {
        held = lock;
        process.send?.('held');
      },
      (error: unknown) =>
        process.send?.(
          (error as { code?: string }).code === 'session_busy' ? 'busy' : `error ${String(error)}`,
        ),
    );
  }
  if (message === 'release') {
    const lock = held;
    held = undefined;
    void (lock?.release() ?? Promise.resolve()).then(() => process.send?.('released'));
  }
  if (message === 'exit') process.exit(0);
});
process.send?.('ready');

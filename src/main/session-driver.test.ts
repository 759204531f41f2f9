import { spawn } from 'node:child_process';
import { utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp-dir.js';
import { processStartTime } from '../infrastructure/system/process-start-time.js';
import { createFileSessionLocker } from '../infrastructure/locks/file-session-locker.js';
import { lockColumns } from '../interfaces/session-lease.js';
import { fileLockHolder, fileSessionDriver } from './session-driver.js';

describe('fileSessionDriver', () => {
  it("names no driver when the lock file's pid now belongs to an unrelated process", async () => {
    const dir = tempDir('correx-driver-');
    const stranger = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)']);
    await new Promise((resolve) => stranger.once('spawn', resolve));
    try {
      const started = processStartTime(stranger.pid!)!;
      const record = { pid: stranger.pid, host: hostname(), lock: 'os' };
      // Written under the OS lock by a holder that died; its pid is the stranger's now.
      writeFileSync(join(dir, 'a.lock'), JSON.stringify({ ...record, started: started - 60_000 }));
      expect(fileSessionDriver(dir, 'a')).toBeNull();
      // A record from before start times, written an hour before the stranger started.
      const legacy = join(dir, 'b.lock');
      writeFileSync(legacy, JSON.stringify({ pid: stranger.pid, host: hostname() }));
      const anHourAgo = new Date(Date.now() - 3_600_000);
      utimesSync(legacy, anHourAgo, anHourAgo);
      expect(fileSessionDriver(dir, 'b')).toBeNull();
      // The same pid with its own start time is the live holder it says it is.
      writeFileSync(join(dir, 'c.lock'), JSON.stringify({ ...record, started }));
      expect(fileSessionDriver(dir, 'c')).toEqual({ pid: stranger.pid, host: hostname() });
    } finally {
      stranger.kill('SIGKILL');
    }
  });
});

describe('fileLockHolder', () => {
  it('names the live process holding a session, as the server lists its driver, and nobody once released', async () => {
    const dir = tempDir('correx-holder-');
    const locker = createFileSessionLocker(dir);
    const lock = await locker.acquire('s1');
    const holder = `pid ${process.pid} on ${hostname()}`;
    expect(fileLockHolder(dir, 's1')).toBe(holder);
    // What a list row carries: the driver, with no lease age (a lock file has none).
    const host = { lockHolder: (sessionId: string) => fileLockHolder(dir, sessionId) };
    expect(lockColumns(host, 's1')).toEqual({ driver: holder });
    expect(lockColumns(host, 'never-driven')).toEqual({});
    await lock.release();
    expect(fileLockHolder(dir, 's1')).toBeNull();
    expect(lockColumns(host, 's1')).toEqual({});
    await locker.close();
  });
});

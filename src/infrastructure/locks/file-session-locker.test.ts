import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp-dir.js';
import { expectRejection } from '../../../test/support/expect-rejection.js';
import { createFileSessionLocker } from './file-session-locker.js';
import { SessionBusyError } from './session-locker.js';

describe('createFileSessionLocker', () => {
  it('is held until released, and a second holder is refused meanwhile', async () => {
    const dir = tempDir('correx-lock-');
    const locker = createFileSessionLocker(dir);
    const lock = await locker.acquire('s-1');
    expect(JSON.parse(readFileSync(join(dir, 's-1.lock'), 'utf8'))).toEqual({
      pid: process.pid,
      host: hostname(),
      token: expect.any(String),
    });
    await expectRejection(locker.acquire('s-1'), SessionBusyError);
    await lock.release();
    expect(existsSync(join(dir, 's-1.lock'))).toBe(false);
    await (await locker.acquire('s-1')).release();
  });

  it('refuses while another live process holds it, and takes over once that process is gone', async () => {
    const dir = tempDir('correx-lock-');
    const locker = createFileSessionLocker(dir);
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)']);
    writeFileSync(join(dir, 's-2.lock'), JSON.stringify({ pid: other.pid, host: hostname() }));
    await expect(locker.acquire('s-2')).rejects.toThrow(/driven by process \d+/);
    const exited = new Promise((done) => other.on('exit', done));
    other.kill('SIGKILL');
    await exited;
    const lock = await locker.acquire('s-2');
    expect(JSON.parse(readFileSync(join(dir, 's-2.lock'), 'utf8')).pid).toBe(process.pid);
    await lock.release();
  });

  it('takes over an unreadable lock (a crash while writing it)', async () => {
    const dir = tempDir('correx-lock-');
    writeFileSync(join(dir, 's-3.lock'), '{"pid":');
    await (await createFileSessionLocker(dir).acquire('s-3')).release();
  });
});

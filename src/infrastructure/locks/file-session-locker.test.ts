import { fork, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp-dir.js';
import { expectRejection } from '../../../test/support/expect-rejection.js';
import { createFileSessionLocker } from './file-session-locker.js';
import { SessionBusyError } from './session-locker.js';
import { correxEventCatalog } from '../../core/event-catalog.js';
import { InMemoryEventStore } from '../../core/events/in-memory-event-store.js';
import { processStartTime } from '../system/process-start-time.js';

const CONTENDER = join(import.meta.dirname, '../../../test/support/lock-contender.ts');

function contender(directory: string, sessionId: string) {
  const child = fork(CONTENDER, [directory, sessionId], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const next = () =>
    new Promise<string>((resolve, reject) => {
      // One exit listener per question would pile up past Node's listener warning.
      const exited = (code: number | null) => reject(new Error(`contender exited with ${code}`));
      child.once('exit', exited);
      child.once('message', (message) => {
        child.off('exit', exited);
        resolve(String(message));
      });
    });
  return { child, ready: next(), next };
}

async function exited(child: ChildProcess, how: 'exit' | 'SIGKILL'): Promise<void> {
  const done = new Promise((resolve) => child.once('exit', resolve));
  if (how === 'exit') child.send('exit');
  else child.kill('SIGKILL');
  await done;
}

/** Asks every process at once and collects their answers. */
async function ask(children: readonly ReturnType<typeof contender>[], message: string) {
  const answers = children.map((c) => c.next());
  for (const c of children) c.child.send(message);
  return Promise.all(answers);
}

describe('createFileSessionLocker', () => {
  it('is held until released, and a second holder is refused meanwhile', async () => {
    const dir = tempDir('correx-lock-');
    const locker = createFileSessionLocker(dir);
    const lock = await locker.acquire('s-1');
    expect(JSON.parse(readFileSync(join(dir, 's-1.lock'), 'utf8'))).toEqual({
      pid: process.pid,
      host: hostname(),
      lock: 'os',
      started: expect.any(Number),
    });
    await expect(locker.acquire('s-1')).rejects.toThrow(`driven by process ${process.pid}`);
    await lock.release();
    expect(existsSync(join(dir, 's-1.lock'))).toBe(false);
    await (await locker.acquire('s-1')).release();
  });

  it('refuses while another process holds it, and is free the moment that process is killed', async () => {
    const dir = tempDir('correx-lock-');
    const holder = contender(dir, 's-2');
    await holder.ready;
    const answer = holder.next();
    holder.child.send('go');
    expect(await answer).toBe('held');
    const locker = createFileSessionLocker(dir);
    await expect(locker.acquire('s-2')).rejects.toThrow(`driven by process ${holder.child.pid}`);
    // kill -9: nothing is cleaned up, the OS releases the lock with the process.
    await exited(holder.child, 'SIGKILL');
    expect(existsSync(join(dir, 's-2.lock'))).toBe(true);
    const lock = await locker.acquire('s-2');
    expect(JSON.parse(readFileSync(join(dir, 's-2.lock'), 'utf8')).pid).toBe(process.pid);
    await lock.release();
  });

  it('respects the lock file of a live correx from before the OS lock, and takes over a dead one', async () => {
    const dir = tempDir('correx-lock-');
    const locker = createFileSessionLocker(dir);
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)']);
    writeFileSync(join(dir, 's-3.lock'), JSON.stringify({ pid: other.pid, host: hostname() }));
    await expectRejection(locker.acquire('s-3'), SessionBusyError);
    await exited(other, 'SIGKILL');
    await (await locker.acquire('s-3')).release();
  });

  it('takes over a lock file whose pid was reused by an unrelated live process', async () => {
    const dir = tempDir('correx-lock-');
    const locker = createFileSessionLocker(dir);
    const stranger = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)']);
    await new Promise((resolve) => stranger.once('spawn', resolve));
    try {
      // A record from before the OS lock, written an hour before the stranger started.
      const legacy = join(dir, 's-5.lock');
      writeFileSync(legacy, JSON.stringify({ pid: stranger.pid, host: hostname() }));
      const anHourAgo = new Date(Date.now() - 3_600_000);
      utimesSync(legacy, anHourAgo, anHourAgo);
      await (await locker.acquire('s-5')).release();
      // A record under the OS lock whose holder died, its pid now the stranger's.
      const started = processStartTime(stranger.pid!)!;
      const record = { pid: stranger.pid, host: hostname(), lock: 'os' };
      writeFileSync(
        join(dir, 's-6.lock'),
        JSON.stringify({ ...record, started: started - 60_000 }),
      );
      await (await locker.acquire('s-6')).release();
    } finally {
      await exited(stranger, 'SIGKILL');
    }
  });

  it("moves the store's driver epoch on with each take", async () => {
    const dir = tempDir('correx-lock-');
    const store = new InMemoryEventStore({ catalog: correxEventCatalog });
    const locker = createFileSessionLocker(dir, store);
    const first = await locker.acquire('s-8');
    expect(first.epoch).toBe(1);
    await first.release();
    const second = await locker.acquire('s-8');
    expect(second.epoch).toBe(2);
    expect(await store.driverEpoch('s-8')).toBe(2);
    await second.release();
  });

  it('takes over an unreadable or empty lock file (a crash while writing it)', async () => {
    const dir = tempDir('correx-lock-');
    writeFileSync(join(dir, 's-4.lock'), '{"pid":');
    await (await createFileSessionLocker(dir).acquire('s-4')).release();
    writeFileSync(join(dir, 's-4.lock'), '');
    writeFileSync(join(dir, 's-4.lockdb'), '');
    await (await createFileSessionLocker(dir).acquire('s-4')).release();
  });

  // Real processes, told to go at once, in each starting state, round after round.
  const starts: Record<string, (dir: string, sessionId: string) => Promise<void>> = {
    'no lock': async () => {},
    'a stale lock of a killed holder': async (dir, sessionId) => {
      const holder = contender(dir, sessionId);
      await holder.ready;
      expect(await ask([holder], 'go')).toEqual(['held']);
      await exited(holder.child, 'SIGKILL');
    },
    'an empty lock file': async (dir, sessionId) => {
      writeFileSync(join(dir, `${sessionId}.lock`), '');
      writeFileSync(join(dir, `${sessionId}.lockdb`), '');
    },
  };
  it.each(Object.keys(starts))(
    'gives the lock to exactly one of six processes racing from %s',
    async (start) => {
      const dir = tempDir('correx-lock-');
      const children = Array.from({ length: 6 }, () => contender(dir, 's-race'));
      await Promise.all(children.map((c) => c.ready));
      try {
        for (let round = 0; round < 5; round++) {
          await starts[start]!(dir, 's-race');
          // Every holder keeps its lock until all have answered: two holders would both say `held`.
          const results = await ask(children, 'go');
          expect(
            results.filter((result) => result === 'held'),
            `round ${round}`,
          ).toHaveLength(1);
          expect(results.filter((result) => result === 'busy')).toHaveLength(5);
          await ask(children, 'release');
        }
      } finally {
        await Promise.all(children.map((c) => exited(c.child, 'exit')));
      }
    },
    120_000,
  );
});

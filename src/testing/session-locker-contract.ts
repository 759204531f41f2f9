import assert from 'node:assert/strict';
import { SessionBusyError, type SessionLocker } from '../infrastructure/locks/session-locker.js';
import type { ContractCase } from './contract-case.js';

/** What each locker supplies: two lockers standing for two processes on one store. */
export type SessionLockerHarness = {
  /** A locker as one driver process would hold it; each call is another process. */
  open(): Promise<SessionLocker>;
};

async function withLockers(
  harness: SessionLockerHarness,
  check: (first: SessionLocker, second: SessionLocker) => Promise<void>,
): Promise<void> {
  const first = await harness.open();
  const second = await harness.open();
  try {
    await check(first, second);
  } finally {
    await first.close();
    await second.close();
  }
}

async function assertBusy(attempt: Promise<unknown>): Promise<void> {
  await assert.rejects(attempt, (error: unknown) => {
    assert.ok(error instanceof SessionBusyError, `expected SessionBusyError, got ${String(error)}`);
    return true;
  });
}

let counter = 0;
/** A session id no other case (or earlier run against a shared server) has used. */
const freshSession = (): string =>
  `contract-${process.pid}-${Date.now().toString(36)}-${(counter += 1)}`;

/**
 * The SessionLocker contract: one driver per session at a time, whatever the store; a released
 * or closed holder lets the next one in; sessions are independent.
 */
export function sessionLockerContract(harness: SessionLockerHarness): ContractCase[] {
  return [
    {
      name: 'lets one driver hold a session and refuses a second with SessionBusyError',
      run: () =>
        withLockers(harness, async (first, second) => {
          const session = freshSession();
          const lock = await first.acquire(session);
          await assertBusy(second.acquire(session));
          await lock.release();
        }),
    },
    {
      name: 'lets the next driver in once the holder releases',
      run: () =>
        withLockers(harness, async (first, second) => {
          const session = freshSession();
          const lock = await first.acquire(session);
          await lock.release();
          const next = await second.acquire(session);
          await assertBusy(first.acquire(session));
          await next.release();
        }),
    },
    {
      name: 'keeps sessions independent',
      run: () =>
        withLockers(harness, async (first, second) => {
          const one = await first.acquire(freshSession());
          const other = await second.acquire(freshSession());
          await one.release();
          await other.release();
        }),
    },
    {
      name: 'frees what a holder had when it closes',
      run: async () => {
        const session = freshSession();
        const holder = await harness.open();
        await holder.acquire(session);
        await holder.close();
        await withLockers(harness, async (next) => {
          const lock = await next.acquire(session);
          await lock.release();
        });
      },
    },
    {
      name: 'releases only once: a second release does not free a lock someone else took',
      run: () =>
        withLockers(harness, async (first, second) => {
          const session = freshSession();
          const lock = await first.acquire(session);
          await lock.release();
          const taken = await second.acquire(session);
          await lock.release();
          await assertBusy(first.acquire(session));
          await taken.release();
        }),
    },
  ];
}

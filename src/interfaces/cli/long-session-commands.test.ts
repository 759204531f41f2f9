import { afterEach, describe, expect, it, vi } from 'vitest';
import { recordSession } from '../../../bench/bench-session.js';
import { cliTestDefaults } from '../../../test/support/cli-test-context.js';
import { createSteppingClock } from '../../core/base/clock.js';
import { createCountingIdSource } from '../../core/base/id-source.js';
import { canonicalJson } from '../../core/events/canonical-json.js';
import { correxEventCatalog, type CorrexEventStore } from '../../core/event-catalog.js';
import { InMemoryEventStore } from '../../core/events/in-memory-event-store.js';
import type { CliContext } from './cli-context.js';
import { runCli } from './program.js';

/** A finished bench session of several thousand events, and a CLI over it in this process. */
async function longSession() {
  const store = new InMemoryEventStore({ catalog: correxEventCatalog });
  // Eight turns of fifty calls: about 2,450 events, five pages of `tail`.
  await recordSession(8, { store, sessionId: 'long' });
  const reads: { sessionId: string; limit: number | undefined }[] = [];
  // Every whole-session read is seen: a streaming command reads pages, never the whole log.
  const watched = new Proxy(store, {
    get(target, property) {
      if (property === 'read')
        return (sessionId: string, options?: Parameters<CorrexEventStore['read']>[1]) => {
          reads.push({ sessionId, limit: options?.limit });
          return target.read(sessionId, options);
        };
      const value: unknown = Reflect.get(target, property);
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  }) as CorrexEventStore;
  const out: string[] = [];
  const context: CliContext = {
    ...cliTestDefaults,
    version: '0',
    correxHome: '/unused',
    defaultStore: 'memory',
    clock: createSteppingClock('2026-11-30T12:01:00.000Z', 1000),
    ids: createCountingIdSource('cli'),
    user: 'alice',
    openStores: async (location) => ({
      kind: 'memory',
      location,
      events: watched,
      close: async () => {},
    }),
    migrateStore: async () => {
      throw new Error('not used');
    },
    out: (text) => out.push(...text.split('\n')),
    err: (text) => out.push(text),
  };
  return { store, reads, out, run: (...argv: string[]) => runCli(context, argv) };
}

afterEach(() => vi.restoreAllMocks());

describe('commands over a long session', () => {
  it('`tail` of a finished session catches up without waiting between full pages', async () => {
    const { store, out, run } = await longSession();
    const total = await store.lastSequence('long');
    expect(total).toBeGreaterThan(2_000);
    const timers = vi.spyOn(globalThis, 'setTimeout');
    expect(await run('tail', 'long', '--json')).toBe(0);
    expect(out).toHaveLength(total);
    // It never slept: every page but the last was full, and the session had ended.
    expect(timers.mock.calls.filter(([, ms]) => ms === 250)).toHaveLength(0);
  });

  it('`events --json` streams the log: the same lines, never one read of the whole session', async () => {
    const { store, reads, out, run } = await longSession();
    expect(await run('events', 'long', '--json')).toBe(0);
    const all = await store.read('long');
    expect(out).toEqual(all.map((event) => canonicalJson(event)));
    expect(reads.filter((read) => read.limit === undefined)).toEqual([]);
    out.length = 0;
    expect(await run('events', 'long', '--json', '--from', '100', '--limit', '7')).toBe(0);
    expect(out).toEqual(all.slice(99, 106).map((event) => canonicalJson(event)));
  });
});

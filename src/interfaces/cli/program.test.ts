import { beforeEach, describe, expect, it } from 'vitest';
import { cliTestDefaults } from '../../../test/support/cli-test-context.js';
import { noteBatch } from '../../../test/support/sample-events.js';
import { correxEventCatalog } from '../../core/event-catalog.js';
import { CorrexError } from '../../core/base/correx-error.js';
import { createSteppingClock } from '../../core/base/clock.js';
import { createCountingIdSource } from '../../core/base/id-source.js';
import { InMemoryEventStore } from '../../core/events/in-memory-event-store.js';
import type { CliContext } from './cli-context.js';
import { runCli } from './program.js';

function harness() {
  const store = new InMemoryEventStore({ catalog: correxEventCatalog });
  const output = { out: [] as string[], err: [] as string[], opened: [] as string[] };
  const context: CliContext = {
    ...cliTestDefaults,
    version: '9.9.9',
    correxHome: '/home/me/.correx',
    clock: createSteppingClock('2026-11-30T12:00:00.000Z', 1000),
    ids: createCountingIdSource('cli'),
    user: 'alice',
    defaultStore: '/home/me/.correx/correx.db',
    openStores: async (location) => {
      if (location === 'postgres://nowhere')
        throw new CorrexError('store_closed', 'cannot reach postgres://nowhere');
      if (location === 'postgres://down')
        throw new CorrexError('postgres_connect_failed', 'connection refused');
      output.opened.push(location);
      return { kind: 'memory', location, events: store, close: async () => {} };
    },
    migrateStore: async () => ({ kind: 'sqlite', location: 'x', fromVersion: 1, toVersion: 1 }),
    out: (text) => output.out.push(text),
    err: (text) => output.err.push(text),
  };
  return { store, output, run: (...argv: string[]) => runCli(context, argv) };
}

describe('correx CLI', () => {
  let h: ReturnType<typeof harness>;
  beforeEach(async () => {
    h = harness();
    await h.store.appendAll(noteBatch('s-1', 1, 3));
  });

  it('lists sessions as a table and as JSON, on the default store unless --store is given', async () => {
    expect(await h.run('sessions')).toBe(0);
    expect(h.output.out.join('\n')).toMatch(
      /SESSION\s+STATUS\s+STAGE\s+EVENTS[\s\S]*s-1\s+\S+\s+-\s+3/,
    );
    expect(h.output.opened).toEqual(['/home/me/.correx/correx.db']);
    expect(await h.run('--store', 'other.db', 'sessions', '--json')).toBe(0);
    expect(JSON.parse(h.output.out.at(-1)!)).toEqual([
      expect.objectContaining({ sessionId: 's-1', lastSequence: 3 }),
    ]);
    expect(h.output.opened.at(-1)).toBe('other.db');
  });

  it("prints a session's events from a cursor", async () => {
    expect(await h.run('events', 's-1', '--from', '2', '--limit', '1')).toBe(0);
    const text = h.output.out.join('\n');
    expect(text).toContain('steering_note_added');
    expect(text).toContain('content=note 2');
    expect(text).not.toContain('note 3');
    expect(await h.run('events', 's-1', '--json')).toBe(0);
    const lines = h.output.out.at(-1)!.split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { sequence: number }).sequence)).toEqual([
      1, 2, 3,
    ]);
    expect(lines[0]).toMatch(
      /^\{"causationId":null,"correlationId":"corr-s-1","eventId":"s-1-e000001","hash":"[0-9a-f]{64}","payload":/,
    );
  });

  it('verify exits 0 on an intact chain and 1 on a broken one', async () => {
    expect(await h.run('verify', 's-1')).toBe(0);
    expect(h.output.out.at(-1)).toMatch(/^ok: 3 events, head [0-9a-f]{64}$/);
    h.store.tamper('s-1', 2, () => ({ hash: '0'.repeat(64) }));
    expect(await h.run('verify', 's-1')).toBe(1);
    expect(h.output.out.at(-1)).toMatch(/^BROKEN at sequence 2/);
  });

  it('a correx error is one line on stderr with a stable exit code, not a stack trace', async () => {
    expect(await h.run('--store', 'postgres://nowhere', 'sessions')).toBe(1);
    expect(h.output.err).toEqual(['correx: cannot reach postgres://nowhere']);
    expect(await h.run('--store', 'postgres://down', 'sessions')).toBe(3);
  });

  it('usage errors exit 2 and say what is wrong', async () => {
    expect(await h.run('events')).toBe(2);
    expect(h.output.err.join('\n')).toContain("missing required argument 'session'");
    expect(await h.run('events', 's-1', '--limit', 'many')).toBe(2);
    expect(h.output.err.join('\n')).toContain('expected a whole number');
    expect(await h.run('no-such-command')).toBe(2);
  });

  it('--help and --version exit 0', async () => {
    expect(await h.run('--version')).toBe(0);
    expect(h.output.out).toContain('9.9.9');
    expect(await h.run('--help')).toBe(0);
    expect(h.output.out.join('\n')).toContain('verify');
  });
});

describe('correx store copy and migrate', () => {
  it('copies sessions between stores and reports verified heads', async () => {
    const source = new InMemoryEventStore({ catalog: correxEventCatalog });
    const target = new InMemoryEventStore({ catalog: correxEventCatalog });
    await source.appendAll(noteBatch('a', 1, 4));
    await source.appendAll(noteBatch('b', 1, 2));
    const out: string[] = [];
    const context: CliContext = {
      ...cliTestDefaults,
      version: '0',
      correxHome: '/unused',
      clock: createSteppingClock('2026-11-30T12:00:00.000Z'),
      ids: createCountingIdSource('cli'),
      user: 'alice',
      defaultStore: 'unused',
      openStores: async (location) => ({
        kind: 'memory',
        location,
        events: location === 'src' ? source : target,
        close: async () => {},
      }),
      migrateStore: async () => ({ kind: 'sqlite', location: 'x', fromVersion: 0, toVersion: 1 }),
      out: (text) => out.push(text),
      err: (text) => out.push(text),
    };
    expect(
      await runCli(context, ['store', 'copy', '--from', 'src', '--to', 'dst', '--session', 'a']),
    ).toBe(0);
    expect(await target.read('a')).toEqual(await source.read('a'));
    expect(await target.lastSequence('b')).toBe(0);
    expect(out.join('\n')).toMatch(/a\s+4\s+0\s+4/);
    expect(await runCli(context, ['store', 'copy', '--from', 'src', '--to', 'dst', '--json'])).toBe(
      0,
    );
    expect(JSON.parse(out.at(-1)!)).toMatchObject([
      { sessionId: 'a', copied: 0, alreadyPresent: 4 },
      { sessionId: 'b', copied: 2 },
    ]);
    expect(await runCli(context, ['store', 'copy', '--from', 'src'])).toBe(2);
    expect(out.join('\n')).toContain("required option '--to <location>' not specified");
  });

  it('migrate reports what it did on a real SQLite file', async () => {
    const { migrateStore } = await import('../../infrastructure/migrate-store.js');
    const { tempDir } = await import('../../../test/support/temp-dir.js');
    const { join } = await import('node:path');
    const path = join(tempDir(), 'fresh.db');
    const out: string[] = [];
    const context: CliContext = {
      ...cliTestDefaults,
      version: '0',
      correxHome: '/unused',
      clock: createSteppingClock('2026-11-30T12:00:00.000Z'),
      ids: createCountingIdSource('cli'),
      user: 'alice',
      defaultStore: path,
      openStores: async () => {
        throw new Error('not used');
      },
      migrateStore,
      out: (text) => out.push(text),
      err: (text) => out.push(text),
    };
    expect(await runCli(context, ['migrate'])).toBe(0);
    expect(out.at(-1)).toMatch(/schema migrated from version 0 to \d+/);
    expect(await runCli(context, ['migrate'])).toBe(0);
    expect(out.at(-1)).toMatch(/schema already at version \d+/);
  });
});

describe('correx init', () => {
  it('writes a valid template once, refuses to overwrite without --force', async () => {
    const { tempDir } = await import('../../../test/support/temp-dir.js');
    const { loadHarnessConfig } =
      await import('../../infrastructure/config/load-harness-config.js');
    const { join } = await import('node:path');
    const home = join(tempDir(), 'home');
    const workspace = join(home, '..', 'ws');
    const out: string[] = [];
    const context: CliContext = {
      ...cliTestDefaults,
      version: '0',
      correxHome: home,
      clock: createSteppingClock('2026-11-30T12:00:00.000Z'),
      ids: createCountingIdSource('cli'),
      user: 'alice',
      defaultStore: join(home, 'correx.db'),
      openStores: async () => {
        throw new Error('not used');
      },
      migrateStore: async () => {
        throw new Error('not used');
      },
      out: (text) => out.push(text),
      err: (text) => out.push(text),
    };
    expect(await runCli(context, ['init'])).toBe(0);
    expect(await runCli(context, ['init', '--workspace', workspace])).toBe(0);
    expect(await runCli(context, ['init'])).toBe(2);
    expect(out.at(-1)).toMatch(/already exists; pass --force/);
    expect(await runCli(context, ['init', '--force'])).toBe(0);
    const config = await loadHarnessConfig({ correxHome: home, workspace });
    expect(config.sources).toHaveLength(2);
    expect(config.mode).toBe('prompt');
  });
});

describe('correx grants, grant and revoke', () => {
  it('adds an exactly scoped grant as an event, lists it, and revokes it', async () => {
    const h = harness();
    await h.store.appendAll(noteBatch('s-1', 1, 2));
    expect(
      await h.run(
        'grant',
        's-1',
        '--command',
        'npm test',
        '--reason',
        'tests are safe',
        '--stage',
        'verify',
      ),
    ).toBe(0);
    expect(h.output.out.at(-1)).toMatch(/^added (grant-cli-\d+): command: npm test$/);
    const grantId = /^added (\S+):/.exec(h.output.out.at(-1)!)![1]!;
    const [recorded] = await h.store.read('s-1', { afterSequence: 2 });
    expect(recorded!.payload).toEqual({
      type: 'approval_grant_added',
      grantId,
      scope: { kind: 'command', command: 'npm test' },
      lifetime: 'stage',
      stageId: 'verify',
      expiresAt: null,
      by: 'alice',
      reason: 'tests are safe',
    });
    expect(await h.run('grants', 's-1')).toBe(0);
    expect(h.output.out.at(-1)).toMatch(
      new RegExp(`${grantId}\\s+command: npm test\\s+stage verify`),
    );
    expect(await h.run('revoke', 's-1', grantId, '--reason', 'done')).toBe(0);
    expect(await h.run('grants', 's-1')).toBe(0);
    expect(h.output.out.at(-1)).toBe('no active grants for session s-1');
    expect(await h.run('grants', 's-1', '--all', '--json')).toBe(0);
    expect(JSON.parse(h.output.out.at(-1)!)).toMatchObject([{ grantId, revoked: true }]);
    expect(await h.run('revoke', 's-1', 'grant-nope')).toBe(1);
    expect(h.output.err.at(-1)).toMatch(/has no grant grant-nope/);
  });

  it('refuses an ambiguous or unscoped grant, a bad expiry, and an unknown session', async () => {
    const h = harness();
    await h.store.appendAll(noteBatch('s-1', 1, 1));
    expect(await h.run('grant', 's-1', '--reason', 'x')).toBe(2);
    expect(
      await h.run('grant', 's-1', '--command', 'ls', '--host', 'example.com', '--reason', 'x'),
    ).toBe(2);
    expect(await h.run('grant', 's-1', '--path', 'src/**', '--reason', 'x')).toBe(2);
    expect(h.output.err.at(-1)).toMatch(/--path needs --tool/);
    expect(
      await h.run(
        'grant',
        's-1',
        '--host',
        'example.com',
        '--until',
        'tomorrow-ish',
        '--reason',
        'x',
      ),
    ).toBe(2);
    expect(await h.run('grant', 'nobody', '--host', 'example.com', '--reason', 'x')).toBe(1);
    expect(h.output.err.at(-1)).toMatch(/no session nobody/);
    expect(await h.store.lastSequence('s-1')).toBe(1);
  });
});

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordSession } from '../../bench/bench-session.js';
import { correxEventCatalog } from '../../src/core/event-catalog.js';
import type { JsonValue } from '../../src/core/events/canonical-json.js';
import { openSqliteEventStore } from '../../src/infrastructure/sqlite/sqlite-event-store.js';
import { openSqliteSnapshotStore } from '../../src/infrastructure/sqlite/sqlite-snapshot-store.js';
import { tempDir } from '../support/temp-dir.js';
import { correx } from './cli-process.js';

type Row = { sessionId: string; status: string; task: string; lastSequence: number };

/** Issue #37: `correx sessions` folded every listed session from its first event, every time. */
describe('correx sessions reads a maintained summary of each session', () => {
  it('keeps a row snapshot in the store and lists from it plus the events since', async () => {
    const home = tempDir('correx-sessions-summary-');
    const path = join(home, 'store.db');
    const store = openSqliteEventStore(path, { catalog: correxEventCatalog });
    await recordSession(3, { store, sessionId: 'long' });
    const total = await store.lastSequence('long');
    await store.close();

    const first = await correx(home, ['--store', path, 'sessions', '--json']);
    expect(first.code, first.stderr).toBe(0);
    const [row] = JSON.parse(first.stdout) as Row[];
    expect(row).toMatchObject({ sessionId: 'long', status: 'completed', lastSequence: total });

    // The listing left the row's summary beside the log, covering the whole session.
    const snapshots = openSqliteSnapshotStore(path);
    const saved = await snapshots.load('long', 'session-row');
    expect(saved?.sequence).toBe(total);
    // What the next listing shows comes from that summary, not from the history: a summary
    // that says otherwise (written here by hand) is what it lists.
    const state = saved!.state as { session: { task: string } };
    await snapshots.save({
      ...saved!,
      state: { ...state, session: { ...state.session, task: 'from the summary' } } as JsonValue,
    });
    await snapshots.close();
    const second = await correx(home, ['--store', path, 'sessions', '--json']);
    expect((JSON.parse(second.stdout) as Row[])[0]).toMatchObject({
      sessionId: 'long',
      status: 'completed',
      task: 'from the summary',
    });
  });
});

import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { artifactStoreContract } from '../../../test/contracts/artifact-store.contract.js';
import { tempDir } from '../../../test/support/temp-dir.js';
import { createArtifact } from '../../core/artifacts/artifact.js';
import { nodeSha256 } from '../system/node-sha256.js';
import { openSqliteArtifactStore, type SqliteArtifactStore } from './sqlite-artifact-store.js';
import { openSqliteEventStore } from './sqlite-event-store.js';
import { correxEventCatalog } from '../../core/event-catalog.js';

const dir = tempDir();
let counter = 0;
const freshPath = () => join(dir, `artifacts-${++counter}.db`);

artifactStoreContract('sqlite', {
  open: async () => openSqliteArtifactStore(freshPath(), { sha256: nodeSha256 }),
  tamper: async (store, hash, bytes) => {
    const db = new Database((store as SqliteArtifactStore).path);
    try {
      db.exec('DROP TRIGGER IF EXISTS artifacts_no_update');
      db.prepare('UPDATE artifacts SET bytes = ? WHERE hash = ?').run(bytes, hash);
    } finally {
      db.close();
    }
  },
});

const sample = createArtifact({
  kind: 'plan',
  sessionId: 's1',
  stageId: 'plan',
  content: { summary: 'x' },
  lineage: { inferenceEventId: null, parents: [] },
});

describe('SqliteArtifactStore', () => {
  it('keeps artifacts across reopening, next to the events in the same file', async () => {
    const path = freshPath();
    const events = openSqliteEventStore(path, { catalog: correxEventCatalog });
    const first = openSqliteArtifactStore(path);
    await first.put(sample);
    await first.close();
    const second = openSqliteArtifactStore(path);
    expect(await second.get(sample.hash)).toEqual(sample);
    await second.close();
    await events.close();
  });

  it('refuses to update or delete a stored artifact, even with SQL', async () => {
    const path = freshPath();
    const store = openSqliteArtifactStore(path);
    await store.put(sample);
    const db = new Database(path);
    try {
      expect(() => db.prepare("UPDATE artifacts SET kind = 'x'").run()).toThrow(/immutable/);
      expect(() => db.prepare('DELETE FROM artifacts').run()).toThrow(/immutable/);
    } finally {
      db.close();
      await store.close();
    }
  });
});

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { noteEvent } from '../../test/support/sample-events.js';
import { tempDir } from '../../test/support/temp-dir.js';
import {
  probeTestServer,
  schemaTracker,
  TEST_POSTGRES_URL,
} from '../../test/postgres/postgres-test-server.js';
import { openStores, parseStoreLocation, StoreLocationError } from './open-store.js';
import { PostgresSchemaError } from './postgres/postgres-errors.js';

const server = await probeTestServer();
const dir = tempDir();

describe('parseStoreLocation', () => {
  it('reads SQLite paths, sqlite: locations and PostgreSQL URLs', () => {
    expect(parseStoreLocation('./data/correx.db')).toEqual({
      kind: 'sqlite',
      path: './data/correx.db',
    });
    expect(parseStoreLocation('sqlite:/var/lib/correx.db')).toEqual({
      kind: 'sqlite',
      path: '/var/lib/correx.db',
    });
    expect(parseStoreLocation('sqlite://rel/x.db')).toEqual({ kind: 'sqlite', path: 'rel/x.db' });
    expect(parseStoreLocation('C:\\correx\\x.db')).toEqual({
      kind: 'sqlite',
      path: 'C:\\correx\\x.db',
    });
    expect(parseStoreLocation('postgresql://u:p@h:5433/d')).toEqual({
      kind: 'postgres',
      url: 'postgresql://u:p@h:5433/d',
    });
  });

  it('rejects an empty location and unknown schemes, without echoing a password', () => {
    expect(() => parseStoreLocation('  ')).toThrow(StoreLocationError);
    expect(() => parseStoreLocation('sqlite:')).toThrow(/no path after sqlite:/);
    let error: unknown;
    try {
      parseStoreLocation('mysql://root:topsecret@db/x');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(StoreLocationError);
    expect((error as Error).message).toMatch(/unsupported scheme mysql:/);
    expect((error as Error).message).not.toContain('topsecret');
    expect(error).toMatchObject({ code: 'store_location_invalid' });
  });
});

describe('openStores', () => {
  const schemas = schemaTracker();

  it('opens SQLite event and snapshot stores at a path', async () => {
    const path = join(dir, 'open.db');
    const stores = await openStores(`sqlite:${path}`);
    expect(stores).toMatchObject({ kind: 'sqlite', location: path });
    await stores.events.append(noteEvent('s', 1));
    await stores.snapshots.save({
      sessionId: 's',
      projection: 'p',
      projectionVersion: 1,
      sequence: 1,
      state: 1,
    });
    await stores.close();
    const again = await openStores(path);
    expect(await again.events.lastSequence('s')).toBe(1);
    expect(await again.snapshots.load('s', 'p')).toMatchObject({ sequence: 1, state: 1 });
    await again.close();
  });

  it.skipIf(!server.available)(
    'opens PostgreSQL stores on one pool, migrating when asked',
    async () => {
      const schema = schemas.next();
      const withPassword = TEST_POSTGRES_URL.replace('postgres@', 'postgres:not-needed@');
      await expect(openStores(withPassword, { schema })).rejects.toBeInstanceOf(
        PostgresSchemaError,
      );
      const stores = await openStores(withPassword, { schema, migrate: true });
      expect(stores.kind).toBe('postgres');
      expect(stores.location).not.toContain('not-needed');
      expect(stores.location).toContain('postgres:***@');
      const stored = await stores.events.append(noteEvent('s', 1));
      await stores.snapshots.save({
        sessionId: 's',
        projection: 'p',
        projectionVersion: 1,
        sequence: 1,
        state: [1],
      });
      await stores.close();
      const again = await openStores(TEST_POSTGRES_URL, { schema });
      expect(await again.events.read('s')).toEqual([stored]);
      expect(await again.snapshots.load('s', 'p')).toMatchObject({ state: [1] });
      await again.close();
    },
  );
});

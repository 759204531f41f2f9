import { EventEmitter } from 'node:events';
import { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';

/**
 * Presents an embedded PGlite database as the small part of a `pg.Pool` the PostgreSQL stores
 * use, so the same store code runs without a server. PGlite has one backend, so a checked-out
 * client holds a lock until released (its transaction must not interleave with others), and a
 * client that only LISTENs never takes the lock.
 */
export function createPglitePool(db: PGlite): pg.Pool {
  let tail: Promise<void> = Promise.resolve();
  const lock = async (): Promise<() => void> => {
    let unlock!: () => void;
    const previous = tail;
    tail = new Promise<void>((resolve) => (unlock = resolve));
    await previous;
    return unlock;
  };
  const run = async (text: string, values?: unknown[]) => {
    // Statements without parameters may be several (migrations): the simple protocol runs them all.
    const result =
      values === undefined || values.length === 0
        ? (await db.exec(text)).at(-1)!
        : await db.query(text, values);
    return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
  };

  const connect = async () => {
    const client = new EventEmitter() as EventEmitter & Record<string, unknown>;
    let unlock: (() => void) | undefined;
    const unlisten: (() => Promise<void>)[] = [];
    client.query = async (query: string | pg.QueryConfig, values?: unknown[]) => {
      // A prepared statement's name only saves planning on a server: run its text.
      const text = typeof query === 'string' ? query : query.text;
      values = typeof query === 'string' ? values : query.values;
      const listen = /^LISTEN "([^"]+)"$/.exec(text);
      if (listen) {
        unlisten.push(await db.listen(listen[1]!, () => client.emit('notification')));
        return { rows: [], rowCount: 0 };
      }
      unlock ??= await lock();
      return run(text, values);
    };
    client.release = () => {
      for (const stop of unlisten.splice(0)) void stop();
      unlock?.();
      unlock = undefined;
    };
    return client;
  };

  const pool = {
    options: { host: 'pglite', port: 0, database: 'memory', user: 'postgres' },
    connect,
    async query(text: string, values?: unknown[]) {
      const unlock = await lock();
      try {
        return await run(text, values);
      } finally {
        unlock();
      }
    },
    async end() {},
    on() {
      return pool;
    },
  };
  return pool as unknown as pg.Pool;
}

export async function createPglite(): Promise<PGlite> {
  return PGlite.create();
}

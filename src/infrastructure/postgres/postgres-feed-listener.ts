import type pg from 'pg';

/** A LISTEN connection that calls `onNotify` when any process appends to the schema. */
export type FeedListener = {
  /** Starts listening if not already (or again after the connection was lost). */
  ensure(): void;
  close(): Promise<void>;
};

/**
 * Holds one pool connection for LISTEN while subscriptions run. A lost connection is dropped
 * and re-established on the next `ensure`; subscribers poll meanwhile, so nothing is missed.
 */
export function createFeedListener(
  pool: pg.Pool,
  channel: string,
  onNotify: () => void,
): FeedListener {
  let client: { connection: pg.PoolClient; release(): void } | undefined;
  let starting: Promise<void> | undefined;
  let closed = false;

  async function start(): Promise<void> {
    const connection = await pool.connect();
    let released = false;
    // Destroyed rather than returned: a connection that LISTENs must not serve other queries.
    const release = () => {
      if (released) return;
      released = true;
      connection.release(true);
    };
    const held = { connection, release };
    connection.on('notification', onNotify);
    connection.on('error', () => {
      if (client === held) client = undefined;
      release();
    });
    try {
      await connection.query(`LISTEN "${channel}"`);
    } catch (error) {
      release();
      throw error;
    }
    if (closed) {
      release();
      return;
    }
    client = held;
    // Anything appended before LISTEN took effect is found by the subscriber's catch-up read.
    onNotify();
  }

  return {
    ensure() {
      if (closed || client || starting) return;
      starting = start()
        .catch(() => undefined)
        .finally(() => {
          starting = undefined;
        });
    },
    async close() {
      closed = true;
      await starting;
      const held = client;
      client = undefined;
      held?.release();
    },
  };
}

import pg from 'pg';

/** A LISTEN connection that calls `onNotify` when any process appends to the schema. */
export type FeedListener = {
  /** Starts listening if not already (or again after the connection was lost). */
  ensure(): void;
  close(): Promise<void>;
};

/** A connection that can LISTEN: emits `notification` and `error`, and is closed for good. */
type ListenConnection = {
  readonly client: Pick<pg.ClientBase, 'query' | 'on'>;
  close(): void;
};

/**
 * A connection of its own for a `pg.Pool` (so a subscription never takes one of the pool's
 * connections from appends); any other pool-like object (an embedded database adapter) lends one.
 */
async function openListenConnection(pool: pg.Pool): Promise<ListenConnection> {
  if (pool instanceof pg.Pool) {
    const client = new pg.Client(pool.options);
    client.on('error', () => undefined);
    try {
      await client.connect();
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    return { client, close: () => void client.end().catch(() => undefined) };
  }
  const client = await (pool as Pick<pg.Pool, 'connect'>).connect();
  // Destroyed rather than returned: a connection that LISTENs must not serve other queries.
  return { client, close: () => client.release(true) };
}

/**
 * Holds one connection for LISTEN while subscriptions run. A lost connection is dropped and
 * re-established on the next `ensure`; subscribers poll meanwhile, so nothing is missed.
 */
export function createFeedListener(
  pool: pg.Pool,
  channel: string,
  onNotify: () => void,
): FeedListener {
  let current: ListenConnection | undefined;
  let starting: Promise<void> | undefined;
  let closed = false;

  async function start(): Promise<void> {
    const opened = await openListenConnection(pool);
    let done = false;
    const held: ListenConnection = {
      client: opened.client,
      close() {
        if (done) return;
        done = true;
        opened.close();
      },
    };
    opened.client.on('notification', onNotify);
    const drop = () => {
      if (current === held) current = undefined;
      held.close();
    };
    opened.client.on('error', drop);
    opened.client.on('end', drop);
    try {
      await opened.client.query(`LISTEN "${channel}"`);
    } catch (error) {
      held.close();
      throw error;
    }
    if (closed) {
      held.close();
      return;
    }
    current = held;
    // Anything appended before LISTEN took effect is found by the subscriber's catch-up read.
    onNotify();
  }

  return {
    ensure() {
      if (closed || current || starting) return;
      starting = start()
        .catch(() => undefined)
        .finally(() => {
          starting = undefined;
        });
    },
    async close() {
      closed = true;
      await starting;
      const held = current;
      current = undefined;
      held?.close();
    },
  };
}

// src/infrastructure/postgres/postgres-feed-listener.ts
import pg from "pg";
async function openListenConnection(pool) {
  if (pool instanceof pg.Pool) {
    const client2 = new pg.Client(pool.options);
    client2.on("error", () => void 0);
    try {
      await client2.connect();
    } catch (error) {
      await client2.end().catch(() => void 0);
      throw error;
    }
    return { client: client2, close: () => void client2.end().catch(() => void 0) };
  }
  const client = await pool.connect();
  return { client, close: () => client.release(true) };
}
function createFeedListener(pool, channel, onNotify) {
  let current;
  let starting;
  let closed = false;
  async function start() {
    const opened = await openListenConnection(pool);
    let done = false;
    const held = {
      client: opened.client,
      close() {
        if (done) return;
        done = true;
        opened.close();
      }
    };
    opened.client.on("notification", onNotify);
    const drop = () => {
      if (current === held) current = void 0;
      held.close();
    };
    opened.client.on("error", drop);
    opened.client.on("end", drop);
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
    onNotify();
  }
  return {
    ensure() {
      if (closed || current || starting) return;
      starting = start().catch(() => void 0).finally(() => {
        starting = void 0;
      });
    },
    async close() {
      closed = true;
      await starting;
      const held = current;
      current = void 0;
      held?.close();
    }
  };
}

export {
  createFeedListener
};

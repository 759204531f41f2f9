import {
  DEFAULT_LEASE_MS,
  leaseFree
} from "./chunk-GDQPYYGW.js";
import {
  guardPool,
  quoteSchema,
  schemaLockKey
} from "./chunk-YCTECULU.js";
import {
  GENESIS_HASH
} from "./chunk-5UEANXJE.js";
import {
  DriverLeaseLostError,
  SessionBusyError
} from "./chunk-SWJTFAUB.js";

// src/infrastructure/postgres/postgres-session-locker.ts
import pg from "pg";
function createPostgresSessionLocker(pool, schema, options = {}) {
  const s = quoteSchema(schema, "the driver lock");
  const namespace = schemaLockKey(`session-driver:${schema}`);
  const leaseMs = Math.max(300, Math.floor(options.leaseMs ?? DEFAULT_LEASE_MS));
  const name = options.driver ?? "correx driver";
  const held = /* @__PURE__ */ new Set();
  const take = `UPDATE ${s}.sessions r SET driver_epoch = r.driver_epoch + 1, driver = $2,
      driver_backend = CASE WHEN $3 THEN pg_backend_pid() END,
      lease_renewed_at = clock_timestamp(), lease_ms = $4
    WHERE r.session_id = $1 AND ${leaseFree("r", "$5")}
    RETURNING r.driver_epoch, r.last_sequence`;
  const renew = `UPDATE ${s}.sessions SET lease_renewed_at = clock_timestamp(),
      driver_backend = CASE WHEN $3 THEN pg_backend_pid() ELSE driver_backend END
    WHERE session_id = $1 AND driver_epoch = $2 RETURNING 1`;
  return {
    async acquire(sessionId) {
      const client = await pool.connect();
      const errors = [];
      let onLost = (error) => errors.push(error);
      let onEnd = () => errors.push(new Error("the connection ended"));
      const listeners = { error: (error) => onLost(error), end: () => onEnd() };
      client.on("error", listeners.error);
      client.on("end", listeners.end);
      const detach = () => {
        client.off("error", listeners.error);
        client.off("end", listeners.end);
      };
      let locked = false;
      let epoch;
      let record;
      try {
        locked = (await client.query(
          "SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked",
          [namespace, sessionId]
        )).rows[0]?.locked === true;
        await client.query("BEGIN");
        await client.query(
          `INSERT INTO ${s}.sessions (session_id, last_sequence, last_hash) VALUES ($1, 0, $2)
           ON CONFLICT (session_id) DO NOTHING`,
          [sessionId, GENESIS_HASH]
        );
        const taken = (await client.query(take, [
          sessionId,
          name,
          locked,
          leaseMs,
          namespace
        ])).rows[0];
        if (taken === void 0) {
          const holder = (await client.query(
            `SELECT driver FROM ${s}.sessions WHERE session_id = $1`,
            [sessionId]
          )).rows[0]?.driver;
          await client.query("ROLLBACK");
          throw new SessionBusyError(sessionId, holder ?? "another process");
        }
        epoch = Number(taken.driver_epoch);
        if (options.driver !== void 0) {
          const { rows: records } = await client.query(
            `INSERT INTO ${s}.session_drivers (session_id, worker, backend_pid, from_sequence, epoch)
             VALUES ($1, $2, pg_backend_pid(), $3, $4) RETURNING id`,
            [sessionId, options.driver, taken.last_sequence, epoch]
          );
          record = records[0]?.id;
        }
        await client.query("COMMIT");
        if (errors.length > 0) throw errors[0];
      } catch (error) {
        if (!(error instanceof SessionBusyError)) await client.query("ROLLBACK").catch(() => {
        });
        if (locked)
          await client.query("SELECT pg_advisory_unlock($1, hashtext($2))", [namespace, sessionId]).catch(() => void 0);
        if (error instanceof SessionBusyError) {
          detach();
          client.release();
        } else client.release(error);
        throw error;
      }
      const loss = new AbortController();
      let gone = false;
      const lose = (reason) => {
        if (gone) return;
        gone = true;
        clearInterval(timer);
        held.delete(lock);
        loss.abort(new DriverLeaseLostError(sessionId, reason));
        client.release(new Error(reason));
      };
      onLost = (error) => lose(`its lock connection failed (${error.message})`);
      onEnd = () => lose("its lock connection ended");
      let renewing = false;
      let renewedAt = performance.now();
      const renewOnce = async () => {
        if (gone) return;
        if (renewing) {
          if (performance.now() - renewedAt > leaseMs)
            lose(`its lease was not renewed within ${leaseMs} ms`);
          return;
        }
        renewing = true;
        const sent = performance.now();
        try {
          if (!locked)
            locked = (await client.query(
              "SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked",
              [namespace, sessionId]
            )).rows[0]?.locked === true;
          const renewed = await client.query(renew, [sessionId, epoch, locked]);
          if (renewed.rowCount === 0)
            lose(`another process took it (its driver epoch moved past ${epoch})`);
          else renewedAt = sent;
        } catch (error) {
          lose(`its lease could not be renewed (${error.message})`);
        } finally {
          renewing = false;
        }
      };
      const timer = setInterval(() => void renewOnce(), Math.max(100, Math.floor(leaseMs / 3)));
      timer.unref();
      const lock = {
        epoch,
        lost: loss.signal,
        async release() {
          held.delete(lock);
          if (gone) return;
          gone = true;
          clearInterval(timer);
          while (renewing) await new Promise((done) => setTimeout(done, 5));
          try {
            await client.query(
              `UPDATE ${s}.sessions SET driver = NULL, driver_backend = NULL, lease_renewed_at = NULL
               WHERE session_id = $1 AND driver_epoch = $2`,
              [sessionId, epoch]
            );
            if (record !== void 0)
              await client.query(
                `UPDATE ${s}.session_drivers SET released_at = clock_timestamp(),
                   to_sequence = coalesce((SELECT last_sequence FROM ${s}.sessions WHERE session_id = $2), 0)
                 WHERE id = $1`,
                [record, sessionId]
              );
            if (locked)
              await client.query("SELECT pg_advisory_unlock($1, hashtext($2))", [
                namespace,
                sessionId
              ]);
            detach();
            client.release();
          } catch (error) {
            client.release(error);
          }
        }
      };
      held.add(lock);
      return lock;
    },
    // The pool ends only once its clients are back: hand back what is still held first.
    close: async () => {
      for (const lock of [...held]) await lock.release();
      await pool.end();
    }
  };
}
function openPostgresSessionLocker(url, schema, options = {}) {
  const pool = new pg.Pool({
    connectionString: url,
    max: 32,
    allowExitOnIdle: true,
    keepAlive: true,
    application_name: options.driver ?? "correx driver"
  });
  guardPool(pool);
  return createPostgresSessionLocker(pool, schema, options);
}

export {
  createPostgresSessionLocker,
  openPostgresSessionLocker
};

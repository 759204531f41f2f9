import {
  leaseFree
} from "./chunk-GDQPYYGW.js";
import {
  createFeedListener
} from "./chunk-2XSB7GWG.js";
import {
  describeConnectFailure,
  guardPool,
  quoteSchema,
  schemaLockKey
} from "./chunk-YCTECULU.js";
import {
  DEFAULT_POSTGRES_SCHEMA,
  redactConnectionString
} from "./chunk-XESUYX36.js";

// src/infrastructure/postgres/postgres-runnable-sessions.ts
import pg from "pg";
function createRunnableSessions(pool, schema, location) {
  const s = quoteSchema(schema, location);
  const namespace = schemaLockKey(`session-driver:${schema}`);
  const query = async (text, values) => {
    try {
      return (await pool.query(text, values)).rows;
    } catch (error) {
      throw describeConnectFailure(location, error);
    }
  };
  return {
    /** Up to `limit` runnable sessions nobody drives, longest runnable first. */
    async free(limit) {
      const rows = await query(
        `SELECT r.session_id FROM ${s}.sessions r WHERE r.runnable AND ${leaseFree("r", "$1")}
         ORDER BY r.runnable_since LIMIT $2`,
        [namespace, limit]
      );
      return rows.map((row) => row.session_id);
    },
    /** When each session became runnable (null: not runnable). */
    async runnableSince(sessionId) {
      const rows = await query(
        `SELECT runnable_since FROM ${s}.sessions WHERE session_id = $1`,
        [sessionId]
      );
      return rows[0]?.runnable_since ?? null;
    },
    /**
     * The sessions whose lease someone holds, by whom, and how fresh: the head rows name the
     * holder of the current epoch only, so a fenced-out driver is never shown as driving.
     */
    async drivers() {
      const rows = await query(
        `SELECT r.session_id, r.driver, r.driver_epoch,
           (SELECT max(d.acquired_at) FROM ${s}.session_drivers d
             WHERE d.session_id = r.session_id AND d.epoch = r.driver_epoch) AS acquired_at,
           (extract(epoch FROM clock_timestamp() - r.lease_renewed_at) * 1000)::float8 AS lease_age_ms,
           ${leaseFree("r", "$1")} AS stalled
         FROM ${s}.sessions r WHERE r.driver IS NOT NULL AND r.lease_renewed_at IS NOT NULL`,
        [namespace]
      );
      return rows.map((row) => ({
        sessionId: row.session_id,
        driver: row.driver,
        since: (row.acquired_at ?? /* @__PURE__ */ new Date(0)).toISOString(),
        epoch: Number(row.driver_epoch),
        leaseAgeMs: Math.max(0, Math.round(row.lease_age_ms)),
        stalled: row.stalled
      }));
    },
    /** Every driver record of a session, oldest first. */
    async driverRecords(sessionId) {
      const rows = await query(
        `SELECT worker, from_sequence, to_sequence FROM ${s}.session_drivers
         WHERE session_id = $1 ORDER BY id`,
        [sessionId]
      );
      return rows.map((row) => ({
        sessionId,
        driver: row.worker,
        fromSequence: Number(row.from_sequence),
        toSequence: row.to_sequence === null ? null : Number(row.to_sequence)
      }));
    },
    /** Who wrote each event of a session (the connection's application name), by sequence. */
    async writers(sessionId) {
      const rows = await query(
        `SELECT sequence, writer FROM ${s}.events WHERE session_id = $1 ORDER BY sequence`,
        [sessionId]
      );
      return rows.map((row) => ({ sequence: Number(row.sequence), writer: row.writer }));
    },
    /** LISTENs for sessions becoming runnable until the returned function is called. */
    listen(onRunnable) {
      const listener = createFeedListener(pool, `correx_runnable_${schema}`, onRunnable);
      listener.ensure();
      return listener;
    }
  };
}
function openRunnableSessions(url, applicationName, schema = DEFAULT_POSTGRES_SCHEMA) {
  const pool = new pg.Pool({
    connectionString: url,
    max: 2,
    allowExitOnIdle: true,
    application_name: applicationName,
    keepAlive: true
  });
  guardPool(pool);
  return {
    sessions: createRunnableSessions(pool, schema, redactConnectionString(url)),
    close: () => pool.end()
  };
}

export {
  createRunnableSessions,
  openRunnableSessions
};

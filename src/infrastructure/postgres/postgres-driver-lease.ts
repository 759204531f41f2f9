/**
 * The lease on a session's head row (migration 4, docs/postgres.md "Fencing"), as SQL shared by
 * the driver lock (postgres-session-locker.ts) and the runnable listing
 * (postgres-runnable-sessions.ts): both must agree on when a session is free to take.
 */

/** How long a lease holds without a renewal, by default. */
export const DEFAULT_LEASE_MS = 30_000;

/**
 * True when the session on head row `r` may be taken by a new driver: nobody holds its lease;
 * or its holder stopped renewing for longer than the lease it declared (the server's clock);
 * or the connection that held the session's advisory lock for its holder is gone (the holder
 * died, or its lock connection was ended). `namespace` is the SQL of the advisory-lock class.
 */
export function leaseFree(r: string, namespace: string): string {
  return `(${r}.driver IS NULL OR ${r}.lease_renewed_at IS NULL
    OR ${leaseExpired(r)}
    OR (${r}.driver_backend IS NOT NULL AND NOT EXISTS (SELECT 1 FROM pg_locks l
      WHERE l.locktype = 'advisory' AND l.classid = ${namespace}::int
        AND l.objid = hashtext(${r}.session_id)::oid AND l.granted AND l.pid = ${r}.driver_backend)))`;
}

/** True when the holder of head row `r` has not renewed its lease for longer than it declared. */
export function leaseExpired(r: string): string {
  return `${r}.lease_renewed_at < clock_timestamp() - make_interval(secs => coalesce(${r}.lease_ms, ${DEFAULT_LEASE_MS}) / 1000.0)`;
}

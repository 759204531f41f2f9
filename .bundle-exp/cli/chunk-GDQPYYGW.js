// src/infrastructure/postgres/postgres-driver-lease.ts
var DEFAULT_LEASE_MS = 3e4;
function leaseFree(r, namespace) {
  return `(${r}.driver IS NULL OR ${r}.lease_renewed_at IS NULL
    OR ${leaseExpired(r)}
    OR (${r}.driver_backend IS NOT NULL AND NOT EXISTS (SELECT 1 FROM pg_locks l
      WHERE l.locktype = 'advisory' AND l.classid = ${namespace}::int
        AND l.objid = hashtext(${r}.session_id)::oid AND l.granted AND l.pid = ${r}.driver_backend)))`;
}
function leaseExpired(r) {
  return `${r}.lease_renewed_at < clock_timestamp() - make_interval(secs => coalesce(${r}.lease_ms, ${DEFAULT_LEASE_MS}) / 1000.0)`;
}

export {
  DEFAULT_LEASE_MS,
  leaseFree
};

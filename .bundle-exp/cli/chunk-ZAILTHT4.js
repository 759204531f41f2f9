// src/interfaces/session-lease.ts
function leaseColumns(view) {
  return view === void 0 ? { driver: null, leaseAgeMs: null, stalled: false } : { driver: view.driver, leaseAgeMs: view.leaseAgeMs, stalled: view.stalled };
}
function describeLease(columns) {
  if (columns.leaseAgeMs === null) return "-";
  const age = `${(columns.leaseAgeMs / 1e3).toFixed(1)}s`;
  return columns.stalled ? `${age} stalled` : age;
}
function lockColumns(host, sessionId) {
  const holder = host.lockHolder?.(sessionId) ?? null;
  return holder === null ? {} : { driver: holder };
}

export {
  leaseColumns,
  describeLease,
  lockColumns
};

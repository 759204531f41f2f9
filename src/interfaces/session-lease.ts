/** A session's driver on a shared store, and how fresh its lease is (docs/postgres.md "Fencing"). */
export type SessionLeaseView = {
  readonly driver: string;
  /** Since its driver last renewed the lease, in ms (the server's clock). */
  readonly leaseAgeMs: number;
  /** Its driver neither renewed nor kept its lock connection within its lease: it may be taken over. */
  readonly stalled: boolean;
};

/**
 * The lease columns of one listed session, the same in `correx sessions`, the REST list and the
 * live list: who drives it, how old its lease is, and whether it is stalled.
 */
export function leaseColumns(view: SessionLeaseView | undefined): {
  readonly driver: string | null;
  readonly leaseAgeMs: number | null;
  readonly stalled: boolean;
} {
  return view === undefined
    ? { driver: null, leaseAgeMs: null, stalled: false }
    : { driver: view.driver, leaseAgeMs: view.leaseAgeMs, stalled: view.stalled };
}

/** The lease as a table cell: `-`, `1.2s`, or `45.0s stalled`. */
export function describeLease(columns: ReturnType<typeof leaseColumns>): string {
  if (columns.leaseAgeMs === null) return '-';
  const age = `${(columns.leaseAgeMs / 1000).toFixed(1)}s`;
  return columns.stalled ? `${age} stalled` : age;
}

/**
 * Who holds a session's driver lock, where the store's locks can be read (SQLite's lock files)
 * and no shared store names drivers: `driver` without a lease age (file locks have none).
 */
export function lockColumns(
  host: { readonly lockHolder?: ((sessionId: string) => string | null) | undefined },
  sessionId: string,
): { readonly driver?: string } {
  const holder = host.lockHolder?.(sessionId) ?? null;
  return holder === null ? {} : { driver: holder };
}

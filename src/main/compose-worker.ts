import { hostname } from 'node:os';
import type { Clock } from '../core/base/clock.js';
import type { IdSource } from '../core/base/id-source.js';
import { CorrexError } from '../core/base/correx-error.js';
import type { CorrexEvent } from '../core/event-catalog.js';
import { openStores, parseStoreLocation } from '../infrastructure/open-store.js';
import { DEFAULT_POSTGRES_SCHEMA } from '../infrastructure/postgres/postgres-connection.js';
import { openRunnableSessions } from '../infrastructure/postgres/postgres-runnable-sessions.js';
import { openPostgresSessionLocker } from '../infrastructure/postgres/postgres-session-locker.js';
import { composeSessionHost } from './compose-host.js';
import { startSessionWorker, type SessionWorker } from './session-worker.js';

/** Workers need the shared store: a SQLite file has no runnable table and no network lease. */
export class WorkerStoreError extends CorrexError {
  constructor(location: string) {
    super(
      'store_location_invalid',
      `correx worker needs a postgres:// store (got "${location}"): workers share one PostgreSQL log`,
    );
  }
}

/** A name that tells machines and processes apart in driver records and `correx sessions`. */
export function driverName(role: string): string {
  return `correx ${role} ${hostname()}:${process.pid}`;
}

export type ComposeWorkerOptions = {
  readonly location: string;
  readonly concurrency: number;
  readonly sweepMs: number;
  /** How long a driver lease holds without a renewal (default 30 s, docs/postgres.md). */
  readonly leaseMs?: number;
  readonly correxHome: string;
  readonly clock: Clock;
  readonly ids: IdSource;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly notice: (line: string, unsandboxed: boolean) => void;
  readonly onEvent?: (event: CorrexEvent) => void;
  readonly onTaken?: (sessionId: string) => void;
  readonly onStopped?: (sessionId: string, status: string) => void;
  readonly onError?: (sessionId: string | null, error: unknown) => void;
  readonly onReconnected?: () => void;
};

/** A running worker and what it holds open (its stores, its locks' pool). */
export type ComposedWorker = SessionWorker & { close(): Promise<void> };

/**
 * Wires a worker: the store's connections named after it (so every event it appends names its
 * writer), a driver lock per session that writes driver records, and a session host.
 */
export async function composeWorker(options: ComposeWorkerOptions): Promise<ComposedWorker> {
  const parsed = parseStoreLocation(options.location);
  if (parsed.kind !== 'postgres') throw new WorkerStoreError(options.location);
  const name = driverName('worker');
  const stores = await openStores(options.location, {
    applicationName: name,
    maxConnections: Math.max(10, options.concurrency * 2),
  });
  const locker = openPostgresSessionLocker(parsed.url, DEFAULT_POSTGRES_SCHEMA, {
    driver: name,
    ...(options.leaseMs === undefined ? {} : { leaseMs: options.leaseMs }),
  });
  const runnable = openRunnableSessions(parsed.url, name);
  const host = await composeSessionHost({
    store: stores.events,
    locker,
    correxHome: options.correxHome,
    protectedPaths: [],
    clock: options.clock,
    ids: options.ids,
    env: options.env,
    notice: options.notice,
    ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
  });
  const worker = startSessionWorker({
    name,
    host,
    runnable: runnable.sessions,
    store: stores.events,
    clock: options.clock,
    ids: options.ids,
    concurrency: options.concurrency,
    sweepMs: options.sweepMs,
    ...(options.onTaken === undefined ? {} : { onTaken: options.onTaken }),
    ...(options.onStopped === undefined ? {} : { onStopped: options.onStopped }),
    ...(options.onError === undefined ? {} : { onError: options.onError }),
    ...(options.onReconnected === undefined ? {} : { onReconnected: options.onReconnected }),
  });
  return {
    ...worker,
    async close() {
      await locker.close();
      await runnable.close();
      await stores.close();
    },
  };
}

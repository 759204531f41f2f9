import { CorrexError } from '../../core/base/correx-error.js';

/** Another live process drives the session; driving it here too could run an effect twice. */
export class SessionBusyError extends CorrexError {
  constructor(sessionId: string, holder: string) {
    super(
      'session_busy',
      `session ${sessionId} is being driven by ${holder}; stop that process first (Ctrl-C pauses it), then resume here`,
    );
  }
}

/**
 * This process lost its lease on a session (its lock connection ended, a renewal failed or
 * found another driver): it stops driving the session at once. Nothing more is appended by it
 * as driver; whoever takes the session next classifies what it left unfinished.
 */
export class DriverLeaseLostError extends CorrexError {
  constructor(
    readonly sessionId: string,
    /** What ended the lease, in words. */
    readonly reason: string,
  ) {
    super(
      'driver_lease_lost',
      `lost the session ${sessionId}: ${reason}; this process stopped driving it`,
    );
  }
}

/**
 * A held driver lease. `epoch` is the session's driver epoch this holder took (see
 * `EventStore.takeDriverEpoch`): every append it makes as driver carries it, and the store
 * refuses it once anyone took the session since. `lost` aborts when the lease ends without
 * `release` (its connection ended, a renewal failed or found another driver).
 */
export type SessionLock = {
  readonly epoch?: number;
  readonly lost?: AbortSignal;
  release(): Promise<void>;
};

/**
 * Who may drive a session: one process at a time, whatever the store. A lock file beside an
 * embedded store, a lease on the session's head row of a shared PostgreSQL server. A holder
 * that dies releases it; a holder that stops renewing loses it (docs/postgres.md "Fencing").
 */
export interface SessionLocker {
  /** Takes the session's driver lease (moving its driver epoch on), or throws `SessionBusyError`. */
  acquire(sessionId: string): Promise<SessionLock>;
  close(): Promise<void>;
}

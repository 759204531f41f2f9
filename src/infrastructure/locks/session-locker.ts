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

export type SessionLock = { release(): Promise<void> };

/**
 * Who may drive a session: one process at a time, whatever the store. A lock file beside an
 * embedded store, an advisory lock on a shared PostgreSQL server. A holder that dies releases it.
 */
export interface SessionLocker {
  /** Takes the session's driver lock, or throws `SessionBusyError`. */
  acquire(sessionId: string): Promise<SessionLock>;
  close(): Promise<void>;
}

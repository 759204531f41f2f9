import { CorrexError } from '../../base/correx-error.js';

/** A command cannot apply to the session as it stands (approving a call nobody asked about...). */
export class KernelCommandError extends CorrexError {
  constructor(
    code:
      | 'approval_not_pending'
      | 'invalid_command'
      | 'session_finished'
      | 'session_not_finished'
      | 'turns_not_recorded',
    message: string,
  ) {
    super(code, message);
  }
}

/**
 * The kernel found its own bookkeeping inconsistent (a rebuilt request whose digest differs from
 * the recorded one, a decide loop that does not settle). A bug, never a domain outcome.
 */
export class KernelInvariantError extends CorrexError {
  constructor(message: string) {
    super('kernel_invariant', message);
  }
}

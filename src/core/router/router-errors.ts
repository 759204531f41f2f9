import { CorrexError } from '../base/correx-error.js';

/** The user's input cannot be answered or recorded as it is (empty, too long for a note). */
export class RouterInputError extends CorrexError {
  constructor(message: string) {
    super('router_input_invalid', message);
  }
}

/** A steering note was sent to a session with no events: there is nothing to steer. */
export class RouterUnknownSessionError extends CorrexError {
  constructor(readonly sessionId: string) {
    super('router_session_not_found', `no session ${sessionId}: a steering note needs a session`);
  }
}

/** A steering note was sent to a session that has ended: no model call would ever read it. */
export class RouterSessionFinishedError extends CorrexError {
  constructor(
    readonly sessionId: string,
    status: string,
  ) {
    super(
      'router_session_finished',
      `session ${sessionId} is ${status}; a steering note could never reach its model`,
    );
  }
}

/** No model profile can serve the router, or the profile's provider is not wired. */
export class RouterWiringError extends CorrexError {
  constructor(message: string) {
    super('router_wiring', message);
  }
}

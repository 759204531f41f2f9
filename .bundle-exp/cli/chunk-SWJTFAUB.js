import {
  CorrexError
} from "./chunk-BDZLLWVY.js";

// src/infrastructure/locks/session-locker.ts
var SessionBusyError = class extends CorrexError {
  constructor(sessionId, holder) {
    super(
      "session_busy",
      `session ${sessionId} is being driven by ${holder}; stop that process first (Ctrl-C pauses it), then resume here`
    );
  }
};
var DriverLeaseLostError = class extends CorrexError {
  constructor(sessionId, reason) {
    super(
      "driver_lease_lost",
      `lost the session ${sessionId}: ${reason}; this process stopped driving it`
    );
    this.sessionId = sessionId;
    this.reason = reason;
  }
  sessionId;
  reason;
};

export {
  SessionBusyError,
  DriverLeaseLostError
};

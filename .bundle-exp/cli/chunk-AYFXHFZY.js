import {
  CorrexError
} from "./chunk-BDZLLWVY.js";

// src/core/events/corrupt-event-error.ts
var CorruptEventError = class extends CorrexError {
  constructor(sessionId, sequence, reason, detail) {
    super("corrupt_event", `session ${sessionId}, sequence ${sequence}: ${reason}: ${detail}`);
    this.sessionId = sessionId;
    this.sequence = sequence;
    this.reason = reason;
  }
  sessionId;
  sequence;
  reason;
};

export {
  CorruptEventError
};

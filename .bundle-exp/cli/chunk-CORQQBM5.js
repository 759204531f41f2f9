import {
  CorrexError
} from "./chunk-BDZLLWVY.js";

// src/core/events/concurrency-error.ts
var ConcurrencyError = class extends CorrexError {
  constructor(sessionId, expectedSequence, actualSequence) {
    super(
      "concurrency_conflict",
      `session ${sessionId}: expected last sequence ${expectedSequence}, but it is ${actualSequence}`
    );
    this.sessionId = sessionId;
    this.expectedSequence = expectedSequence;
    this.actualSequence = actualSequence;
  }
  sessionId;
  expectedSequence;
  actualSequence;
};

export {
  ConcurrencyError
};

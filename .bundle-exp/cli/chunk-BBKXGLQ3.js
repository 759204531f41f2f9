import {
  CorrexError
} from "./chunk-BDZLLWVY.js";

// src/infrastructure/mcp/mcp-errors.ts
var McpError = class extends CorrexError {
  constructor(failure, message, options) {
    super(failure, message, options);
    this.failure = failure;
  }
  failure;
};

export {
  McpError
};

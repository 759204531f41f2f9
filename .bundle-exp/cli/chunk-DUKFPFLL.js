import {
  storeLocation
} from "./chunk-UBE6EJMR.js";

// src/interfaces/cli/driven-status.ts
async function drivenStatus(context, command, sessionId, status) {
  if (status !== "running" || context.sessionDriver === void 0) return status;
  const driver = await context.sessionDriver(storeLocation(context, command), sessionId);
  return driver === null ? "interrupted (nobody driving)" : status;
}

export {
  drivenStatus
};

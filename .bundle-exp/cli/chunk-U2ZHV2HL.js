// src/interfaces/pending-approval-details.ts
var empty = (callId) => ({
  callId,
  proposal: null,
  assessment: null,
  request: null
});
function collectApprovalDetails(events, callIds) {
  const details = /* @__PURE__ */ new Map();
  for (const callId of callIds) details.set(callId, empty(callId));
  for (const event of events) {
    const payload = event.payload;
    if (!("callId" in payload) || typeof payload.callId !== "string") continue;
    const entry = details.get(payload.callId);
    if (entry === void 0) continue;
    if (payload.type === "tool_call_proposed") {
      details.set(payload.callId, {
        ...entry,
        proposal: { stageId: payload.stageId, tool: payload.tool, argsRaw: payload.argsRaw }
      });
    } else if (payload.type === "tool_call_assessed") {
      const { verdict, tier, risk, targets, findings } = payload;
      details.set(payload.callId, {
        ...entry,
        assessment: { verdict, tier, risk, targets, findings }
      });
    } else if (payload.type === "approval_requested") {
      const { tool, tier, reason } = payload;
      details.set(payload.callId, {
        ...entry,
        request: { sequence: event.sequence, tool, tier, reason }
      });
    }
  }
  return details;
}
var WINDOW = 200;
var MAX_LOOKBACK = 2e3;
async function readApprovalDetails(store, sessionId, callIds, options = {}) {
  if (callIds.length === 0) return /* @__PURE__ */ new Map();
  const missing = new Set(callIds);
  const windows = [];
  let upTo = options.upToSequence ?? await store.lastSequence(sessionId);
  let read = 0;
  while (upTo > 0 && read < MAX_LOOKBACK && missing.size > 0) {
    const from = Math.max(0, upTo - WINDOW);
    const page = await store.read(sessionId, { afterSequence: from, limit: upTo - from });
    windows.unshift(page);
    read += page.length;
    upTo = from;
    for (const { payload } of page) {
      if (payload.type === "tool_call_proposed") missing.delete(payload.callId);
    }
  }
  return collectApprovalDetails(windows.flat(), callIds);
}

export {
  collectApprovalDetails,
  readApprovalDetails
};

import {
  exportSessionTrace
} from "./chunk-IT46FQQA.js";
import {
  sessionSpans
} from "./chunk-CQXC2TVF.js";
import "./chunk-BDZLLWVY.js";

// src/infrastructure/telemetry/live-trace-exporter.ts
var FINAL = /* @__PURE__ */ new Set(["workflow_completed", "workflow_failed", "workflow_cancelled"]);
function createLiveTraceExporter(settings, report) {
  const events = /* @__PURE__ */ new Map();
  const children = /* @__PURE__ */ new Set();
  const inFlight = /* @__PURE__ */ new Set();
  return {
    onEvent(event) {
      const list = events.get(event.sessionId) ?? [];
      list.push(event);
      events.set(event.sessionId, list);
      if (event.payload.type === "subagent_started") children.add(event.payload.childSessionId);
      if (!FINAL.has(event.payload.type) || children.has(event.sessionId)) return;
      const spans = sessionSpans(event.sessionId, (id) => events.get(id) ?? []);
      const sending = exportSessionTrace(spans, settings).catch(report).finally(() => inFlight.delete(sending));
      inFlight.add(sending);
    },
    async settled() {
      await Promise.all([...inFlight]);
    }
  };
}
export {
  createLiveTraceExporter
};

import {
  replaySession
} from "./chunk-OYJRPCLU.js";
import "./chunk-COPIES7C.js";
import "./chunk-CORQQBM5.js";
import "./chunk-IRD534JB.js";
import "./chunk-A7ITNCWT.js";
import "./chunk-W32ANIA4.js";
import "./chunk-AYFXHFZY.js";
import "./chunk-7N5K7NRY.js";
import "./chunk-BDZLLWVY.js";

// src/interfaces/eval/replay-gate.ts
async function replayGate(store, sessions, sha256) {
  const results = [];
  for (const { sessionId, source } of sessions) {
    try {
      const report = await replaySession(store, sessionId, void 0, { sha256 });
      const events = await store.lastSequence(sessionId);
      results.push(
        report.ok ? { sessionId, source, events, decided: report.decided, ok: true } : {
          sessionId,
          source,
          events,
          decided: 0,
          ok: false,
          divergence: describeDivergence(report.divergence, sha256)
        }
      );
    } catch (error) {
      results.push({
        sessionId,
        source,
        events: 0,
        decided: 0,
        ok: false,
        error: error instanceof Error ? error.message : String(error)
      });
    }
  }
  return {
    ok: results.every((result) => result.ok),
    sessions: results,
    events: results.reduce((sum, result) => sum + result.events, 0),
    decided: results.reduce((sum, result) => sum + result.decided, 0)
  };
}
function joinReports(reports) {
  const sessions = reports.flatMap((report) => report.sessions);
  return {
    ok: sessions.every((session) => session.ok),
    sessions,
    events: reports.reduce((sum, report) => sum + report.events, 0),
    decided: reports.reduce((sum, report) => sum + report.decided, 0)
  };
}
function describeDivergence(divergence, sha256) {
  const derived = parse(divergence.expected);
  const recorded = parse(divergence.actual);
  return {
    sequence: divergence.sequence,
    reason: divergence.reason,
    derived: side(divergence.expected, derived, sha256),
    recorded: side(divergence.actual, recorded, sha256),
    fields: differingFields(derived, recorded),
    derivedText: divergence.expected,
    recordedText: divergence.actual
  };
}
function parse(text) {
  return text === null ? null : JSON.parse(text);
}
function side(text, identity, sha256) {
  const type = identity?.payload?.type;
  return {
    type: typeof type === "string" ? type : null,
    sha256: text === null ? null : sha256(text)
  };
}
function differingFields(derived, recorded) {
  if (derived === null || recorded === null) return [];
  const fields = [];
  const differs = (a2, b2) => JSON.stringify(a2) !== JSON.stringify(b2);
  for (const key of (/* @__PURE__ */ new Set([...Object.keys(derived), ...Object.keys(recorded)])).values()) {
    if (key === "payload") continue;
    if (differs(derived[key], recorded[key])) fields.push(key);
  }
  const a = derived.payload ?? {};
  const b = recorded.payload ?? {};
  for (const key of [.../* @__PURE__ */ new Set([...Object.keys(a), ...Object.keys(b)])].sort())
    if (differs(a[key], b[key])) fields.push(`payload.${key}`);
  return fields;
}
export {
  joinReports,
  replayGate
};

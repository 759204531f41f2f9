import {
  runSummary
} from "./chunk-JKRDLZET.js";
import {
  recordedFileContent
} from "./chunk-DZXTZ55Z.js";
import "./chunk-UVXJS6JF.js";
import {
  unifiedDiff
} from "./chunk-NR7OTU2D.js";
import {
  recordedChanges
} from "./chunk-OYJRPCLU.js";
import "./chunk-COPIES7C.js";
import "./chunk-CORQQBM5.js";
import "./chunk-IRD534JB.js";
import "./chunk-A7ITNCWT.js";
import {
  canonicalJson
} from "./chunk-W32ANIA4.js";
import "./chunk-AYFXHFZY.js";
import "./chunk-7N5K7NRY.js";
import "./chunk-BDZLLWVY.js";

// src/interfaces/cli/session-comparison.ts
import { relative } from "node:path";

// src/interfaces/first-difference.ts
var DERIVED_FIELDS = /* @__PURE__ */ new Set([
  "hash",
  "artifactHash",
  "parents",
  "inferenceEventId",
  "packDigest",
  "requestDigest",
  "manifest",
  "tokenEstimate",
  "latencyMs",
  "durationMs",
  "elapsedMs"
]);
function firstDifference(a, b) {
  const left = normalizer(a);
  const right = normalizer(b);
  const length = Math.max(a.length, b.length);
  for (let index = 0; index < length; index++) {
    const x = a[index];
    const y = b[index];
    if (x?.payload.type === "session_configured" && y?.payload.type === "session_configured")
      continue;
    if (x === void 0 || y === void 0 || x.payload.type !== y.payload.type)
      return {
        sequence: index + 1,
        a: x?.payload.type ?? null,
        b: y?.payload.type ?? null,
        fields: []
      };
    const px = left(x.payload);
    const py = right(y.payload);
    const fields = differingPaths(px, py, "payload", 3);
    if (fields.length > 0)
      return { sequence: index + 1, a: x.payload.type, b: y.payload.type, fields };
  }
  return null;
}
function configurationDifferences(a, b) {
  const config = (events) => {
    const first = events[0]?.payload;
    return first?.type === "session_configured" ? first.configuration : {};
  };
  const x = config(a);
  const y = config(b);
  return [.../* @__PURE__ */ new Set([...Object.keys(x), ...Object.keys(y)])].sort().filter((key) => canonicalJson(x[key] ?? null) !== canonicalJson(y[key] ?? null));
}
function normalizer(events) {
  const replacements = [];
  const sessionId = events[0]?.sessionId;
  for (const event of events) {
    const payload = event.payload;
    if (payload.type === "session_created") replacements.push([payload.workspace, "<workspace>"]);
    if (payload.type === "artifact_proposed")
      replacements.push([payload.hash, `<artifact:${payload.kind}>`]);
  }
  if (sessionId !== void 0) replacements.push([sessionId, "<session>"]);
  return (payload) => {
    let text = canonicalJson(payload);
    for (const [from, to] of replacements) text = text.split(from).join(to);
    return withoutDerived(JSON.parse(text));
  };
}
function withoutDerived(value) {
  if (Array.isArray(value)) return value.map(withoutDerived);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).filter(([key]) => !DERIVED_FIELDS.has(key)).map(([key, inner]) => [key, withoutDerived(inner)])
  );
}
function differingPaths(x, y, prefix, depth) {
  const object = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
  if (canonicalJson(x ?? null) === canonicalJson(y ?? null)) return [];
  if (depth === 0 || !object(x) || !object(y)) return [prefix];
  return [.../* @__PURE__ */ new Set([...Object.keys(x), ...Object.keys(y)])].sort().flatMap((key) => differingPaths(x[key], y[key], `${prefix}.${key}`, depth - 1));
}

// src/interfaces/cli/session-comparison.ts
function compareSessions(a, b, stored, sha256) {
  const rootA = a.logs.get(a.sessionId) ?? [];
  const rootB = b.logs.get(b.sessionId) ?? [];
  return {
    a: side(a.sessionId, a.logs, stored, sha256),
    b: side(b.sessionId, b.logs, stored, sha256),
    configurationDiffers: configurationDifferences(rootA, rootB),
    firstDifference: firstDifference(rootA, rootB),
    files: compareFiles(a, b, stored, sha256)
  };
}
function side(sessionId, logs, stored, sha256) {
  const summary = runSummary(sessionId, logs, stored, sha256);
  const root = logs.get(sessionId) ?? [];
  const all = [...logs.values()].flat();
  const models = [];
  let task = null;
  for (const event of root) {
    const payload = event.payload;
    if (payload.type === "session_created") task = payload.task;
  }
  for (const event of all) {
    const payload = event.payload;
    if (payload.type !== "inference_requested") continue;
    const name = `${payload.profileId} (${payload.model})`;
    if (!models.includes(name)) models.push(name);
  }
  const first = root[0]?.timestamp;
  const last = root.at(-1)?.timestamp;
  return {
    sessionId,
    task,
    models,
    status: summary.status,
    failure: summary.failureReason === null ? null : `${summary.failureReason.category}: ${summary.failureReason.message}`,
    checks: summary.checks.map((check) => ({ name: check.name, passed: check.passed })),
    filesChanged: summary.filesChanged.map((file) => ({
      ...file,
      path: summary.workspace === null ? file.path : relative(summary.workspace, file.path)
    })),
    tokens: summary.tokens,
    cost: summary.cost,
    approvalsAsked: all.filter((event) => event.payload.type === "approval_requested").length,
    policyBlocks: all.filter(
      (event) => event.payload.type === "tool_call_assessed" && event.payload.verdict === "BLOCK"
    ).length,
    events: root.length,
    durationMs: first === void 0 || last === void 0 ? 0 : Date.parse(last) - Date.parse(first)
  };
}
function finalStates(sessionId, logs, stored, sha256) {
  const states = /* @__PURE__ */ new Map();
  for (const events of logs.values()) {
    const workspace = workspaceOf(logs.get(sessionId) ?? events);
    const text = (hash, path, before) => {
      if (hash === null) return "";
      const kept = stored(hash);
      if (kept !== null) return kept;
      const logged = recordedFileContent(events, path, before);
      return logged !== void 0 && sha256(logged) === hash ? logged : null;
    };
    for (const change of recordedChanges(events))
      for (const file of change.files) {
        const path = workspace === null ? file.path : relative(workspace, file.path);
        const earlier = states.get(path);
        const before = earlier === void 0 ? file.before : earlier.before;
        states.set(path, {
          change: file.access === "delete" || file.after === null ? "deleted" : before === null ? "created" : "modified",
          before,
          after: file.after,
          text: text(file.after, file.path, change.sequence + 1),
          base: earlier === void 0 ? text(file.before, file.path, change.sequence) : earlier.base
        });
      }
  }
  return states;
}
function workspaceOf(events) {
  for (const event of events)
    if (event.payload.type === "session_created") return event.payload.workspace;
  return null;
}
function compareFiles(a, b, stored, sha256) {
  const left = finalStates(a.sessionId, a.logs, stored, sha256);
  const right = finalStates(b.sessionId, b.logs, stored, sha256);
  const paths = [.../* @__PURE__ */ new Set([...left.keys(), ...right.keys()])].sort();
  return paths.map((path) => {
    const x = left.get(path);
    const y = right.get(path);
    const hashA = x === void 0 ? y.before : x.after;
    const hashB = y === void 0 ? x.before : y.after;
    const textA = x === void 0 ? y.base : x.text;
    const textB = y === void 0 ? x.base : y.text;
    const same = hashA === hashB;
    return {
      path,
      a: x === void 0 || x.before === x.after ? "unchanged" : x.change,
      b: y === void 0 || y.before === y.after ? "unchanged" : y.change,
      same,
      diff: same ? [] : textA === null || textB === null ? null : unifiedDiff(textA, textB)
    };
  });
}
export {
  compareSessions
};

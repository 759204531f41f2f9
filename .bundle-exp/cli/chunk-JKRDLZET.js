import {
  recordedFileContent
} from "./chunk-DZXTZ55Z.js";
import {
  EXIT_CODES
} from "./chunk-UVXJS6JF.js";
import {
  unifiedDiff
} from "./chunk-NR7OTU2D.js";
import {
  INITIAL_BUDGET,
  evolveBudget,
  recordedChanges,
  sessionProjection,
  sessionSpend
} from "./chunk-OYJRPCLU.js";

// src/interfaces/cli/run-summary.ts
async function readSessionLogs(store, sessionId) {
  const logs = /* @__PURE__ */ new Map();
  const visit = async (id) => {
    if (logs.has(id)) return;
    const events = await store.read(id);
    logs.set(id, events);
    for (const event of events)
      if (event.payload.type === "subagent_started") await visit(event.payload.childSessionId);
  };
  await visit(sessionId);
  return logs;
}
function runSummary(sessionId, logs, stored, sha256) {
  const root = logs.get(sessionId) ?? [];
  let state = sessionProjection.initial();
  let budget = INITIAL_BUDGET;
  for (const event of root) {
    state = sessionProjection.evolve(state, event);
    budget = evolveBudget(budget, event);
  }
  const subSessions = [...logs.keys()].filter((id) => id !== sessionId);
  const tokens = { input: 0, output: 0 };
  let cost = null;
  const checks = /* @__PURE__ */ new Map();
  const files = /* @__PURE__ */ new Map();
  for (const [id, events] of logs) {
    const spend = sessionSpend(events);
    tokens.input += spend.tokens.input;
    tokens.output += spend.tokens.output;
    if (spend.costUsd !== null) cost = (cost ?? 0) + spend.costUsd;
    for (const event of events) {
      const payload = event.payload;
      if (payload.type !== "dod_check_ran") continue;
      checks.delete(payload.name);
      checks.set(payload.name, {
        name: payload.name,
        command: payload.command,
        stageId: payload.stageId,
        passed: payload.outcome === "completed" && payload.exitCode === 0,
        exitCode: payload.exitCode,
        sequence: event.sequence,
        sessionId: id
      });
    }
    for (const file of changedFiles(events, stored, sha256)) files.set(file.path, file);
  }
  const waitingFor = waitingOf(state, budget.stop, logs, subSessions);
  const summary = {
    type: "summary",
    sessionId,
    workspace: state.workspace,
    status: state.status,
    failureReason: state.failure && { ...state.failure },
    waitingFor,
    checks: [...checks.values()],
    filesChanged: [...files.values()].sort((a, b) => a.path < b.path ? -1 : 1),
    tokens,
    cost,
    subSessions,
    lastSequence: state.lastSequence
  };
  return {
    ...summary,
    exitCode: exitCodeOf(summary.status, summary.failureReason?.category ?? null),
    next: nextCommands(sessionId, summary.status, waitingFor, summary.filesChanged.length > 0)
  };
}
function exitCodeOf(status, failure) {
  switch (status) {
    case "completed":
      return EXIT_CODES.ok;
    case "failed":
      return failure === "configuration" ? EXIT_CODES.usage : EXIT_CODES.failed;
    case "cancelled":
      return EXIT_CODES.cancelled;
    default:
      return EXIT_CODES.waitingForPerson;
  }
}
function waitingOf(state, stop, logs, subSessions) {
  if (state.status === "completed" || state.status === "failed" || state.status === "cancelled")
    return null;
  if (state.pendingApprovals.length > 0)
    return { kind: "approval", sessionId: state.sessionId ?? "", calls: state.pendingApprovals };
  for (const id of subSessions) {
    let child = sessionProjection.initial();
    for (const event of logs.get(id) ?? []) child = sessionProjection.evolve(child, event);
    if (child.pendingApprovals.length > 0 && child.status !== "cancelled")
      return { kind: "approval", sessionId: id, calls: child.pendingApprovals };
  }
  if (stop !== null) return { kind: "budget", budget: stop.budget, limit: stop.limit };
  return { kind: "resume" };
}
var BUDGET_FLAG = {
  tokens: "--max-tokens N",
  cost: "--max-cost USD",
  duration: "--max-duration 1h"
};
function nextCommands(id, status, waitingFor, changed) {
  const next = [];
  if (waitingFor?.kind === "approval") {
    const call = waitingFor.calls[0].callId;
    next.push(
      `correx approve ${waitingFor.sessionId} ${call}`,
      `correx deny ${waitingFor.sessionId} ${call} --reason ...`
    );
  }
  if (waitingFor?.kind === "budget")
    next.push(`correx resume ${id} ${BUDGET_FLAG[waitingFor.budget]}`);
  else if (waitingFor !== null) next.push(`correx resume ${id}`);
  next.push(`correx show ${id}`);
  if (changed) next.push(`correx diff ${id}`, `correx undo ${id}`);
  if (status === "completed" || status === "failed") next.push(`correx replay ${id} --verify`);
  return next;
}
function changedFiles(events, stored, sha256) {
  const spans = /* @__PURE__ */ new Map();
  for (const change of recordedChanges(events))
    for (const file of change.files) {
      const span = spans.get(file.path);
      if (span === void 0)
        spans.set(file.path, {
          before: file.before,
          first: change.sequence,
          after: file.after,
          last: change.sequence
        });
      else spans.set(file.path, { ...span, after: file.after, last: change.sequence });
    }
  const text = (hash, path, before) => {
    if (hash === null) return "";
    const kept = stored(hash);
    if (kept !== null) return kept;
    const logged = recordedFileContent(events, path, before);
    return logged !== void 0 && sha256(logged) === hash ? logged : null;
  };
  const files = [];
  for (const [path, span] of spans) {
    if (span.before === span.after) continue;
    const change = span.before === null ? "created" : span.after === null ? "deleted" : "modified";
    const before = text(span.before, path, span.first);
    const after = text(span.after, path, span.last + 1);
    const hunks = before === null || after === null ? null : unifiedDiff(before, after);
    files.push({
      path,
      change,
      added: hunks === null ? null : hunks.filter((line) => line.startsWith("+")).length,
      removed: hunks === null ? null : hunks.filter((line) => line.startsWith("-")).length
    });
  }
  return files;
}

export {
  readSessionLogs,
  runSummary
};

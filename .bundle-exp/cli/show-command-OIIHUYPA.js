import {
  drivenStatus
} from "./chunk-DUKFPFLL.js";
import {
  formatCost,
  formatJson,
  formatTable
} from "./chunk-5MQ6PZFE.js";
import {
  checkReportLines,
  fileChangeDiff
} from "./chunk-XJAH34JX.js";
import {
  runSummaryLines
} from "./chunk-Q5EJZHTI.js";
import {
  storedText
} from "./chunk-SBJOCTIJ.js";
import {
  SESSION_ARGUMENT,
  resolveSessionRef
} from "./chunk-A2ILMMH3.js";
import {
  readSessionLogs,
  runSummary
} from "./chunk-JKRDLZET.js";
import "./chunk-DZXTZ55Z.js";
import "./chunk-UVXJS6JF.js";
import "./chunk-76ZWS4BR.js";
import {
  nodeSha256
} from "./chunk-XFVAXZIU.js";
import {
  createEventLines
} from "./chunk-ZXW5ESJJ.js";
import "./chunk-XKPU3YP3.js";
import {
  withStore
} from "./chunk-UBE6EJMR.js";
import "./chunk-NR7OTU2D.js";
import "./chunk-BEI6ZGZB.js";
import {
  UnknownSessionError,
  sessionCost,
  sessionProjection
} from "./chunk-OYJRPCLU.js";
import "./chunk-COPIES7C.js";
import "./chunk-CORQQBM5.js";
import "./chunk-IRD534JB.js";
import "./chunk-A7ITNCWT.js";
import "./chunk-W32ANIA4.js";
import "./chunk-AYFXHFZY.js";
import {
  visibleText
} from "./chunk-7N5K7NRY.js";
import "./chunk-BDZLLWVY.js";

// src/interfaces/cli/commands/show-command.ts
import { Command } from "commander";
var EVIDENCE = /* @__PURE__ */ new Set([
  "project_checks_detected",
  "dod_check_ran",
  "language_diagnostics_recorded",
  "brief_checked",
  "review_findings_recorded",
  "critique_outcomes_correlated"
]);
function colourDiff(line, colour) {
  line = visibleText(line);
  if (!colour || line.startsWith("+++") || line.startsWith("---")) return line;
  if (line.startsWith("+")) return `\x1B[32m${line}\x1B[0m`;
  if (line.startsWith("-")) return `\x1B[31m${line}\x1B[0m`;
  return line;
}
function seconds(ms) {
  return `${(ms / 1e3).toFixed(1)}s`;
}
function showCommand(context) {
  return new Command("show").description(
    "a readable timeline of a session: stages, tool calls with verdicts, approvals, failures, transitions"
  ).argument("[session]", SESSION_ARGUMENT).option("--json", "print the session projection as JSON").option("--no-diffs", "leave out the diffs of file changes").option(
    "--summary",
    "only the summary `correx run` ends with (with --json: the object `run --json` ends with)"
  ).action(
    async (typed, options, command) => {
      await withStore(context, command, async ({ events }) => {
        const sessionId = await resolveSessionRef(events, typed, command);
        if (options.summary === true) return showSummary(context, events, sessionId, options);
        let state = sessionProjection.initial();
        const timeline = [];
        const proposed = /* @__PURE__ */ new Map();
        const stageOfRequest = /* @__PURE__ */ new Map();
        const stageTokens = /* @__PURE__ */ new Map();
        const checkEvents = [];
        const all = [];
        const answerLines = /* @__PURE__ */ new Map();
        const view = createEventLines();
        for await (const event of events.stream(sessionId)) {
          state = sessionProjection.evolve(state, event);
          all.push(event);
          if (EVIDENCE.has(event.payload.type)) checkEvents.push(event);
          view.lines(event).forEach(
            (line, index) => timeline.push(
              `${index === 0 ? String(event.sequence).padStart(5) : "     "}  ${line}`
            )
          );
          const payload = event.payload;
          if (payload.type === "inference_completed")
            answerLines.set(payload.requestId, {
              index: timeline.length,
              sequence: event.sequence
            });
          if (payload.type === "tool_call_proposed") proposed.set(payload.callId, payload);
          if (payload.type === "inference_requested" || payload.type === "journal_summary_requested")
            stageOfRequest.set(payload.requestId, payload.stageId);
          if (payload.type === "inference_completed") {
            const stage = stageOfRequest.get(payload.requestId) ?? "?";
            const sum = stageTokens.get(stage) ?? { input: 0, output: 0 };
            stageTokens.set(stage, {
              input: sum.input + payload.result.usage.inputTokens,
              output: sum.output + payload.result.usage.outputTokens
            });
          }
          if (options.diffs !== false && payload.type === "tool_receipt" && payload.outcome === "succeeded") {
            const call = proposed.get(payload.callId);
            const diff = call === void 0 ? [] : fileChangeDiff(call.tool, call.argsRaw);
            for (const diffLine of diff)
              timeline.push(`         ${colourDiff(diffLine, context.terminal)}`);
          }
        }
        for (const line of view.flush()) timeline.push(`       ${line}`);
        if (state.lastSequence === 0) throw new UnknownSessionError(sessionId);
        if (options.json) return context.out(formatJson(state));
        const cost = sessionCost(all);
        if (cost.priced)
          for (const [requestId, at] of [...answerLines].reverse())
            timeline.splice(
              at.index,
              0,
              `${String(at.sequence).padStart(5)}    model call ${formatCost(cost.byRequest.get(requestId) ?? 0)}`
            );
        const status = await drivenStatus(context, command, sessionId, state.status);
        const header = [
          `session   ${sessionId}`,
          `status    ${status}${state.activeStage ? ` (in stage ${state.activeStage.stageId})` : ""}${status === state.status ? "" : `; continue with: correx resume ${sessionId}`}`,
          `task      ${state.task ?? "?"}`,
          `workspace ${state.workspace ?? "?"}`,
          `workflow  ${state.workflowId ?? "?"}`,
          `tokens    ${state.tokens.input} in, ${state.tokens.output} out`,
          ...cost.priced ? [`cost      ${formatCost(cost.total)}`] : [],
          ...state.failure ? [`failure   ${state.failure.category}: ${state.failure.message}`] : [],
          ...checkReportLines(checkEvents),
          ...state.pendingApprovals.length > 0 ? [
            `waiting   for approval of ${state.pendingApprovals.map((p) => `${p.callId} (${p.tool}, ${p.tier})`).join(", ")}`
          ] : []
        ];
        const stages = Object.entries(state.timings);
        context.out(
          [
            ...header,
            "",
            stages.length > 0 ? formatTable(
              [
                "STAGE",
                "ATTEMPTS",
                "TIME",
                "TOKENS IN",
                "TOKENS OUT",
                ...cost.priced ? ["COST"] : []
              ],
              stages.map(([stageId, t]) => [
                stageId,
                String(t.runs),
                seconds(t.totalMs),
                String(stageTokens.get(stageId)?.input ?? 0),
                String(stageTokens.get(stageId)?.output ?? 0),
                ...cost.priced ? [formatCost(cost.byStage.get(stageId) ?? 0)] : []
              ])
            ) : "no finished stages yet",
            "",
            ...timeline
          ].map((line, index) => index < header.length ? visibleText(line) : line).join("\n")
        );
      });
    }
  );
}
async function showSummary(context, store, sessionId, options) {
  const logs = await readSessionLogs(store, sessionId);
  if ((logs.get(sessionId) ?? []).length === 0) throw new UnknownSessionError(sessionId);
  const summary = runSummary(sessionId, logs, storedText(context.correxHome), nodeSha256);
  if (options.json) return context.out(JSON.stringify(summary));
  for (const line of runSummaryLines(summary).slice(1)) context.out(line);
}
export {
  showCommand
};

import {
  commandOutputExcerpt
} from "./chunk-XKPU3YP3.js";
import {
  isSummaryRequestId
} from "./chunk-OYJRPCLU.js";
import {
  visibleText
} from "./chunk-7N5K7NRY.js";

// src/interfaces/cli/event-line.ts
function formatEventLine(event) {
  const line = describeEvent(event);
  return line === null ? null : visibleText(line);
}
function describeEvent(event) {
  const payload = event.payload;
  switch (payload.type) {
    case "stage_started":
      return `\u25B6 stage ${payload.stageId} (attempt ${payload.attempt})`;
    case "stage_start_reconciled":
      return `\u21BA stage ${payload.stageId} (${payload.reason}) starts from the workspace as left: ${payload.changedSince.length} file(s) changed since its checkpoint #${payload.checkpointSequence}`;
    case "tool_call_proposed":
      return `  call ${payload.tool} ${clip(payload.argsRaw, 70)}`;
    case "tool_call_rejected":
      return `  \u2717 rejected ${payload.tool} (${payload.reason}): ${clip(payload.message, 100)}`;
    case "tool_call_assessed":
      return `    assessed ${payload.verdict} ${payload.tier} risk ${payload.risk}`;
    case "approval_granted":
      return `    approved by ${payload.by.kind}:${payload.by.id}`;
    case "approval_denied":
      return `    \u2717 denied by ${payload.by.kind}:${payload.by.id}: ${clip(payload.reason, 100)}`;
    case "approval_requested":
      return `    waiting for approval (${payload.tier}): ${clip(payload.reason, 100)}`;
    case "approval_bypassed":
      return `    approval bypassed (${payload.tier})`;
    case "tool_receipt":
      return `    ${payload.outcome === "succeeded" ? "\u2713" : "\u2717"} ${payload.tool} ${payload.outcome}${payload.exitCode === null ? "" : ` (exit ${payload.exitCode})`}`;
    case "inference_failed":
      return `  \u2717 model call failed (${payload.category}): ${clip(payload.message, 100)}`;
    case "journal_compacted":
      return `  journal: ${payload.entries} older entries of stage ${payload.stageId} folded into a summary${payload.requestId === void 0 ? "" : " the model wrote"}`;
    case "retry_delay_started":
      return `  \u2026 waiting ${(payload.delayMs / 1e3).toFixed(1)}s before the next model call (${clip(payload.provider, 40)})`;
    case "validation_failed":
      return `  \u2717 artifact invalid (${payload.validator}): ${clipProse(payload.message, 160)}`;
    case "stage_completed":
      return `\u2713 stage ${payload.stageId} completed${payload.verdict === void 0 ? "" : `: ${payload.verdict}`}`;
    case "stage_failed":
      return `\u2717 stage ${payload.stageId} failed (${payload.category}): ${clip(payload.message, 100)}`;
    case "transition_taken":
      return `\u2192 ${payload.from} \u2192 ${payload.to ?? payload.end ?? "?"}`;
    case "project_checks_detected":
      return `  checks found: ${payload.checks.map((check) => check.name).join(", ") || "none"}`;
    case "dod_check_ran":
      return `  ${payload.outcome === "completed" && payload.exitCode === 0 ? "\u2713" : "\u2717"} check ${payload.name} (${clip(payload.command, 40)}) ${payload.outcome === "completed" ? `exit ${payload.exitCode ?? "none"}` : payload.outcome}`;
    case "language_diagnostics_recorded": {
      const seconds = `${(payload.durationMs / 1e3).toFixed(1)} s`;
      if (payload.method === "unavailable")
        return `  ! language server unavailable (${seconds}): ${clip(payload.error ?? "no reason given", 100)}`;
      const errors = payload.files.reduce(
        (sum, file) => sum + file.diagnostics.filter((d) => d.severity === "error").length,
        0
      );
      const files = `${payload.files.length} changed file${payload.files.length === 1 ? "" : "s"}`;
      return errors === 0 ? `  \u2713 language server: no errors in ${files} (${seconds})` : `  \u2717 language server: ${errors} error${errors === 1 ? "" : "s"} in ${files} (${seconds})`;
    }
    case "workflow_completed":
      return payload.summary === void 0 ? "\u2713 workflow completed" : `\u2713 workflow completed; ${clip(payload.summary, 160)}`;
    case "workflow_failed":
      return `\u2717 workflow failed (${payload.category}): ${clip(payload.message, 100)}`;
    case "workflow_cancelled":
      return `\u2717 workflow cancelled by ${payload.by}`;
    case "session_retried":
      return `\u21BB retried by ${payload.by} from stage ${payload.stageId} (attempt ${payload.attempt}): ${clip(payload.reason, 100)}`;
    default:
      return null;
  }
}
function clipProse(text, length) {
  const joined = text.split(/\r?\n/).map((line2) => line2.trim()).filter((line2) => line2 !== "").join(" \xB7 ");
  const line = visibleText(joined.replace(/\s{2,}/g, " "));
  if (line.length <= length) return line;
  const cut = line.lastIndexOf(" ", length - 1);
  return `${line.slice(0, cut > length / 2 ? cut : length - 1).trimEnd()} \u2026`;
}
function clip(text, length) {
  const line = visibleText(text.replace(/ {2,}/g, " ").trim());
  return line.length <= length ? line : `${line.slice(0, length - 1)}\u2026`;
}

// src/interfaces/cli/paired-event-lines.ts
var MODEL_TEXT_LINES = 4;
var MODEL_LINE_CHARS = 200;
function createEventLines() {
  const proposed = /* @__PURE__ */ new Map();
  return {
    lines(event) {
      const payload = event.payload;
      switch (payload.type) {
        case "inference_completed":
          return isSummaryRequestId(payload.requestId) ? [] : modelText(payload.result.text);
        case "tool_call_proposed":
          proposed.set(payload.callId, payload);
          return [];
        case "tool_call_assessed": {
          const call = proposed.get(payload.callId);
          proposed.delete(payload.callId);
          return [
            `  ${tag(payload.callId)} ${visibleText(payload.tool)} ${clip2(call?.argsRaw ?? "", 70)} \xB7 ${payload.verdict} ${payload.tier} risk ${payload.risk}`
          ];
        }
        case "tool_call_rejected": {
          const call = proposed.get(payload.callId);
          proposed.delete(payload.callId);
          return [
            ...call === void 0 ? [] : [`  ${tag(payload.callId)} ${visibleText(call.tool)} ${clip2(call.argsRaw, 70)}`],
            `  ${tag(payload.callId)} \u2717 rejected ${visibleText(payload.tool)} (${payload.reason}): ${clip2(payload.message, 100)}`
          ];
        }
        case "approval_requested":
        case "approval_granted":
        case "approval_denied":
        case "approval_bypassed":
          return tagged(payload.callId, event);
        case "tool_receipt": {
          const lines = tagged(payload.callId, event);
          if (payload.outcome === "succeeded") return lines;
          const pad = " ".repeat(tag(payload.callId).length + 3);
          if (payload.error !== null && !/^exit code -?\d+$/.test(payload.error))
            lines.push(`${pad}${clip2(payload.error, 200)}`);
          for (const line of commandOutputExcerpt(payload.output)) lines.push(`${pad}\u2502 ${line}`);
          return lines;
        }
        default: {
          const line = formatEventLine(event);
          return line === null ? [] : [line];
        }
      }
    },
    flush() {
      const lines = [...proposed].map(
        ([callId, call]) => `  ${tag(callId)} ${visibleText(call.tool)} ${clip2(call.argsRaw, 70)} \xB7 not assessed`
      );
      proposed.clear();
      return lines;
    }
  };
}
function callTag(callId) {
  const parts = callId.split(".");
  return `[${visibleText(parts.length >= 4 ? parts.slice(-2).join(".") : callId)}]`;
}
var tag = callTag;
function tagged(callId, event) {
  const line = formatEventLine(event);
  return line === null ? [] : [`  ${tag(callId)} ${line.trimStart()}`];
}
function modelText(text) {
  const lines = text.trim().split("\n").map((line) => line.trim()).filter((line) => line !== "");
  if (lines.length === 0) return [];
  const shown = lines.slice(0, MODEL_TEXT_LINES).map((line, index) => {
    const visible = visibleText(line);
    const clipped = visible.length <= MODEL_LINE_CHARS ? visible : `${visible.slice(0, MODEL_LINE_CHARS - 1)}\u2026`;
    return `${index === 0 ? "  model: " : "         "}${clipped}`;
  });
  if (lines.length > MODEL_TEXT_LINES)
    shown.push(`         \u2026 ${lines.length - MODEL_TEXT_LINES} more lines`);
  return shown;
}
function clip2(text, length) {
  const line = visibleText(text.replace(/\s+/g, " ").trim());
  return line.length <= length ? line : `${line.slice(0, length - 1)}\u2026`;
}

export {
  formatEventLine,
  createEventLines
};

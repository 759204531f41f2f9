import {
  recordedFileContent
} from "./chunk-DZXTZ55Z.js";
import {
  unifiedDiff
} from "./chunk-NR7OTU2D.js";
import {
  recordedChanges
} from "./chunk-OYJRPCLU.js";
import {
  visibleLines,
  visibleText
} from "./chunk-7N5K7NRY.js";

// src/interfaces/session-diff.ts
import { createHash } from "node:crypto";
var describeMode = (mode) => mode === null || mode === void 0 ? "absent" : mode.toString(8).padStart(4, "0");
function describeSessionDiff(events, preimages, options = {}) {
  const text = (sha256, path, before) => {
    if (sha256 === null) return "";
    const bytes = preimages?.get(sha256) ?? null;
    if (bytes !== null) return bytes.subarray(0, 8e3).includes(0) ? null : bytes.toString("utf8");
    const recorded = recordedFileContent(events, path, before);
    return recorded !== void 0 && createHash("sha256").update(recorded, "utf8").digest("hex") === sha256 ? recorded : null;
  };
  const fileDiff = (file, sequence) => {
    const change = file.access === "delete" ? "deleted" : file.before === null ? "created" : "modified";
    const mode = typeof file.modeBefore === "number" && typeof file.modeAfter === "number" && file.modeBefore !== file.modeAfter ? { before: describeMode(file.modeBefore), after: describeMode(file.modeAfter) } : null;
    const base = { path: file.path, change, mode, before: file.before, after: file.after };
    if (file.before === file.after) return { ...base, hunks: [], note: null };
    const before = text(file.before, file.path, sequence);
    const after = text(file.after, file.path, sequence + 1);
    if (before === null || after === null)
      return { ...base, hunks: null, note: "bytes not kept or binary" };
    const hunks = unifiedDiff(before, after);
    return hunks === null ? { ...base, hunks: null, note: "too large for an inline diff" } : { ...base, hunks, note: null };
  };
  return recordedChanges(
    events,
    options.stageId === void 0 ? {} : { stageId: options.stageId }
  ).map((change) => ({
    sequence: change.sequence,
    callId: change.callId,
    stageId: change.stageId,
    tool: change.tool,
    outcome: change.outcome,
    command: change.command,
    files: change.files.map((file) => fileDiff(file, change.sequence))
  }));
}
function sessionDiffLines(changes) {
  const lines = [];
  for (const change of changes) {
    lines.push(
      visibleText(
        `# #${change.sequence} ${change.callId}${change.stageId === null ? "" : ` [${change.stageId}]`} ${change.tool} ${change.outcome}${change.command === null ? "" : `: $ ${change.command}`}`
      )
    );
    for (const file of change.files) {
      const path = visibleText(file.path);
      lines.push(`diff ${path} (${file.change})`);
      if (file.mode !== null) lines.push(`mode ${file.mode.before} -> ${file.mode.after}`);
      if (file.hunks === null && file.note === "bytes not kept or binary") {
        lines.push(
          `content ${file.before ?? "absent"} -> ${file.after ?? "absent"} (bytes not kept or binary)`
        );
        continue;
      }
      if (file.before === file.after) continue;
      lines.push(`--- ${file.before === null ? "/dev/null" : `a${path}`}`);
      lines.push(`+++ ${file.after === null ? "/dev/null" : `b${path}`}`);
      lines.push(...(file.hunks ?? ["(too large for an inline diff)"]).map(visibleLines));
    }
  }
  return lines;
}

export {
  describeSessionDiff,
  sessionDiffLines
};

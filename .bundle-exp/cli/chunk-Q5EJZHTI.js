import {
  commandOutputExcerpt
} from "./chunk-XKPU3YP3.js";
import {
  visibleText
} from "./chunk-7N5K7NRY.js";

// src/interfaces/cli/run-summary-lines.ts
import { relative, isAbsolute } from "node:path";
function shownPath(path, workspace) {
  if (workspace === null) return path;
  const inside = relative(workspace, path);
  return inside === "" || inside.startsWith("..") || isAbsolute(inside) ? path : inside;
}
function lineCounts(file) {
  if (file.added === null || file.removed === null) return "(lines not known: bytes not kept)";
  return `+${file.added} -${file.removed}`;
}
function runSummaryLines(summary) {
  const workspace = summary.workspace;
  const lines = ["", `\u2500\u2500 summary of session ${summary.sessionId}`];
  const waiting = summary.waitingFor;
  const [firstLine = "", ...moreLines] = (summary.failureReason?.message ?? "").replace(/\n+$/, "").split("\n");
  const why = summary.failureReason !== null ? `: ${summary.failureReason.category}: ${visibleText(firstLine)}` : waiting?.kind === "approval" ? `, waiting for approval of ${waiting.calls.map((call) => `${call.callId} (${call.tool}, ${call.tier})`).join(", ")}${waiting.sessionId === summary.sessionId ? "" : ` in sub-session ${waiting.sessionId}`}` : waiting?.kind === "budget" ? `, stopped at its ${waiting.budget} budget (${waiting.limit})` : waiting?.kind === "resume" ? ", not finished: resume it to go on" : "";
  lines.push(`outcome   ${summary.status}${why} (exit ${summary.exitCode})`);
  if (summary.failureReason !== null && moreLines.length > 0)
    for (const line of commandOutputExcerpt(moreLines.join("\n")))
      lines.push(`          \u2502 ${line}`);
  lines.push(
    summary.checks.length === 0 ? "checks    none ran" : `checks    ${summary.checks.map((check) => `${check.name} ${check.passed ? "passed" : `FAILED (exit ${check.exitCode ?? "none"})`}`).join(", ")}`
  );
  if (summary.filesChanged.length === 0) lines.push("files     none changed");
  else {
    const known = summary.filesChanged.every(
      (file) => file.added !== null && file.removed !== null
    );
    const added = summary.filesChanged.reduce((sum, file) => sum + (file.added ?? 0), 0);
    const removed = summary.filesChanged.reduce((sum, file) => sum + (file.removed ?? 0), 0);
    lines.push(
      `files     ${summary.filesChanged.length} changed${known ? `, +${added} -${removed}` : ""}`
    );
    const paths = summary.filesChanged.map((file) => visibleText(shownPath(file.path, workspace)));
    const width = Math.max(...paths.map((path) => path.length));
    summary.filesChanged.forEach(
      (file, index) => lines.push(
        `          ${paths[index].padEnd(width)}  ${lineCounts(file)}${file.change === "modified" ? "" : ` (${file.change})`}`
      )
    );
  }
  lines.push(
    `tokens    ${summary.tokens.input} in, ${summary.tokens.output} out${summary.cost === null ? "" : `; cost $${summary.cost.toFixed(4)}`}`
  );
  summary.next.forEach(
    (command, index) => lines.push(`${index === 0 ? "next      " : "          "}${command}`)
  );
  return lines;
}

export {
  runSummaryLines
};

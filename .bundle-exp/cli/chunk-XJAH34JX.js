// src/interfaces/cli/check-report.ts
function checkReportLines(events) {
  let detected = null;
  const runs = /* @__PURE__ */ new Map();
  const other = [];
  for (const event of events) {
    const payload = event.payload;
    if (payload.type === "brief_checked" && payload.missing.length > 0)
      other.push(
        `brief     names missing paths: ${payload.missing.map((m) => `${m.path} (event #${m.observedSequence})`).join(", ")}`
      );
    if (payload.type === "review_findings_recorded")
      for (const finding of payload.findings)
        other.push(`finding   ${finding.id} (event #${event.sequence}): ${finding.note}`);
    if (payload.type === "critique_outcomes_correlated") {
      const addressed = payload.outcomes.filter((o) => o.changed && o.checksPassed !== false);
      other.push(
        `rework    ${addressed.length} of ${payload.outcomes.length} findings led to a change that passed its checks (event #${event.sequence}): ${payload.outcomes.map(
          (o) => `${o.id} ${o.changed ? "changed" : "unchanged"}, checks ${o.checksPassed === null ? "not run" : o.checksPassed ? "passed" : "failed"}`
        ).join("; ")}`
      );
    }
    if (payload.type === "language_diagnostics_recorded") {
      const errors = payload.files.reduce(
        (sum, file) => sum + file.diagnostics.filter((d) => d.severity === "error").length,
        0
      );
      other.push(
        payload.method === "unavailable" ? `types     ${payload.stageId}: not checked (event #${event.sequence}): ${payload.error ?? `${payload.server} unavailable`}` : `types     ${payload.stageId}: ${payload.server}, ${payload.files.length} file(s), ${errors} error(s) (event #${event.sequence})`
      );
    }
    if (payload.type === "project_checks_detected")
      detected = {
        names: payload.checks.map((check) => `${check.name} (${check.command}, ${check.source})`),
        sequence: event.sequence,
        problems: payload.problems.map((problem) => `${problem.file} ${problem.message}`)
      };
    if (payload.type === "dod_check_ran") {
      const entry = runs.get(payload.name) ?? { command: payload.command, runs: [] };
      entry.runs.push({
        stageId: payload.stageId,
        passed: payload.outcome === "completed" && payload.exitCode === 0,
        exitCode: payload.exitCode,
        sequence: event.sequence
      });
      runs.set(payload.name, entry);
    }
  }
  if (detected === null && runs.size === 0) return other;
  const lines = [];
  if (detected !== null)
    lines.push(
      `checks    found at start (event #${detected.sequence}): ${detected.names.join(", ") || "none"}`,
      ...detected.problems.map((problem) => `          could not read: ${problem}`)
    );
  if (runs.size === 0) lines.push("checks    none ran");
  for (const [name, entry] of runs) {
    const last = entry.runs.at(-1);
    const history = entry.runs.map(
      (run) => `${run.stageId} ${run.passed ? "passed" : `failed (exit ${run.exitCode ?? "none"})`} #${run.sequence}`
    ).join(", ");
    lines.push(
      `check     ${name} (${entry.command}): ${last.passed ? "passed" : "FAILED"} last; runs: ${history}`
    );
  }
  return [...lines, ...other];
}

// src/interfaces/cli/file-change-diff.ts
var MAX_LINES = 40;
function prefixed(text, mark) {
  const lines = text.endsWith("\n") ? text.slice(0, -1).split("\n") : text.split("\n");
  return lines.map((line) => `${mark}${line}`);
}
function clipped(lines) {
  return lines.length <= MAX_LINES ? lines : [
    ...lines.slice(0, MAX_LINES),
    `\u2026 ${lines.length - MAX_LINES} more lines (see correx events)`
  ];
}
function fileChangeDiff(tool, argsRaw) {
  let args;
  try {
    args = JSON.parse(argsRaw);
  } catch {
    return [];
  }
  const path = typeof args.path === "string" ? args.path : void 0;
  if (path === void 0) return [];
  if (tool === "edit_file" && typeof args.search === "string" && typeof args.replace === "string")
    return clipped([
      `--- ${path}`,
      `+++ ${path}`,
      ...prefixed(args.search, "-"),
      ...prefixed(args.replace, "+")
    ]);
  if (tool === "write_file" && typeof args.content === "string")
    return clipped([`+++ ${path} (whole file)`, ...prefixed(args.content, "+")]);
  return [];
}
var CONTEXT = 2;
function linesOf(text) {
  if (text === "") return [];
  return text.endsWith("\n") ? text.slice(0, -1).split("\n") : text.split("\n");
}
function contentDiff(path, before, after) {
  const old = linesOf(before);
  const next = linesOf(after);
  let start = 0;
  while (start < old.length && start < next.length && old[start] === next[start]) start++;
  let end = 0;
  while (end < old.length - start && end < next.length - start && old[old.length - 1 - end] === next[next.length - 1 - end])
    end++;
  if (start === old.length && start === next.length && before === after)
    return [`--- ${path}`, `+++ ${path}`, "  (no change)"];
  const from = Math.max(0, start - CONTEXT);
  return clipped([
    `--- ${path} (as the log last saw it)`,
    `+++ ${path}`,
    `@@ line ${start + 1} @@`,
    ...old.slice(from, start).map((line) => ` ${line}`),
    ...old.slice(start, old.length - end).map((line) => `-${line}`),
    ...next.slice(start, next.length - end).map((line) => `+${line}`),
    ...old.slice(old.length - end, old.length - end + CONTEXT).map((line) => ` ${line}`)
  ]);
}

export {
  checkReportLines,
  fileChangeDiff,
  contentDiff
};

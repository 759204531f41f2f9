import {
  formatCost,
  formatJson,
  formatTable
} from "./chunk-5MQ6PZFE.js";
import {
  storedText
} from "./chunk-SBJOCTIJ.js";
import {
  resolveSessionRef
} from "./chunk-A2ILMMH3.js";
import {
  readSessionLogs
} from "./chunk-JKRDLZET.js";
import "./chunk-DZXTZ55Z.js";
import "./chunk-UVXJS6JF.js";
import "./chunk-76ZWS4BR.js";
import {
  withStore
} from "./chunk-UBE6EJMR.js";
import "./chunk-NR7OTU2D.js";
import "./chunk-BEI6ZGZB.js";
import {
  UnknownSessionError
} from "./chunk-OYJRPCLU.js";
import "./chunk-COPIES7C.js";
import "./chunk-CORQQBM5.js";
import "./chunk-IRD534JB.js";
import "./chunk-A7ITNCWT.js";
import "./chunk-W32ANIA4.js";
import "./chunk-AYFXHFZY.js";
import "./chunk-7N5K7NRY.js";
import "./chunk-BDZLLWVY.js";

// src/interfaces/cli/commands/compare-command.ts
import { Command } from "commander";
function compareCommand(context) {
  return new Command("compare").description(
    "where two sessions first differ, then side by side: outcome, checks, files, tokens, cost, approvals, time"
  ).argument("<a>", "a session id (or a unique start of one)").argument("<b>", "another session id").option("--json", "print the comparison as JSON").action(
    async (typedA, typedB, options, command) => {
      const { compareSessions } = await import("./session-comparison-AX67JGEP.js");
      const { nodeSha256 } = await import("./node-sha256-5SDS7J23.js");
      await withStore(context, command, async ({ events }) => {
        const ids = [];
        for (const typed of [typedA, typedB]) {
          const sessionId = await resolveSessionRef(events, typed, command);
          if (await events.lastSequence(sessionId) === 0)
            throw new UnknownSessionError(sessionId);
          ids.push(sessionId);
        }
        const [a, b] = ids;
        const comparison = compareSessions(
          { sessionId: a, logs: await readSessionLogs(events, a) },
          { sessionId: b, logs: await readSessionLogs(events, b) },
          storedText(context.correxHome),
          nodeSha256
        );
        if (options.json) context.out(formatJson(comparison));
        else context.out(comparisonLines(comparison).join("\n"));
      });
    }
  );
}
function comparisonLines(comparison) {
  const { a, b } = comparison;
  const first = comparison.firstDifference;
  const lines = [
    first === null ? "first difference  none: both logs record the same events (ids, times and hashes aside)" : `first difference  #${first.sequence}: ${first.a ?? "(log ended)"} | ${first.b ?? "(log ended)"}${first.fields.length === 0 ? "" : ` (${first.fields.join(", ")})`}`,
    `configuration     ${comparison.configurationDiffers.length === 0 ? "the same" : `differs in ${comparison.configurationDiffers.join(", ")}`}`,
    ""
  ];
  const row = (name, cell) => [name, cell(a), cell(b)];
  lines.push(
    formatTable(
      ["", `a ${a.sessionId}`, `b ${b.sessionId}`],
      [
        row("task", (side) => side.task ?? "-"),
        row("models", (side) => side.models.join(", ") || "-"),
        row(
          "outcome",
          (side) => side.failure === null ? side.status : `${side.status} (${side.failure})`
        ),
        row(
          "checks",
          (side) => side.checks.map((check) => `${check.name} ${check.passed ? "passed" : "FAILED"}`).join(", ") || "-"
        ),
        row(
          "files changed",
          (side) => side.filesChanged.map(
            (file) => `${file.path} ${file.change}${file.added === null ? "" : ` +${file.added} -${file.removed}`}`
          ).join(", ") || "-"
        ),
        row("tokens", (side) => `${side.tokens.input} in, ${side.tokens.output} out`),
        row("cost", (side) => side.cost === null ? "-" : formatCost(side.cost)),
        row("approvals asked", (side) => String(side.approvalsAsked)),
        row("policy blocks", (side) => String(side.policyBlocks)),
        row("events", (side) => String(side.events)),
        row("time", (side) => `${(side.durationMs / 1e3).toFixed(1)} s`)
      ]
    )
  );
  if (comparison.files.length > 0) {
    lines.push("", "files (a \u2192 b, final contents)");
    for (const file of comparison.files) {
      lines.push(
        `  ${file.path}  a ${file.a}, b ${file.b}: ${file.same ? "same bytes" : file.diff === null ? "differ (bytes not kept)" : "differ"}`
      );
      if (!file.same && file.diff !== null)
        lines.push(
          `    --- a/${file.path}`,
          `    +++ b/${file.path}`,
          ...file.diff.map((line) => `    ${line}`)
        );
    }
  }
  return lines;
}
export {
  compareCommand
};

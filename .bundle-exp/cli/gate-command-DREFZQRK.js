import {
  readSessionEvidence
} from "./chunk-UEQBRJSZ.js";
import {
  treeDifferences
} from "./chunk-7FCCLOU5.js";
import "./chunk-Y6YTVGPA.js";
import {
  formatJson
} from "./chunk-5MQ6PZFE.js";
import {
  SESSION_ARGUMENT,
  resolveSessionRef
} from "./chunk-A2ILMMH3.js";
import "./chunk-XFVAXZIU.js";
import {
  withStore
} from "./chunk-UBE6EJMR.js";
import {
  gateSession,
  provenanceFacts
} from "./chunk-OYJRPCLU.js";
import "./chunk-COPIES7C.js";
import "./chunk-CORQQBM5.js";
import {
  ApprovalTierSchema
} from "./chunk-IRD534JB.js";
import "./chunk-A7ITNCWT.js";
import "./chunk-W32ANIA4.js";
import "./chunk-AYFXHFZY.js";
import "./chunk-7N5K7NRY.js";
import "./chunk-BDZLLWVY.js";

// src/interfaces/cli/commands/gate-command.ts
import { Command, InvalidArgumentError } from "commander";
function parseTier(value) {
  const result = ApprovalTierSchema.safeParse(value.toUpperCase());
  if (!result.success) throw new InvalidArgumentError("a tier: T0, T1, T2 or T3");
  return result.data;
}
function gateCommand(context) {
  return new Command("gate").description(
    "pass or fail a session's change for merging (CI): exit 0 only if every condition holds, each failing one printed"
  ).argument("[session]", SESSION_ARGUMENT).option(
    "--require-approval <tier>",
    "every call at or above this tier approved by a person or a grant, not by a mode",
    parseTier
  ).option("--require-checks", "the required checks ran, passed, and nothing changed after them").option("--json", "print JSON").action(
    async (typed, options, command) => {
      await withStore(context, command, async ({ events }) => {
        const sessionId = await resolveSessionRef(events, typed, command);
        const evidence = await readSessionEvidence(events, sessionId);
        const logProblem = evidence.chain.ok ? null : `hash chain broken at sequence ${evidence.chain.sequence} (${evidence.chain.detail})`;
        const facts = evidence.facts ?? provenanceFacts([], () => "");
        const differences = evidence.facts === null || evidence.tree === null ? [] : treeDifferences(evidence.tree, evidence.facts.changes.files);
        const verdict = gateSession({
          facts,
          logProblem,
          treeDifferences: differences,
          options: {
            ...options.requireApproval === void 0 ? {} : { requireApproval: options.requireApproval },
            requireChecks: options.requireChecks === true
          }
        });
        const result = evidence.facts === null ? { ...verdict, reasons: verdict.reasons.slice(0, 1) } : verdict;
        if (options.json)
          context.out(
            formatJson({
              sessionId,
              pass: result.pass,
              reasons: result.reasons,
              tree: evidence.tree?.kind === "git" ? { branch: evidence.tree.branch, commit: evidence.tree.commit } : evidence.tree?.path ?? null,
              checks: result.checks
            })
          );
        else {
          for (const reason of result.reasons) context.out(`FAIL ${reason}`);
          context.out(
            result.pass ? `PASS session ${sessionId}: the log verifies${options.requireChecks ? ", the required checks passed on the final tree" : ""}${options.requireApproval ? `, calls at ${options.requireApproval} and above were approved by people` : ""}` : `gate failed for session ${sessionId}: ${result.reasons.length} reason(s)`
          );
        }
        if (!result.pass) context.fail(1);
      });
    }
  );
}
export {
  gateCommand
};

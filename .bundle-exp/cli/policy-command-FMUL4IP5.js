import {
  parseCandidatePolicy
} from "./chunk-XELQNMR6.js";
import {
  SESSION_ARGUMENT,
  resolveSessionRef
} from "./chunk-A2ILMMH3.js";
import {
  withStore
} from "./chunk-UBE6EJMR.js";
import "./chunk-P2JR5UVJ.js";
import {
  MAX_CONFIG_FILE_BYTES,
  readBoundedFile
} from "./chunk-LOKLPSJE.js";
import {
  describeCallExplanation,
  explainCall,
  whatIfPolicy
} from "./chunk-OYJRPCLU.js";
import "./chunk-COPIES7C.js";
import "./chunk-CORQQBM5.js";
import "./chunk-IRD534JB.js";
import "./chunk-A7ITNCWT.js";
import "./chunk-W32ANIA4.js";
import "./chunk-AYFXHFZY.js";
import "./chunk-7N5K7NRY.js";
import {
  CorrexError
} from "./chunk-BDZLLWVY.js";

// src/interfaces/cli/commands/policy-command.ts
import { Command } from "commander";
var PolicyWhatIfUsageError = class extends CorrexError {
  constructor(message) {
    super("usage", message);
  }
};
async function readCandidatePolicy(file) {
  let bytes;
  try {
    bytes = await readBoundedFile(file, {
      maxBytes: MAX_CONFIG_FILE_BYTES,
      what: "the policy file"
    });
  } catch (error) {
    if (CorrexError.isInstance(error)) throw error;
    throw new PolicyWhatIfUsageError(
      `cannot read the policy file ${file}: ${error.message}`
    );
  }
  return parseCandidatePolicy(bytes.toString("utf8"), file);
}
function describe(report) {
  if (report.skipped !== null) return [`${report.sessionId}: not re-assessed: ${report.skipped}`];
  return report.changes.map(
    (change) => `${change.sessionId} ${change.callId} ${change.tool}: ${change.recorded.verdict} ${change.recorded.tier} -> ${change.candidate.verdict} ${change.candidate.tier}` + (change.added.length > 0 ? ` (+${change.added.join(" +")})` : "") + (change.removed.length > 0 ? ` (-${change.removed.join(" -")})` : "")
  );
}
function policyCommand(context) {
  const policy = new Command("policy").description(
    "check a policy change against recorded sessions"
  );
  policy.command("what-if").description(
    "list the recorded calls whose verdict or tier a candidate policy would change (from recorded observations; the disk is not read)"
  ).requiredOption("--policy <file>", "the candidate policy (harness.yaml or a policy document)").option("--session <id>", "one session").option("--all", "every session in the store").option("--json", "print the reports as JSON").action(
    async (options, command) => {
      if (options.session === void 0 === (options.all !== true))
        throw new PolicyWhatIfUsageError("name exactly one of --session <id> or --all");
      const candidate = await readCandidatePolicy(options.policy);
      await withStore(context, command, async ({ events }) => {
        const ids = options.session !== void 0 ? [await resolveSessionRef(events, options.session, command)] : (await events.listSessions()).map((session) => session.sessionId);
        const reports = [];
        for (const id of ids) reports.push(whatIfPolicy(await events.read(id), candidate));
        if (options.json === true) {
          context.out(JSON.stringify(reports, null, 2));
          return;
        }
        const lines = reports.flatMap(describe);
        const assessed = reports.reduce((sum, report) => sum + report.assessed, 0);
        const changed = reports.reduce((sum, report) => sum + report.changes.length, 0);
        const inexact = reports.flatMap(
          (report) => report.inexact.map((callId) => `${report.sessionId} ${callId}`)
        );
        if (lines.length > 0) context.out(lines.join("\n"));
        if (inexact.length > 0)
          context.out(
            `recorded by another release, compared with this correx's re-derivation: ${inexact.join(", ")}`
          );
        context.out(
          `${changed} of ${assessed} recorded calls in ${reports.length} session(s) would change under ${options.policy}`
        );
      });
    }
  );
  policy.command("explain").description(
    "for one recorded tool call, what decided its outcome, in the order it applied (from the log only)"
  ).argument("[session]", SESSION_ARGUMENT).argument("[call]", "the call id (implement.1.1.1), or a unique end of one (1.2.1)").option("--json", "print the explanation as one JSON object").action(
    async (typedSession, typedCall, options, command) => {
      const [session, call] = typedCall === void 0 ? [void 0, typedSession] : [typedSession, typedCall];
      if (call === void 0)
        throw new PolicyWhatIfUsageError(
          "name the call to explain: <session> <call>, or --last <call>"
        );
      await withStore(context, command, async ({ events }) => {
        const id = await resolveSessionRef(events, session, command);
        const explanation = explainCall(await events.read(id), call);
        context.out(
          options.json === true ? JSON.stringify(explanation, null, 2) : describeCallExplanation(explanation).join("\n")
        );
      });
    }
  );
  return policy;
}
export {
  policyCommand
};

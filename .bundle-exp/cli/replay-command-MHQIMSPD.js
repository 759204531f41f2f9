import {
  parseCount
} from "./chunk-JPE2QVXK.js";
import {
  formatJson
} from "./chunk-5MQ6PZFE.js";
import {
  SESSION_ARGUMENT,
  resolveSessionRef
} from "./chunk-A2ILMMH3.js";
import {
  withStore
} from "./chunk-UBE6EJMR.js";
import {
  UnknownSessionError,
  replaySession
} from "./chunk-OYJRPCLU.js";
import "./chunk-COPIES7C.js";
import "./chunk-CORQQBM5.js";
import "./chunk-IRD534JB.js";
import "./chunk-A7ITNCWT.js";
import "./chunk-W32ANIA4.js";
import "./chunk-AYFXHFZY.js";
import "./chunk-7N5K7NRY.js";
import "./chunk-BDZLLWVY.js";

// src/interfaces/cli/commands/replay-command.ts
import { Command } from "commander";
function replayCommand(context) {
  return new Command("replay").description("rebuild a session from its log without model or tools, comparing every decision").argument("[session]", SESSION_ARGUMENT).option(
    "--verify",
    "print only the verdict: exit 0 when byte-identical, 1 at the first divergence"
  ).option(
    "--from <sequence>",
    "trust the log before this sequence and re-decide from there",
    parseCount
  ).option("--json", "print the report as JSON").action(
    async (typed, options, command) => {
      await withStore(context, command, async ({ events }) => {
        const sessionId = await resolveSessionRef(events, typed, command);
        if (await events.lastSequence(sessionId) === 0)
          throw new UnknownSessionError(sessionId);
        const { nodeSha256 } = await import("./node-sha256-5SDS7J23.js");
        const started = Date.now();
        const report = await replaySession(events, sessionId, void 0, {
          sha256: nodeSha256,
          ...options.from === void 0 ? {} : { fromSequence: Math.max(0, options.from - 1) }
        });
        const ms = Date.now() - started;
        if (options.json) {
          context.out(
            formatJson(
              report.ok ? {
                ok: true,
                events: report.events,
                inputs: report.inputs,
                decided: report.decided,
                status: report.state.session.status
              } : { ok: false, divergence: report.divergence }
            )
          );
        } else if (report.ok) {
          context.out(
            `replay of ${sessionId}: identical \u2014 ${report.events} events, ${report.decided} decisions re-derived from ${report.inputs} inputs in ${ms} ms, no model or tool called`
          );
          if (!options.verify) {
            const session = report.state.session;
            context.out(`status    ${session.status}`);
            context.out(`stage     ${session.lastStageId ?? "-"}`);
            context.out(`tokens    ${session.tokens.input} in, ${session.tokens.output} out`);
            if (report.undecidedInput)
              context.out(
                "note      the log ends with an input not yet decided; `correx resume` decides it"
              );
          }
        } else {
          const divergence = report.divergence;
          context.out(
            `replay of ${sessionId}: DIVERGES at #${divergence.sequence}: ${divergence.reason}`
          );
          context.out(`  derived:  ${divergence.expected ?? "(nothing)"}`);
          context.out(`  recorded: ${divergence.actual ?? "(nothing)"}`);
        }
        if (!report.ok) context.fail(1);
      });
    }
  );
}
export {
  replayCommand
};

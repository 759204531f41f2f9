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
import "./chunk-OYJRPCLU.js";
import "./chunk-COPIES7C.js";
import "./chunk-CORQQBM5.js";
import "./chunk-IRD534JB.js";
import "./chunk-A7ITNCWT.js";
import "./chunk-W32ANIA4.js";
import "./chunk-AYFXHFZY.js";
import "./chunk-7N5K7NRY.js";
import "./chunk-BDZLLWVY.js";

// src/interfaces/cli/commands/verify-command.ts
import { Command } from "commander";
function verifyCommand(context) {
  return new Command("verify").description("recompute a session's hash chain; exits 1 at the first broken link").argument("[session]", SESSION_ARGUMENT).option("--json", "print JSON").action(async (typed, options, command) => {
    await withStore(context, command, async ({ events }) => {
      const sessionId = await resolveSessionRef(events, typed, command);
      const result = await events.verify(sessionId);
      if (options.json) context.out(formatJson(result));
      else if (result.ok)
        context.out(`ok: ${result.lastSequence} events, head ${result.headHash}`);
      else context.out(`BROKEN at sequence ${result.sequence}: ${result.detail}`);
      if (!result.ok) context.fail(1);
    });
  });
}
export {
  verifyCommand
};

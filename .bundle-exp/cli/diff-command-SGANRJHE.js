import {
  describeSessionDiff,
  sessionDiffLines
} from "./chunk-PGOHPXNJ.js";
import {
  SESSION_ARGUMENT,
  resolveSessionRef
} from "./chunk-A2ILMMH3.js";
import "./chunk-DZXTZ55Z.js";
import {
  createPreimageStore,
  preimageDirectory
} from "./chunk-76ZWS4BR.js";
import {
  withStore
} from "./chunk-UBE6EJMR.js";
import "./chunk-NR7OTU2D.js";
import "./chunk-OYJRPCLU.js";
import "./chunk-COPIES7C.js";
import "./chunk-CORQQBM5.js";
import "./chunk-IRD534JB.js";
import "./chunk-A7ITNCWT.js";
import "./chunk-W32ANIA4.js";
import "./chunk-AYFXHFZY.js";
import "./chunk-7N5K7NRY.js";
import "./chunk-BDZLLWVY.js";

// src/interfaces/cli/commands/diff-command.ts
import { Command } from "commander";
function diffCommand(context) {
  return new Command("diff").description("show what a session changed in the workspace, call by call, with the commands").argument("[session]", SESSION_ARGUMENT).option("--stage <id>", "only the calls of this stage").action(async (typed, options, command) => {
    const blobs = createPreimageStore(preimageDirectory(context.correxHome));
    await withStore(context, command, async ({ events }) => {
      const sessionId = await resolveSessionRef(events, typed, command);
      const read = await events.read(sessionId);
      const changes = describeSessionDiff(
        read,
        blobs,
        options.stage === void 0 ? {} : { stageId: options.stage }
      );
      if (changes.length === 0) {
        context.out(`no recorded changes in session ${sessionId}`);
        return;
      }
      context.out(sessionDiffLines(changes).join("\n"));
    });
  });
}
export {
  diffCommand
};

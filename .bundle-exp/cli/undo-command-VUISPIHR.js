import {
  undoSessionChanges
} from "./chunk-ATWBWUEV.js";
import {
  parseCount
} from "./chunk-JPE2QVXK.js";
import "./chunk-I3NCHX22.js";
import "./chunk-5MQ6PZFE.js";
import {
  SESSION_ARGUMENT,
  resolveSessionRef
} from "./chunk-A2ILMMH3.js";
import {
  createPreimageStore,
  preimageDirectory
} from "./chunk-76ZWS4BR.js";
import {
  withStore
} from "./chunk-UBE6EJMR.js";
import {
  UnknownSessionError
} from "./chunk-OYJRPCLU.js";
import "./chunk-COPIES7C.js";
import "./chunk-CORQQBM5.js";
import "./chunk-IRD534JB.js";
import "./chunk-A7ITNCWT.js";
import "./chunk-W32ANIA4.js";
import "./chunk-AYFXHFZY.js";
import {
  visibleText
} from "./chunk-7N5K7NRY.js";
import {
  CorrexError
} from "./chunk-BDZLLWVY.js";

// src/interfaces/cli/commands/undo-command.ts
import { Command } from "commander";
function undoCommand(context) {
  return new Command("undo").description(
    "restore the workspace to a recorded point of a session from its change records (recorded as workspace_restored)"
  ).argument("[session]", SESSION_ARGUMENT).option("--to <sequence>", "undo every change recorded after this event", parseCount).option("--stage <id>", "undo every change since the stage last started").option("--by <name>", "who undoes (default: $USER)").option("--force", "also while the session is recorded as running (after a crash)").action(
    async (typed, options, command) => {
      if (options.to !== void 0 && options.stage !== void 0)
        throw new CorrexError("usage", "give at most one of --to <sequence> or --stage <id>");
      await withStore(context, command, async ({ events }) => {
        const sessionId = await resolveSessionRef(events, typed, command);
        const result = await undoSessionChanges(
          {
            store: events,
            recording: context,
            preimages: createPreimageStore(preimageDirectory(context.correxHome))
          },
          {
            sessionId,
            by: options.by ?? context.user,
            ...options.to === void 0 ? {} : { toSequence: options.to },
            ...options.stage === void 0 ? {} : { stageId: options.stage },
            ...options.force === true ? { force: true } : {}
          }
        );
        switch (result.outcome) {
          case "unknown_session":
            throw new UnknownSessionError(sessionId);
          case "running":
            throw new CorrexError(
              "usage",
              `session ${sessionId} is running: pause or cancel it first (or --force after a crash)`
            );
          case "invalid":
            throw new CorrexError("usage", result.message);
          case "nothing":
            context.out(`nothing to undo after #${result.toSequence} in session ${sessionId}`);
            return;
          case "refused": {
            const lines = [
              ...result.changedSince.map(
                (path) => `  changed outside correx since: ${visibleText(path)}`
              ),
              ...result.missingPreimages.map(
                (path) => `  no stored pre-image: ${visibleText(path)}`
              ),
              ...result.outsideWorkspace.map(
                (path) => `  no longer inside the workspace (a folder on its way is now a symlink or a file): ${visibleText(path)}`
              )
            ];
            context.err(`correx: refused to undo; nothing was changed:
${lines.join("\n")}`);
            context.fail(1);
            return;
          }
          case "restored":
            for (const file of result.files)
              context.out(
                `${file.access === "delete" ? "deleted " : "restored"} ${visibleText(file.path)}`
              );
            context.out(
              `recorded workspace_restored as #${result.event.sequence} in session ${sessionId} (${result.files.length} file(s), back to #${result.toSequence})`
            );
        }
      });
    }
  );
}
export {
  undoCommand
};

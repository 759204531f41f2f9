import {
  formatJson
} from "./chunk-5MQ6PZFE.js";
import {
  createEventLines
} from "./chunk-ZXW5ESJJ.js";
import "./chunk-XKPU3YP3.js";
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

// src/interfaces/cli/commands/demo-command.ts
import { Command } from "commander";

// src/interfaces/cli/commands/demo-progress.ts
function demoProblem(report) {
  if (report.status !== "completed") return `the workflow ended ${report.status}, not completed`;
  if (!report.testsPass) return "the workflow completed but the sample's tests still fail";
  return null;
}

// src/interfaces/cli/commands/demo-command.ts
function demoCommand(context) {
  return new Command("demo").description(
    "fix a bug in a bundled sample project with a scripted model: no model, key or network needed"
  ).option(
    "--workspace <dir>",
    "copy the sample here (an empty or new folder; default: a temp folder)"
  ).option("--json", "print only a JSON summary at the end").action(async (options, command) => {
    await withStore(
      context,
      command,
      async ({ events, location }) => {
        const { runDemo } = await import("./demo-run-4MG4FGJL.js");
        const view = createEventLines();
        const telemetry = await context.telemetry?.();
        const print = options.json === true ? void 0 : (event) => {
          for (const line of view.lines(event)) context.out(line);
        };
        const onEvent = telemetry === void 0 ? print : (event) => {
          print?.(event);
          telemetry.onEvent(event);
        };
        const report = await runDemo({
          store: events,
          correxHome: context.correxHome,
          clock: context.clock,
          ids: context.ids,
          ...options.workspace === void 0 ? {} : { workspace: options.workspace },
          ...onEvent === void 0 ? {} : { onEvent }
        });
        await telemetry?.settled();
        const count = (await events.read(report.sessionId)).length;
        const problem = demoProblem(report);
        if (options.json) {
          context.out(
            formatJson({ ...report, events: count, store: location, ok: problem === null })
          );
        } else {
          context.out("");
          context.out(
            `session   ${report.sessionId} (${report.status}, ${count} events in ${location})`
          );
          context.out(`workspace ${report.workspace}`);
          context.out(`tests     node --test ${report.testsPass ? "passes" : "FAILS"}`);
          if (!report.testsPass)
            context.out(report.testOutput.trimEnd().split("\n").slice(-20).join("\n"));
          context.out(
            `next      correx show ${report.sessionId}  |  correx replay ${report.sessionId} --verify  |  correx serve`
          );
        }
        if (problem !== null) {
          context.err(`correx: demo failed: ${problem}`);
          context.fail(1);
        }
      },
      { create: true }
    );
  });
}
export {
  demoCommand
};

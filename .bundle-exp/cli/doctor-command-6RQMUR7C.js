import {
  formatJson
} from "./chunk-5MQ6PZFE.js";
import {
  storeLocation
} from "./chunk-UBE6EJMR.js";
import {
  parseDuration
} from "./chunk-BEI6ZGZB.js";
import {
  visibleText
} from "./chunk-7N5K7NRY.js";
import {
  CorrexError
} from "./chunk-BDZLLWVY.js";

// src/interfaces/cli/commands/doctor-command.ts
import { resolve } from "node:path";
import { Command } from "commander";
function doctorCommand(context) {
  return new Command("doctor").description(
    "check the sandbox, the store, which model configuration wins and each model endpoint; prints the fix for each problem"
  ).option("--workspace <dir>", "the workspace whose harness.yaml also applies (default: here)").option("--json", "print the checks as JSON").option(
    "--probe-timeout <duration>",
    "the longest each model probe may take, its answer included (default 30s; a slow local model may need 2m)"
  ).action(
    async (options, command) => {
      if (context.runDoctor === void 0) throw new Error("correx doctor is not available here");
      const probeTimeoutMs = options.probeTimeout === void 0 ? void 0 : parseDuration(options.probeTimeout);
      if (probeTimeoutMs === null || probeTimeoutMs === 0)
        throw new CorrexError(
          "usage",
          `--probe-timeout takes a duration such as 10s or 2m, got ${JSON.stringify(options.probeTimeout)}`
        );
      const checks = await context.runDoctor({
        store: storeLocation(context, command),
        workspace: resolve(context.cwd, options.workspace ?? "."),
        ...probeTimeoutMs === void 0 ? {} : { probeTimeoutMs }
      });
      const problems = checks.filter((check) => !check.ok).length;
      if (options.json) {
        context.out(formatJson({ ok: problems === 0, checks }));
      } else {
        for (const check of checks) {
          context.out(visibleText(`${check.ok ? "\u2713" : "\u2717"} ${check.name}: ${check.detail}`));
          if (check.fix !== void 0) context.out(visibleText(`    fix: ${check.fix}`));
        }
        context.out(
          problems === 0 ? "all checks passed" : `${problems} problem${problems === 1 ? "" : "s"} found`
        );
      }
      if (problems > 0) context.fail(1);
    }
  );
}
export {
  doctorCommand
};

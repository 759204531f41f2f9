import {
  unifiedDiff
} from "./chunk-NR7OTU2D.js";
import {
  WorkspaceNotTrustedError,
  describeAuthority,
  latestTrust,
  loadHarnessConfig,
  recordTrust,
  withdrawTrust
} from "./chunk-H6KIDXDK.js";
import {
  CorrexError
} from "./chunk-BDZLLWVY.js";

// src/interfaces/cli/commands/trust-command.ts
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { resolve } from "node:path";
import { Command } from "commander";
function trustCommand(context) {
  return new Command("trust").description(
    "trust a workspace's own hooks, MCP servers and policy widenings, pinned to their content"
  ).argument("<workspace>", "the workspace folder").option("--withdraw", "withdraw your trust: its configuration stops taking effect").action(async (folder, options) => {
    const path = resolve(folder);
    if (!existsSync(path)) throw new CorrexError("usage", `${path} does not exist`);
    const workspace = realpathSync(path);
    if (options.withdraw === true) {
      const withdrawn = withdrawTrust(context.correxHome, workspace, {
        by: context.user,
        at: context.clock.now()
      });
      context.out(
        withdrawn.length === 0 ? `${workspace} was not trusted` : `withdrew trust in ${withdrawn.length} form(s) of ${workspace}'s configuration`
      );
      return;
    }
    const harness = await loadHarnessConfig({ correxHome: context.correxHome, workspace });
    const authority = harness.untrustedAuthority ?? harness.trustedAuthority;
    if (authority === void 0) {
      context.out(
        `nothing to trust: ${workspace}'s configuration neither runs code nor widens policy`
      );
      return;
    }
    if (harness.trustedAuthority !== void 0) {
      context.out(
        `already trusted: ${describeAuthority(authority)} (${authority.digest.slice(0, 12)})`
      );
      return;
    }
    showAuthority(context, authority);
    const record = recordTrust(context.correxHome, authority, {
      by: context.user,
      via: "command",
      at: context.clock.now()
    });
    context.out(
      `trusted by ${record.by}: ${record.digest.slice(0, 12)}; a change to any of these files asks again`
    );
  });
}
function showAuthority(context, authority) {
  const workspace = authority.workspace;
  const previous = latestTrust(context.correxHome, workspace);
  context.out(`${workspace} asks for: ${describeAuthority(authority)}`);
  for (const file of authority.files) {
    const before = previous?.files.find((earlier) => earlier.path === file.path);
    if (before === void 0) {
      context.out(`  ${file.path} sha256:${file.sha256.slice(0, 12)} (new)`);
      continue;
    }
    if (before.sha256 === file.sha256) {
      context.out(`  ${file.path} sha256:${file.sha256.slice(0, 12)} (unchanged)`);
      continue;
    }
    context.out(
      `  ${file.path} sha256:${before.sha256.slice(0, 12)} \u2192 ${file.sha256.slice(0, 12)} (changed since you trusted it):`
    );
    const diff = before.content === void 0 ? null : unifiedDiff(before.content, readFileSync(file.path, "utf8"));
    for (const line of diff ?? ["    (no text to compare)"]) context.out(`    ${line}`);
  }
}
async function askWorkspaceTrust(context, folder) {
  if (context.ask === void 0 || !existsSync(folder)) return;
  const workspace = realpathSync(folder);
  const harness = await loadHarnessConfig({ correxHome: context.correxHome, workspace });
  const authority = harness.untrustedAuthority;
  if (authority === void 0) return;
  const changed = latestTrust(context.correxHome, workspace)?.type === "workspace_trusted";
  showAuthority(context, authority);
  const answer = await context.ask(
    "Trust this configuration (it runs with your rights in the sandbox)? [y/N] ",
    new AbortController().signal
  );
  if (answer === null || !/^y(es)?$/i.test(answer.trim()))
    throw new WorkspaceNotTrustedError(authority, changed);
  const record = recordTrust(context.correxHome, authority, {
    by: context.user,
    via: "prompt",
    at: context.clock.now()
  });
  context.out(`trusted by ${record.by}: ${record.digest.slice(0, 12)}`);
}

export {
  trustCommand,
  askWorkspaceTrust
};

import {
  HARNESS_FILE
} from "./chunk-H6KIDXDK.js";
import "./chunk-R6SHVX2P.js";
import "./chunk-P2JR5UVJ.js";
import "./chunk-BEI6ZGZB.js";
import "./chunk-6D7FPGJD.js";
import "./chunk-LOKLPSJE.js";
import "./chunk-OYJRPCLU.js";
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

// src/interfaces/cli/commands/init-command.ts
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Command } from "commander";

// src/infrastructure/config/harness-template.ts
var USER_HARNESS_TEMPLATE = `# correx configuration: $CORREX_HOME/harness.yaml (yours, trusted).
# A workspace may add its own harness.yaml; that one can only narrow policy, add workflows and
# pick among the model profiles below (see docs/configuration.md).

# How tool calls above T0 are approved: prompt (ask a human), auto (approve up to T2),
# yolo (approve whatever policy allows), deny (approve nothing gated). A policy BLOCK always wins.
mode: prompt

# Model servers. Keys never go in this file: apiKeyEnv names the environment variable holding one.
providers:
  local:
    kind: openai-compatible            # llama.cpp llama-server, vLLM, Ollama, LM Studio, OpenAI
    baseUrl: http://127.0.0.1:8080/v1
  # openai:
  #   kind: openai-compatible
  #   baseUrl: https://api.openai.com/v1
  #   apiKeyEnv: OPENAI_API_KEY
  # anthropic:
  #   kind: anthropic
  #   apiKeyEnv: ANTHROPIC_API_KEY
  # gguf:
  #   kind: llama-cpp
  #   modelPath: ~/models/qwen2.5-coder-7b-instruct-q4_k_m.gguf

# Model profiles: stages are routed to a profile that has the capabilities they need.
models:
  - id: local
    provider: local
    model: local-model                 # the name your server expects
    capabilities: [tool_calling, json_output]
    contextWindow: 32768
    # prices: { inputPerMillion: 3, outputPerMillion: 15, cachedInputPerMillion: 0.3 }   # US dollars: show, sessions and budgets report cost
  # - id: claude                       # with the anthropic provider above
  #   provider: anthropic
  #   model: claude-sonnet-4-5
  #   capabilities: [tool_calling, json_output]
  #   contextWindow: 200000
  #   prices: { inputPerMillion: 3, outputPerMillion: 15 }

defaults:
  workflow: default-coding             # built in: plan \u2192 implement \u2192 verify \u2192 review (\u2192 recovery)
  model: local

# Workspace policy. Everything has a safe default; uncomment to change.
policy: {}
#  allowedExecutables: [npm, node, git, ls, cat, grep]
#  egressAllowlist: [registry.npmjs.org]    # empty means no network at all
#  writeScope: [["src/**", "test/**"]]
#  tierOverrides: { exec: T3 }
#  approvalTimeoutMs: 3600000              # a call nobody approves within an hour is denied
#  writeBudgetBytes: 10000000              # the most content a session's file writes may carry

# Checks. Each session reads the project's own (package.json test/lint/typecheck, pytest,
# go test ./..., cargo test, a Makefile test target) and runs them, sandboxed, before verify and
# review can complete. Add or replace checks by name, or mark some advisory (reported, not fatal).
# checks:
#   add:
#     - { name: typecheck, command: "npx tsc --noEmit" }
#   advisory: [lint]
#   detect: true                       # false: only the checks listed here

# How long a stage may go on (defaults shown).
# limits:
#   turnsPerStage: 12
#   callsPerTurn: 8
#   repeatedFailures: 2
#   modelTimeout: 2m

# Budgets: a session stops (prompt mode: waits for a raise) before a model call past one.
# correx run --max-tokens/--max-cost/--max-duration override them. Cost needs prices above.
# budgets:
#   maxTokens: 2000000
#   maxCostUsd: 5
#   maxDuration: 2h

# MCP servers whose tools sessions are offered, sandboxed and approved like any tool (docs/mcp.md).
# mcpServers:
#   memory:                # npm install -D @modelcontextprotocol/server-memory in the workspace
#     command: node          # (npx cannot fetch it inside the sandbox: no network)
#     args: [node_modules/@modelcontextprotocol/server-memory/dist/index.js]

# Hooks: your programs, run sandboxed around tool calls and at stage and session ends (docs/hooks.md).
# hooks:
#   pre_tool_use: [{ name: no-secrets, command: [node, /home/me/hooks/no-secrets.mjs] }]
#   session_end: [{ name: notify, command: [/home/me/hooks/notify.sh] }]

# Long stages: past compactAfter journal entries, all but the newest keep are folded into one
# summary of at most summaryMaxTokens, which the model sees instead of them.
# journal:
#   compactAfter: 60
#   keep: 20
#   summaryMaxTokens: 2000
#   summary: lines                     # model: the stage's model writes it (one call each)
`;
function userHarnessTemplateFor(server) {
  const provider = `    baseUrl: ${JSON.stringify(server.baseUrl)}            # from OPENAI_BASE_URL when this file was written${server.apiKeyEnv === void 0 ? "" : `
    apiKeyEnv: ${server.apiKeyEnv}`}`;
  return USER_HARNESS_TEMPLATE.replace("    baseUrl: http://127.0.0.1:8080/v1", provider).replace(
    "    model: local-model                 # the name your server expects",
    server.model === void 0 ? "    model: local-model                 # the name your server expects" : `    model: ${JSON.stringify(server.model)}            # from CORREX_MODEL when this file was written`
  );
}
var WORKSPACE_HARNESS_TEMPLATE = `# correx settings for this repository. They can only narrow the user's policy; providers,
# model profiles and the approval mode are the user's own ($CORREX_HOME/harness.yaml).

# defaults:
#   workflow: default-coding

policy: {}
#  writeScope: ["src/**", "test/**"]
#  neverWritable: ["migrations/**"]

# This repository's checks, besides the ones correx finds in package.json, pyproject.toml,
# go.mod, Cargo.toml or the Makefile.
# checks:
#   add:
#     - { name: e2e, command: "npm run e2e", advisory: true }
`;

// src/interfaces/cli/commands/init-command.ts
function initCommand(context) {
  return new Command("init").description(
    `write a commented ${HARNESS_FILE}: yours in $CORREX_HOME, or a repository's with --workspace`
  ).option(
    "--workspace <dir>",
    "write the repository's narrower template into this folder instead"
  ).option("--force", "overwrite an existing file").action((options) => {
    const dir = options.workspace === void 0 ? context.correxHome : resolve(options.workspace);
    const file = join(dir, HARNESS_FILE);
    if (existsSync(file) && !options.force) {
      throw new CorrexError(
        "config_exists",
        `${file} already exists; pass --force to overwrite it`
      );
    }
    mkdirSync(dir, { recursive: true });
    const server = options.workspace === void 0 ? context.environmentModel : void 0;
    writeFileSync(
      file,
      options.workspace !== void 0 ? WORKSPACE_HARNESS_TEMPLATE : server === void 0 ? USER_HARNESS_TEMPLATE : userHarnessTemplateFor(server),
      { mode: 384 }
    );
    context.out(`wrote ${file}`);
    if (server !== void 0)
      context.out(
        visibleText(
          `OPENAI_BASE_URL is set: from now on the models in ${file} win over it (the environment is used only when the file configures none). Its provider "local" points at ${server.baseUrl}${server.model === void 0 ? "; set its model: to the name your server serves" : ` with model ${server.model}`}, so runs keep using that server. Check with: correx doctor`
        )
      );
  });
}
export {
  initCommand
};

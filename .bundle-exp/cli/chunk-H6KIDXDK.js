import {
  McpServersConfigSchema
} from "./chunk-R6SHVX2P.js";
import {
  ConfigFileError,
  formatKeyPath,
  parseYamlSource
} from "./chunk-P2JR5UVJ.js";
import {
  parseDuration
} from "./chunk-BEI6ZGZB.js";
import {
  defaultCodingWorkflow
} from "./chunk-6D7FPGJD.js";
import {
  MAX_CONFIG_FILE_BYTES,
  readBoundedFile
} from "./chunk-LOKLPSJE.js";
import {
  DEFAULT_KERNEL_LIMITS,
  HookSetSchema,
  ModelProfileListSchema,
  PolicyOverlaySchema,
  WorkspacePolicySchema,
  safeParseWorkflow
} from "./chunk-OYJRPCLU.js";
import {
  globStaticPrefix,
  matchGlob
} from "./chunk-COPIES7C.js";
import {
  ChecksConfigSchema,
  OperatorModeSchema,
  mergeChecksConfig
} from "./chunk-IRD534JB.js";
import {
  canonicalJson
} from "./chunk-W32ANIA4.js";
import {
  CorrexError
} from "./chunk-BDZLLWVY.js";

// src/infrastructure/config/workspace-trust.ts
import { createHash } from "node:crypto";
import { appendFileSync, existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";
import { z } from "zod";
var WorkspaceNotTrustedError = class extends CorrexError {
  constructor(authority, changed) {
    super(
      "workspace_not_trusted",
      `${authority.workspace} ${changed ? "changed its" : "ships"} configuration that can run code or widen policy (${describeAuthority(authority)}) that you have not trusted${changed ? " in this form" : ""}; nothing of it ran: review it and run correx trust ${authority.workspace}`
    );
  }
};
function describeAuthority(authority) {
  const parts = [];
  const hooks = Object.values(authority.hooks ?? {}).flat().length;
  if (hooks > 0) parts.push(`${hooks} hook(s)`);
  const servers = Object.keys(authority.mcpServers ?? {});
  if (servers.length > 0) parts.push(`MCP server(s) ${servers.join(", ")}`);
  if (authority.widenings.length > 0)
    parts.push(
      `policy widening ${authority.widenings.map((widening) => `${widening.field} ${widening.value}`).join(", ")}`
    );
  return parts.join("; ");
}
var sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");
function programFiles(workspace, argv) {
  const files = [];
  for (const word of argv) {
    if (word.startsWith("-") || !(word.includes("/") || word.includes("."))) continue;
    const path = isAbsolute(word) ? word : resolve(workspace, word);
    const inside = relative(workspace, path);
    if (inside.startsWith("..") || isAbsolute(inside)) continue;
    try {
      if (statSync(path).isFile()) files.push(realpathSync(path));
    } catch {
    }
  }
  return files;
}
function describeWorkspaceAuthority(options) {
  const hookCount = Object.values(options.hooks ?? {}).flat().length;
  const servers = options.mcpServers ?? {};
  if (hookCount === 0 && Object.keys(servers).length === 0 && options.widenings.length === 0)
    return null;
  const programs = /* @__PURE__ */ new Set();
  for (const hook of Object.values(options.hooks ?? {}).flat())
    for (const file of programFiles(options.workspace, hook.command)) programs.add(file);
  for (const server of Object.values(servers))
    if ("command" in server)
      for (const file of programFiles(options.workspace, [server.command, ...server.args]))
        programs.add(file);
  const files = [
    options.harnessFile,
    ...[...programs].sort().map((path) => ({ path, sha256: sha256(readFileSync(path)) }))
  ];
  const pinned = files.map((file) => ({
    path: relative(options.workspace, file.path),
    sha256: file.sha256
  }));
  return {
    workspace: options.workspace,
    files,
    digest: sha256(canonicalJson(pinned)),
    ...hookCount === 0 ? {} : { hooks: options.hooks },
    ...Object.keys(servers).length === 0 ? {} : { mcpServers: servers },
    widenings: options.widenings
  };
}
var WorkspaceTrustRecordSchema = z.strictObject({
  type: z.enum(["workspace_trusted", "workspace_trust_withdrawn"]),
  workspace: z.string().min(1),
  digest: z.string().regex(/^[0-9a-f]{64}$/),
  files: z.array(
    z.strictObject({
      path: z.string().min(1),
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
      /** The text trusted, kept so a changed file can be shown as a diff. */
      content: z.string().optional()
    })
  ),
  by: z.string().min(1),
  /** `command` (correx trust) or `prompt` (answered at a run's start). */
  via: z.enum(["command", "prompt"]),
  at: z.string().min(1)
});
var TRUST_FILE = "trust.jsonl";
function readTrustRecords(correxHome) {
  const path = join(correxHome, TRUST_FILE);
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8").split("\n").flatMap((line) => {
    if (line.trim() === "") return [];
    try {
      const parsed = WorkspaceTrustRecordSchema.safeParse(JSON.parse(line));
      return parsed.success ? [parsed.data] : [];
    } catch {
      return [];
    }
  });
}
function latestTrust(correxHome, workspace) {
  return readTrustRecords(correxHome).findLast((record) => record.workspace === workspace) ?? null;
}
function isTrusted(correxHome, authority) {
  const latest = readTrustRecords(correxHome).findLast(
    (record) => record.digest === authority.digest
  );
  return latest?.type === "workspace_trusted";
}
function recordTrust(correxHome, authority, decision) {
  const record = {
    type: "workspace_trusted",
    workspace: authority.workspace,
    digest: authority.digest,
    files: authority.files.map((file) => ({
      ...file,
      content: readFileSync(file.path, "utf8")
    })),
    by: decision.by,
    via: decision.via,
    at: decision.at
  };
  appendFileSync(join(correxHome, TRUST_FILE), `${JSON.stringify(record)}
`, { mode: 384 });
  return record;
}
function requireTrustedWorkspace(correxHome, harness) {
  const authority = harness.untrustedAuthority;
  if (authority === void 0) return;
  const latest = latestTrust(correxHome, authority.workspace);
  throw new WorkspaceNotTrustedError(authority, latest?.type === "workspace_trusted");
}
function withdrawTrust(correxHome, workspace, decision) {
  const trusted = /* @__PURE__ */ new Map();
  for (const record of readTrustRecords(correxHome)) {
    if (record.type === "workspace_trusted" && record.workspace === workspace)
      trusted.set(record.digest, record);
    else trusted.delete(record.digest);
  }
  for (const record of trusted.values()) {
    const withdrawn = {
      type: "workspace_trust_withdrawn",
      workspace,
      digest: record.digest,
      files: record.files.map(({ path, sha256: digest }) => ({ path, sha256: digest })),
      by: decision.by,
      via: "command",
      at: decision.at
    };
    appendFileSync(join(correxHome, TRUST_FILE), `${JSON.stringify(withdrawn)}
`, { mode: 384 });
  }
  return [...trusted.keys()];
}

// src/infrastructure/config/load-harness-config.ts
import { createHash as createHash2 } from "node:crypto";
import { join as join2 } from "node:path";

// src/core/policies/merge-policy.ts
var TIER_ORDER = ["T0", "T1", "T2", "T3"];
function mergePolicy(user, workspace) {
  const refused = [];
  const intersect = (field, mine, theirs) => {
    if (theirs === void 0) return [...mine];
    const kept = theirs.filter((value) => mine.includes(value));
    for (const value of theirs) {
      if (!mine.includes(value))
        refused.push({ field, value, reason: "not allowed by the user policy" });
    }
    return [...new Set(kept)];
  };
  let writeScope = user.writeScope.map((list) => [...list]);
  if (workspace.writeScope !== void 0) {
    const accepted = workspace.writeScope.filter((glob) => {
      const covered = user.writeScope.every((list) => list.some((mine) => coversGlob(mine, glob)));
      if (!covered)
        refused.push({
          field: "writeScope",
          value: glob,
          reason: "reaches outside the user write scope"
        });
      return covered;
    });
    writeScope = [...writeScope, accepted];
  }
  const tierOverrides = { ...user.tierOverrides };
  for (const [tool, tier] of Object.entries(workspace.tierOverrides ?? {})) {
    const current = tierOverrides[tool] ?? "T0";
    if (TIER_ORDER.indexOf(tier) >= TIER_ORDER.indexOf(current)) tierOverrides[tool] = tier;
    else
      refused.push({
        field: "tierOverrides",
        value: `${tool}=${tier}`,
        reason: `lower than the user tier ${current}`
      });
  }
  const lower = (field, mine, theirs) => {
    if (theirs === void 0 || theirs <= mine) return theirs ?? mine;
    refused.push({ field, value: String(theirs), reason: `higher than the user limit ${mine}` });
    return mine;
  };
  return {
    policy: {
      allowedExecutables: intersect(
        "allowedExecutables",
        user.allowedExecutables,
        workspace.allowedExecutables
      ),
      egressAllowlist: intersect(
        "egressAllowlist",
        user.egressAllowlist,
        workspace.egressAllowlist
      ),
      writeScope,
      neverWritable: [.../* @__PURE__ */ new Set([...user.neverWritable, ...workspace.neverWritable ?? []])],
      tierOverrides,
      maxCommandLength: lower(
        "maxCommandLength",
        user.maxCommandLength,
        workspace.maxCommandLength
      ),
      maxCommands: lower("maxCommands", user.maxCommands, workspace.maxCommands),
      // Only the user's file may set these; a workspace overlay has no say in them.
      ...user.unsandboxedExecTier === void 0 ? {} : { unsandboxedExecTier: user.unsandboxedExecTier },
      ...user.sandboxReadablePaths === void 0 ? {} : { sandboxReadablePaths: [...user.sandboxReadablePaths] },
      ...user.approvalTimeoutMs === void 0 ? {} : { approvalTimeoutMs: user.approvalTimeoutMs },
      ...user.writeBudgetBytes === void 0 ? {} : { writeBudgetBytes: user.writeBudgetBytes }
    },
    refused
  };
}
function coversGlob(outer, inner) {
  if (outer === inner) return true;
  if (!/[*?]/.test(inner)) return matchGlob(outer, inner);
  if (outer.endsWith("/**") || outer === "**") {
    const prefix = outer === "**" ? "" : outer.slice(0, -3);
    if (/[*?]/.test(prefix)) return false;
    const innerPrefix = globStaticPrefix(inner);
    return prefix === "" || innerPrefix === prefix || innerPrefix.startsWith(`${prefix}/`);
  }
  return false;
}

// src/infrastructure/config/harness-config.ts
import { z as z2 } from "zod";
var ProviderConfigSchema = z2.discriminatedUnion("kind", [
  z2.strictObject({
    kind: z2.literal("openai-compatible"),
    /** API root including `/v1`, e.g. `http://127.0.0.1:8080/v1` for llama.cpp's llama-server. */
    baseUrl: z2.url(),
    apiKeyEnv: z2.string().regex(/^[A-Z_][A-Z0-9_]*$/, "an environment variable name such as OPENAI_API_KEY").optional(),
    streaming: z2.boolean().default(true),
    structuredOutputs: z2.boolean().default(true)
  }),
  z2.strictObject({
    kind: z2.literal("anthropic"),
    baseUrl: z2.url().optional(),
    apiKeyEnv: z2.string().regex(/^[A-Z_][A-Z0-9_]*$/, "an environment variable name such as ANTHROPIC_API_KEY").default("ANTHROPIC_API_KEY"),
    streaming: z2.boolean().default(true)
  }),
  z2.strictObject({
    kind: z2.literal("llama-cpp"),
    /** A GGUF file on disk; correx never downloads a model. `~` is the home directory. */
    modelPath: z2.string().min(1),
    contextSize: z2.number().int().positive().optional(),
    gpu: z2.union([z2.literal(false), z2.literal("auto")]).default("auto"),
    /** CPU threads of a generation; default every physical core but one (at least 1). */
    threads: z2.number().int().positive().optional(),
    /** Layers offloaded to the GPU: a number, `max`, or `auto` (the default). */
    gpuLayers: z2.union([z2.number().int().nonnegative(), z2.literal("auto"), z2.literal("max")]).optional(),
    /** Prompt tokens evaluated per batch. */
    batchSize: z2.number().int().positive().optional(),
    /** Upper bound on one local call in milliseconds (the kernel's timeout applies too). */
    timeoutMs: z2.number().int().positive().optional()
  })
]);
var NameSchema = z2.string().regex(/^[a-z0-9][a-z0-9._-]*$/, "names are lowercase [a-z0-9._-]");
var UserHarnessConfigSchema = z2.strictObject({
  mode: OperatorModeSchema.default("prompt"),
  providers: z2.record(NameSchema, ProviderConfigSchema).default({}),
  models: ModelProfileListSchema.default([]),
  policy: WorkspacePolicySchema.default(WorkspacePolicySchema.parse({})),
  /** Workflow definitions, each in the workflow schema with its own `id` (see docs/workflows.md). */
  workflows: z2.array(z2.unknown()).default([]),
  /** The project checks every session runs before verify and review complete (added, replaced, advisory). */
  checks: ChecksConfigSchema.optional(),
  defaults: z2.strictObject({ workflow: NameSchema.optional(), model: NameSchema.optional() }).default({}),
  /** MCP servers whose tools sessions are offered (see docs/mcp.md), in other clients' shape. */
  mcpServers: McpServersConfigSchema.default({}),
  /** Programs told about tool calls, stages and sessions (see docs/hooks.md). */
  hooks: HookSetSchema.optional(),
  /** Per-session defaults; `correx run --max-…` overrides them. */
  budgets: z2.strictObject({
    maxTokens: z2.number().int().positive().optional(),
    maxCostUsd: z2.number().positive().optional(),
    /** `30m`, `2h`, `90s`. */
    maxDuration: z2.string().refine((text) => parseDuration(text) !== null, "a duration such as 90s, 30m or 2h").optional()
  }).default({}),
  /** How long a stage may go on (docs/configuration.md, "Limits"). */
  limits: z2.strictObject({
    /** Model turns one stage attempt may take before it fails. */
    turnsPerStage: z2.number().int().min(1).max(1e3).optional(),
    /** Tool calls one model answer may make; the rest are rejected. */
    callsPerTurn: z2.number().int().min(1).max(200).optional(),
    /** How often the same failing call may run again in one attempt. */
    repeatedFailures: z2.number().int().min(1).max(100).optional(),
    /** The longest one model call may take: `90s`, `5m`. */
    modelTimeout: z2.string().refine(
      (text) => (parseDuration(text) ?? 0) >= 1e3,
      "a duration of at least 1s, such as 90s or 5m"
    ).optional()
  }).default({}),
  /** How a long stage attempt's journal is compacted (docs/configuration.md, "Journal"). */
  journal: z2.strictObject({
    /** Entries a stage attempt's journal may hold before the older ones are summarised. */
    compactAfter: z2.number().int().min(2).optional(),
    /** The newest entries a compaction keeps verbatim. */
    keep: z2.number().int().min(1).optional(),
    /** The most tokens one compaction's summary may take. */
    summaryMaxTokens: z2.number().int().min(50).optional(),
    /** Who writes the summary: `lines` (correx, a line per entry) or `model` (the stage's model). */
    summary: z2.enum(["lines", "model"]).default("lines")
  }).default({ summary: "lines" })
});
var WorkspaceHarnessConfigSchema = z2.strictObject({
  policy: PolicyOverlaySchema.optional(),
  workflows: z2.array(z2.unknown()).default([]),
  /** This repository's own checks: its definition of done, run sandboxed like any command. */
  checks: ChecksConfigSchema.optional(),
  defaults: z2.strictObject({ workflow: NameSchema.optional(), model: NameSchema.optional() }).default({}),
  /** The repository's MCP servers: started only once the operator trusted this content. */
  mcpServers: McpServersConfigSchema.optional(),
  /** The repository's hooks: run only once the operator trusted this content. */
  hooks: HookSetSchema.optional()
});
var USER_ONLY_KEYS = ["mode", "providers", "models", "budgets", "limits", "journal"];
function parseConfigSource(source, schema) {
  const result = schema.safeParse(source.data ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const key = formatKeyPath(issue.path);
  const detail = issue.code === "unrecognized_keys" ? `unknown key${issue.keys.length > 1 ? "s" : ""} ${issue.keys.join(", ")}` : issue.message;
  const more = result.error.issues.length > 1 ? ` (and ${result.error.issues.length - 1} more problem(s))` : "";
  throw new ConfigFileError(source.locate(issue.path), `${key ? `${key}: ` : ""}${detail}${more}`);
}
function parseUserHarnessConfig(source) {
  return parseConfigSource(source, UserHarnessConfigSchema);
}
function parseWorkspaceHarnessConfig(source) {
  const data = source.data;
  if (typeof data === "object" && data !== null) {
    for (const key of USER_ONLY_KEYS) {
      if (key in data) {
        throw new ConfigFileError(
          source.locate([key]),
          `${key}: a workspace file may not set ${key}; set it in $CORREX_HOME/harness.yaml or on the command line`
        );
      }
    }
  }
  return parseConfigSource(source, WorkspaceHarnessConfigSchema);
}

// src/core/policies/widen-policy.ts
function widenPolicy(policy, widenings) {
  let widened = policy;
  for (const widening of widenings) {
    switch (widening.field) {
      case "allowedExecutables":
      case "egressAllowlist":
        widened = {
          ...widened,
          [widening.field]: [.../* @__PURE__ */ new Set([...widened[widening.field], widening.value])]
        };
        break;
      case "writeScope":
        widened = {
          ...widened,
          writeScope: widened.writeScope.map((list) => [.../* @__PURE__ */ new Set([...list, widening.value])])
        };
        break;
      case "tierOverrides": {
        const at = widening.value.lastIndexOf("=");
        widened = {
          ...widened,
          tierOverrides: {
            ...widened.tierOverrides,
            [widening.value.slice(0, at)]: widening.value.slice(
              at + 1
            )
          }
        };
        break;
      }
      case "maxCommandLength":
      case "maxCommands":
        widened = { ...widened, [widening.field]: Number(widening.value) };
        break;
      case "neverWritable":
        break;
    }
  }
  return widened;
}

// src/infrastructure/config/load-harness-config.ts
var HARNESS_FILE = "harness.yaml";
function runLimits(limits) {
  return {
    ...limits.turnsPerStage === void 0 ? {} : { maxTurnsPerStage: limits.turnsPerStage },
    ...limits.callsPerTurn === void 0 ? {} : { maxCallsPerTurn: limits.callsPerTurn },
    ...limits.repeatedFailures === void 0 ? {} : { maxRepeatedFailures: limits.repeatedFailures },
    ...limits.modelTimeout === void 0 ? {} : { inferenceTimeoutMs: parseDuration(limits.modelTimeout) }
  };
}
function journalLimits(journal, source) {
  const limits = {
    ...journal.compactAfter === void 0 ? {} : { compactJournalAfter: journal.compactAfter },
    ...journal.keep === void 0 ? {} : { compactJournalKeep: journal.keep },
    ...journal.summaryMaxTokens === void 0 ? {} : { compactJournalMaxTokens: journal.summaryMaxTokens }
  };
  const after = limits.compactJournalAfter ?? DEFAULT_KERNEL_LIMITS.compactJournalAfter;
  const keep = limits.compactJournalKeep ?? DEFAULT_KERNEL_LIMITS.compactJournalKeep;
  if (keep >= after)
    throw new ConfigFileError(
      source?.locate(["journal", journal.keep === void 0 ? "compactAfter" : "keep"]) ?? HARNESS_FILE,
      `journal.keep (${keep}) must be smaller than journal.compactAfter (${after})`
    );
  return limits;
}
async function loadHarnessConfig(options) {
  const userSource = await readSource(join2(options.correxHome, HARNESS_FILE));
  const workspaceSource = options.workspace ? await readSource(join2(options.workspace, HARNESS_FILE)) : void 0;
  const user = userSource ? parseUserHarnessConfig(userSource) : UserHarnessConfigSchema.parse({});
  const workspace = workspaceSource ? parseWorkspaceHarnessConfig(workspaceSource) : void 0;
  const workflows = /* @__PURE__ */ new Map([[defaultCodingWorkflow.id, defaultCodingWorkflow]]);
  const origin = /* @__PURE__ */ new Map([[defaultCodingWorkflow.id, "built in"]]);
  const addWorkflows = (source, definitions, mayReplaceBuiltIn) => {
    definitions.forEach((definition, index) => {
      const result = safeParseWorkflow(definition, { source: source.file });
      if (!result.success) {
        const issue = result.error.issues[0];
        const where = source.locate(["workflows", index, ...issue?.path ?? []]);
        throw new ConfigFileError(where, issue?.message ?? result.error.message, {
          cause: result.error
        });
      }
      const id = result.workflow.id;
      const earlier = origin.get(id);
      if (earlier && !(earlier === "built in" && mayReplaceBuiltIn)) {
        throw new ConfigFileError(
          source.locate(["workflows", index, "id"]),
          `workflow "${id}" is already defined (${earlier})`
        );
      }
      workflows.set(id, result.workflow);
      origin.set(id, source.file);
    });
  };
  if (userSource) addWorkflows(userSource, user.workflows, true);
  if (workspaceSource && workspace) addWorkflows(workspaceSource, workspace.workflows, false);
  const merged = mergePolicy(user.policy, workspace?.policy ?? {});
  const defaults = { ...user.defaults, ...workspace?.defaults };
  const workflow = defaults.workflow ?? defaultCodingWorkflow.id;
  const lastSource = workspaceSource ?? userSource;
  if (!workflows.has(workflow)) {
    throw new ConfigFileError(
      lastSource?.locate(["defaults", "workflow"]) ?? HARNESS_FILE,
      `defaults.workflow: no workflow "${workflow}"`
    );
  }
  if (defaults.model !== void 0 && !user.models.some((profile) => profile.id === defaults.model)) {
    throw new ConfigFileError(
      lastSource?.locate(["defaults", "model"]) ?? HARNESS_FILE,
      `defaults.model: no model profile "${defaults.model}"`
    );
  }
  user.models.forEach((profile, index) => {
    if (!(profile.provider in user.providers) && profile.provider !== "scripted") {
      throw new ConfigFileError(
        userSource.locate(["models", index, "provider"]),
        `models[${index}].provider: no provider "${profile.provider}" under providers:`
      );
    }
  });
  const checks = mergeChecksConfig(user.checks, workspace?.checks);
  const authority = workspaceSource === void 0 || workspace === void 0 ? null : describeWorkspaceAuthority({
    workspace: options.workspace,
    harnessFile: { path: workspaceSource.file, sha256: workspaceSource.sha256 },
    ...workspace.hooks === void 0 ? {} : { hooks: workspace.hooks },
    ...workspace.mcpServers === void 0 ? {} : { mcpServers: workspace.mcpServers },
    widenings: merged.refused
  });
  const trusted = authority !== null && isTrusted(options.correxHome, authority);
  const hooks = trusted ? joinHooks(user.hooks, authority.hooks) : user.hooks;
  return {
    mode: user.mode,
    providers: user.providers,
    models: user.models,
    policy: trusted ? widenPolicy(merged.policy, authority.widenings) : merged.policy,
    refusedPolicy: trusted ? [] : merged.refused,
    workflows,
    // The user's server of a name wins over the workspace's.
    mcpServers: trusted ? { ...authority.mcpServers, ...user.mcpServers } : user.mcpServers,
    ...hooks === void 0 ? {} : { hooks },
    ...authority === null ? {} : trusted ? { trustedAuthority: authority } : { untrustedAuthority: authority },
    defaults: { workflow, ...defaults.model === void 0 ? {} : { model: defaults.model } },
    budgets: {
      ...user.budgets.maxTokens === void 0 ? {} : { maxTokens: user.budgets.maxTokens },
      ...user.budgets.maxCostUsd === void 0 ? {} : { maxCostUsd: user.budgets.maxCostUsd },
      ...user.budgets.maxDuration === void 0 ? {} : { maxDurationMs: parseDuration(user.budgets.maxDuration) }
    },
    limits: { ...runLimits(user.limits), ...journalLimits(user.journal, userSource) },
    journalSummary: user.journal.summary,
    ...checks === void 0 ? {} : { checks },
    sources: [userSource?.file, workspaceSource?.file].filter(
      (file) => file !== void 0
    ),
    files: [userSource, workspaceSource].filter((source) => source !== void 0).map((source) => ({ path: source.file, sha256: source.sha256 }))
  };
}
function joinHooks(user, workspace) {
  if (workspace === void 0) return user;
  if (user === void 0) return workspace;
  return {
    pre_tool_use: [...user.pre_tool_use, ...workspace.pre_tool_use],
    post_tool_use: [...user.post_tool_use, ...workspace.post_tool_use],
    stage_end: [...user.stage_end, ...workspace.stage_end],
    session_end: [...user.session_end, ...workspace.session_end]
  };
}
async function readSource(path) {
  let bytes;
  try {
    bytes = await readBoundedFile(path, { maxBytes: MAX_CONFIG_FILE_BYTES, what: HARNESS_FILE });
  } catch (error) {
    if (error.code === "ENOENT") return void 0;
    throw new ConfigFileError(path, `cannot read: ${error.message}`, { cause: error });
  }
  const sha2562 = createHash2("sha256").update(bytes).digest("hex");
  return Object.assign(parseYamlSource(bytes.toString("utf8"), path), { sha256: sha2562 });
}

export {
  WorkspaceNotTrustedError,
  describeAuthority,
  latestTrust,
  recordTrust,
  requireTrustedWorkspace,
  withdrawTrust,
  HARNESS_FILE,
  loadHarnessConfig
};

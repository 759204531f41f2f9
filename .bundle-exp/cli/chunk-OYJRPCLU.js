import {
  globStaticPrefix,
  hostAllowed,
  matchGlob,
  parseUrlTarget
} from "./chunk-COPIES7C.js";
import {
  ConcurrencyError
} from "./chunk-CORQQBM5.js";
import {
  ApprovalTierSchema,
  ChecksConfigSchema,
  FailureCategorySchema,
  InferenceError,
  InferenceResultSchema,
  ParamRoleSchema,
  ToolCapabilitySchema,
  ToolSourceSchema,
  VALIDATION_PHASES,
  correxEventCatalog,
  createArtifact,
  defineTool,
  effectiveProjectChecks,
  extractBriefReferences,
  hasCapability,
  hasValidHash,
  isFinalStatus,
  isMutatingTool,
  maxTier,
  originOf,
  sha256Hex,
  steeringNoteAdded,
  tierRank,
  toolArgsJsonSchema
} from "./chunk-IRD534JB.js";
import {
  SANDBOX_PRIVATE_FOLDERS
} from "./chunk-A7ITNCWT.js";
import {
  NonCanonicalValueError,
  canonicalJson,
  createEventCodec
} from "./chunk-W32ANIA4.js";
import {
  visibleText
} from "./chunk-7N5K7NRY.js";
import {
  CorrexError
} from "./chunk-BDZLLWVY.js";

// src/core/inference/model-profile.ts
import { z as z2 } from "zod";

// src/core/inference/model-capability.ts
import { z } from "zod";
var ModelCapabilitySchema = z.enum([
  "tool_calling",
  "json_output",
  "long_context",
  "vision",
  "streaming",
  "reasoning"
]);

// src/core/inference/model-profile.ts
var ModelProfileSchema = z2.strictObject({
  id: z2.string().regex(/^[a-z0-9][a-z0-9._-]*$/, "profile ids are lowercase [a-z0-9._-]"),
  provider: z2.string().min(1),
  model: z2.string().min(1),
  capabilities: z2.array(ModelCapabilitySchema),
  /** Context window in tokens. */
  contextWindow: z2.number().int().positive(),
  maxOutputTokens: z2.number().int().positive().default(4096),
  /** Higher wins among eligible profiles; ties keep configuration order. */
  priority: z2.number().int().default(0),
  /** US dollars per million tokens, for cost in `show` and the session's cost budget. */
  prices: z2.strictObject({
    inputPerMillion: z2.number().nonnegative(),
    outputPerMillion: z2.number().nonnegative(),
    /** Cached input, where the provider reports it; defaults to the input price. */
    cachedInputPerMillion: z2.number().nonnegative().optional()
  }).optional()
});
var ModelProfileListSchema = z2.array(ModelProfileSchema).superRefine((profiles, context) => {
  const seen = /* @__PURE__ */ new Set();
  profiles.forEach((profile, index) => {
    if (seen.has(profile.id)) {
      context.addIssue({
        code: "custom",
        path: [index, "id"],
        message: `duplicate model profile id "${profile.id}"`
      });
    }
    seen.add(profile.id);
  });
});

// src/core/inference/inference-router.ts
var InvalidModelProfilesError = class extends CorrexError {
  constructor(message, options) {
    super("invalid_model_profiles", message, options);
  }
};
function parseModelProfiles(input) {
  const parsed = ModelProfileListSchema.safeParse(input);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `models[${issue.path.join(".")}]: ${issue.message}`).join("; ");
    throw new InvalidModelProfilesError(`invalid model profiles: ${issues}`, {
      cause: parsed.error
    });
  }
  return parsed.data;
}
function effectiveCapabilities(request) {
  const required = new Set(request.requiredCapabilities);
  if (request.allowedTools.length > 0) required.add("tool_calling");
  return [...required].sort();
}
function createInferenceRouter(options) {
  const profiles = parseModelProfiles(options.profiles);
  return {
    profiles,
    route(request) {
      const required = effectiveCapabilities(request);
      const rejections = [];
      let best;
      for (const profile of profiles) {
        const declared = new Set(profile.capabilities);
        const missing = required.filter((capability) => !declared.has(capability));
        const tooSmall = request.minContextTokens !== void 0 && profile.contextWindow < request.minContextTokens;
        const notPreferred = request.preferredProfileId !== void 0 && profile.id !== request.preferredProfileId;
        if (missing.length > 0 || tooSmall || notPreferred) {
          rejections.push({
            profileId: profile.id,
            missingCapabilities: missing,
            contextWindowTooSmall: tooSmall,
            notPreferred
          });
          continue;
        }
        if (best === void 0 || profile.priority > best.priority) best = profile;
      }
      return best === void 0 ? { ok: false, stageId: request.stageId, requiredCapabilities: required, rejections } : { ok: true, profile: best, requiredCapabilities: required };
    }
  };
}

// src/core/policies/workspace-policy.ts
import { z as z3 } from "zod";
var TierSchema = z3.enum(["T0", "T1", "T2", "T3"]);
var PolicyHostSchema = z3.string().min(1).max(253).regex(
  /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/,
  'a host is lower-case ASCII labels (punycode for IDNs), optionally prefixed by "*." for subdomains'
);
var GlobSchema = z3.string().min(1).max(1024).refine((text) => !text.includes("\0"), "a glob may not contain NUL");
var LEGACY_NOTHING_WRITABLE_GLOB = "\0nothing";
var WriteScopeListSchema = z3.array(z3.string().min(1).max(1024)).superRefine((globs, context) => {
  if (globs.length === 1 && globs[0] === LEGACY_NOTHING_WRITABLE_GLOB) return;
  globs.forEach((glob, index) => {
    if (glob.includes("\0"))
      context.addIssue({ code: "custom", message: "a glob may not contain NUL", path: [index] });
  });
});
var DEFAULT_ALLOWED_EXECUTABLES = [
  "cat",
  "cut",
  "diff",
  "echo",
  "false",
  "file",
  "find",
  "git",
  "grep",
  "head",
  "ls",
  "make",
  "mkdir",
  "node",
  "npm",
  "npx",
  "printf",
  "pwd",
  "python3",
  "rg",
  "sed",
  "sort",
  "stat",
  "tail",
  "tee",
  "touch",
  "tr",
  "true",
  "tsc",
  "uniq",
  "vitest",
  "wc",
  "which",
  "xargs",
  "cp",
  "mv",
  "rm",
  "env",
  "test",
  "[",
  "basename",
  "dirname",
  "realpath",
  "jq",
  "awk",
  // Local, network-free tools real agents reach for (issue #17); tools that write are judged by their outputs.
  "python",
  "pytest",
  "tree",
  "du",
  "df",
  "date",
  "seq",
  "sleep",
  "read",
  "exit",
  "nl",
  "paste",
  "comm",
  "column",
  "tac",
  "rev",
  "fold",
  "od",
  "xxd",
  "base64",
  "sha256sum",
  "md5sum",
  "cmp",
  "ffprobe",
  "ffmpeg",
  "identify",
  "convert"
];
var DEFAULT_NEVER_WRITABLE = [
  ".correx/**",
  "harness.yaml",
  ".git/hooks/**",
  ".git/config",
  "**/.git/hooks/**",
  "**/.git/config",
  ".gitmodules",
  "**/.envrc",
  "~/.correx/**",
  "~/.config/correx/**",
  "~/.bashrc",
  "~/.bash_profile",
  "~/.bash_login",
  "~/.profile",
  "~/.zshrc",
  "~/.zshenv",
  "~/.zprofile",
  "~/.config/fish/**",
  "~/.gitconfig",
  "~/.config/git/**",
  "~/.ssh/**",
  "~/.npmrc",
  "/etc/**"
];
var GIT_NEVER_WRITABLE = [".git", ".git/**", "**/.git", "**/.git/**"];
var DEFAULT_NEVER_READABLE = [
  "**/.env",
  "**/.env.local",
  "**/.env.*.local",
  "**/.env.production",
  "**/.env.development",
  "**/.env.staging",
  "**/*.pem",
  "**/*.key",
  "**/*.p12",
  "**/*.pfx",
  "**/id_rsa",
  "**/id_dsa",
  "**/id_ecdsa",
  "**/id_ed25519",
  "**/.npmrc",
  "**/.netrc",
  "~/.ssh/**",
  "~/.aws/**",
  "~/.gnupg/**",
  "~/.netrc",
  "~/.npmrc",
  "~/.docker/config.json"
];
var DEFAULT_UNSANDBOXED_EXEC_TIER = "T3";
var WorkspacePolicySchema = z3.strictObject({
  /** Program names (basenames) `exec` may run, in any position of a command line. */
  allowedExecutables: z3.array(z3.string().min(1).max(255)).default([...DEFAULT_ALLOWED_EXECUTABLES]),
  /** Hosts network tools may reach; exact match, or `*.example.com` for strict subdomains. */
  egressAllowlist: z3.array(PolicyHostSchema).default([]),
  /**
   * Globs (workspace-relative) a write target must match. Every list must match (narrowing); an
   * empty list matches nothing.
   */
  writeScope: z3.array(WriteScopeListSchema).default([["**"]]),
  /** Paths never writable; see DEFAULT_NEVER_WRITABLE. */
  neverWritable: z3.array(GlobSchema).default([...DEFAULT_NEVER_WRITABLE]),
  /** Per-tool minimum approval tier; may only raise a tool's tier. */
  tierOverrides: z3.record(z3.string().min(1), TierSchema).default({}),
  /** Longest shell command line `exec` accepts; longer lines are blocked, never half-checked. */
  maxCommandLength: z3.number().int().min(1).max(65536).default(8192),
  /** Most simple commands one shell line may contain (pipelines, lists, substitutions). */
  maxCommands: z3.number().int().min(1).max(256).default(32),
  /**
   * The minimum tier of every `exec` when the machine has no sandbox; absent means
   * DEFAULT_UNSANDBOXED_EXEC_TIER (T3: every command asks). Optional so older policies parse.
   */
  unsandboxedExecTier: TierSchema.optional(),
  /**
   * Paths (absolute or `~/...`) a sandboxed process may read although they lie in the hidden
   * home; nothing under the home is readable otherwise.
   */
  sandboxReadablePaths: z3.array(GlobSchema).optional(),
  /**
   * How long a call may wait for a person's approval; past it the call is denied by timeout
   * (recorded), never approved. Absent: it waits until someone decides.
   */
  approvalTimeoutMs: z3.number().int().min(1).max(30 * 24 * 3600 * 1e3).optional(),
  /**
   * The most bytes of content the model's file writes may carry in one session (UTF-8, counted
   * over successful writes); a write past it is blocked. Absent: no budget.
   */
  writeBudgetBytes: z3.number().int().min(1).optional(),
  /**
   * Paths never readable (see DEFAULT_NEVER_READABLE, used when absent). Optional with no
   * default so that policies recorded before it existed keep their recorded bytes.
   */
  neverReadable: z3.array(GlobSchema).optional()
});
var PolicyOverlaySchema = z3.strictObject({
  allowedExecutables: z3.array(z3.string().min(1).max(255)).optional(),
  egressAllowlist: z3.array(PolicyHostSchema).optional(),
  writeScope: z3.array(GlobSchema).min(1).optional(),
  neverWritable: z3.array(GlobSchema).optional(),
  tierOverrides: z3.record(z3.string().min(1), TierSchema).optional(),
  maxCommandLength: z3.number().int().min(1).max(65536).optional(),
  maxCommands: z3.number().int().min(1).max(256).optional()
});
var InvalidPolicyError = class extends CorrexError {
  constructor(message, options) {
    super("invalid_policy", message, options);
  }
};
function parseWorkspacePolicy(input) {
  const result2 = WorkspacePolicySchema.safeParse(input ?? {});
  if (!result2.success)
    throw new InvalidPolicyError(`invalid policy: ${z3.prettifyError(result2.error)}`, {
      cause: result2.error
    });
  return result2.data;
}

// src/core/approvals/approval-grants.ts
var approvalGrantsProjection = {
  name: "approval-grants",
  version: 1,
  initial: () => ({ grants: {} }),
  evolve(state, event) {
    const payload = event.payload;
    if (payload.type === "approval_grant_added") {
      const { type: _type, ...grant } = payload;
      return { grants: { ...state.grants, [grant.grantId]: { ...grant, revoked: false } } };
    }
    if (payload.type === "approval_grant_revoked") {
      const { grantId } = payload;
      const existing = state.grants[grantId];
      if (existing === void 0) return state;
      return { grants: { ...state.grants, [grantId]: { ...existing, revoked: true } } };
    }
    return state;
  }
};
function activeGrants(state, at2) {
  return Object.values(state.grants).filter((grant) => !grant.revoked && (grant.expiresAt === null || at2 < grant.expiresAt)).sort((a, b) => a.grantId < b.grantId ? -1 : a.grantId > b.grantId ? 1 : 0);
}
function findCoveringGrant(state, subject, at2) {
  return activeGrants(state, at2).find(
    (grant) => (grant.lifetime === "session" || grant.stageId === subject.stageId) && scopeCovers(grant.scope, subject)
  );
}
function scopeCovers(scope, subject) {
  switch (scope.kind) {
    case "command":
      return subject.tool === "exec" && subject.command === scope.command;
    case "path":
      return subject.tool === scope.tool && subject.command === null && subject.hosts.length === 0 && subject.paths.length > 0 && subject.paths.every((path) => matchGlob(scope.glob, path));
    case "host":
      return subject.command === null && subject.paths.length === 0 && subject.hosts.length > 0 && subject.hosts.every((host) => host === scope.host);
  }
}

// src/core/base/assert-never.ts
function assertNever(value, what = "value") {
  throw new TypeError(`unexpected ${what}: ${JSON.stringify(value)}`);
}

// src/core/sessions/artifact-approval-key.ts
function artifactApprovalKey(hash) {
  return `${ARTIFACT_APPROVAL_PREFIX}${hash}`;
}
var ARTIFACT_APPROVAL_PREFIX = "artifact:";

// src/core/sessions/session-projection.ts
var foldedTypes = /* @__PURE__ */ new Set([
  "session_created",
  "workflow_started",
  "workflow_completed",
  "workflow_failed",
  "workflow_cancelled",
  "orchestration_paused",
  "orchestration_resumed",
  "stage_started",
  "stage_completed",
  "stage_failed",
  "lifecycle_rejected",
  "approval_requested",
  "approval_granted",
  "approval_denied",
  "transition_taken",
  "session_retried",
  "transition_rejected"
]);
var sessionProjection = {
  name: "session",
  // 2: grantedApprovals holds artifact approvals only.
  version: 2,
  initial: () => ({
    sessionId: null,
    status: "new",
    task: null,
    workspace: null,
    workflowId: null,
    activeStage: null,
    nextStage: null,
    lastStageId: null,
    attempts: {},
    cycles: {},
    pendingApprovals: [],
    grantedApprovals: [],
    tokens: { input: 0, output: 0 },
    timings: {},
    failure: null,
    lastSequence: 0
  }),
  evolve(state, event) {
    const next = at(state, event.sessionId, event.sequence);
    if (foldedTypes.has(event.payload.type)) {
      return evolveKnown(next, event.payload, event.timestamp);
    }
    if (event.payload.type === "inference_completed") return addUsage(next, event.payload);
    return next;
  }
};
function evolveKnown(state, payload, timestamp) {
  switch (payload.type) {
    case "session_created":
      return {
        ...state,
        status: "created",
        task: payload.task,
        workspace: payload.workspace,
        workflowId: payload.workflowId
      };
    case "workflow_started":
      return {
        ...state,
        status: "running",
        workflowId: payload.workflowId,
        nextStage: { stageId: payload.firstStageId, attempt: 1 }
      };
    case "orchestration_paused":
      return { ...state, status: "paused" };
    case "orchestration_resumed":
      return { ...state, status: "running" };
    case "workflow_completed":
      return { ...state, status: "completed", nextStage: null };
    case "workflow_failed":
      return {
        ...state,
        status: "failed",
        nextStage: null,
        failure: { category: payload.category, message: payload.message }
      };
    case "workflow_cancelled":
      return { ...state, status: "cancelled", nextStage: null };
    case "session_retried":
      return {
        ...state,
        status: "running",
        activeStage: null,
        nextStage: { stageId: payload.stageId, attempt: payload.attempt },
        failure: null
      };
    case "stage_started":
      return {
        ...state,
        activeStage: { stageId: payload.stageId, attempt: payload.attempt, startedAt: timestamp },
        nextStage: null,
        lastStageId: payload.stageId,
        attempts: {
          ...state.attempts,
          [payload.stageId]: payload.attempt
        }
      };
    case "stage_completed":
    case "stage_failed":
      return finishStage(state, payload.stageId, timestamp);
    case "transition_taken":
      return {
        ...state,
        cycles: { ...state.cycles, [payload.edge]: payload.traversal },
        nextStage: payload.to === void 0 ? null : { stageId: payload.to, attempt: payload.attempt ?? 1 }
      };
    case "approval_requested":
      return {
        ...state,
        pendingApprovals: [
          ...state.pendingApprovals.filter((pending) => pending.callId !== payload.callId),
          { callId: payload.callId, tool: payload.tool, tier: payload.tier }
        ]
      };
    case "approval_granted":
      return {
        ...state,
        pendingApprovals: state.pendingApprovals.filter(
          (pending) => pending.callId !== payload.callId
        ),
        grantedApprovals: !payload.callId.startsWith(ARTIFACT_APPROVAL_PREFIX) || state.grantedApprovals.includes(payload.callId) ? state.grantedApprovals : [...state.grantedApprovals, payload.callId]
      };
    case "approval_denied":
      return {
        ...state,
        pendingApprovals: state.pendingApprovals.filter(
          (pending) => pending.callId !== payload.callId
        )
      };
    case "lifecycle_rejected":
    case "transition_rejected":
      return state;
    default:
      return assertNever(payload, "session event");
  }
}
function finishStage(state, stageId, timestamp) {
  const active = state.activeStage;
  if (!active || active.stageId !== stageId) return { ...state, activeStage: null };
  const elapsed = Math.max(0, Date.parse(timestamp) - Date.parse(active.startedAt));
  const previous = state.timings[stageId] ?? { runs: 0, totalMs: 0 };
  return {
    ...state,
    activeStage: null,
    timings: {
      ...state.timings,
      [stageId]: { runs: previous.runs + 1, totalMs: previous.totalMs + elapsed }
    }
  };
}
function at(state, sessionId, lastSequence) {
  return {
    sessionId,
    status: state.status,
    task: state.task,
    workspace: state.workspace,
    workflowId: state.workflowId,
    activeStage: state.activeStage,
    nextStage: state.nextStage,
    lastStageId: state.lastStageId,
    attempts: state.attempts,
    cycles: state.cycles,
    pendingApprovals: state.pendingApprovals,
    grantedApprovals: state.grantedApprovals,
    tokens: state.tokens,
    timings: state.timings,
    failure: state.failure,
    lastSequence
  };
}
function addUsage(state, payload) {
  const usage = payload.result?.usage;
  return {
    ...state,
    tokens: {
      input: state.tokens.input + count(usage?.inputTokens),
      output: state.tokens.output + count(usage?.outputTokens)
    }
  };
}
function count(value) {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}

// src/core/events/canonical-equal.ts
function canonicallyEqual(left, right) {
  if (left === right) return typeof left !== "number" || Number.isFinite(left) || fallback();
  const leftType = typeof left;
  if (leftType !== typeof right || leftType !== "object" || left === null || right === null)
    return isPlainScalar(left) && isPlainScalar(right) ? false : fallback();
  if (Array.isArray(left)) {
    if (!Array.isArray(right)) return false;
    if (left.length !== right.length) return false;
    for (let index = 0; index < left.length; index++)
      if (!canonicallyEqual(left[index] ?? null, right[index] ?? null)) return false;
    return true;
  }
  if (Array.isArray(right) || !isPlainObject(left) || !isPlainObject(right))
    return fallback();
  const leftRecord = left;
  const rightRecord = right;
  let defined = 0;
  for (const key of Object.keys(leftRecord)) {
    const member = leftRecord[key];
    if (member === void 0) continue;
    defined += 1;
    if (!Object.hasOwn(rightRecord, key) || !canonicallyEqual(member, rightRecord[key]))
      return false;
  }
  for (const key of Object.keys(rightRecord)) if (rightRecord[key] !== void 0) defined -= 1;
  return defined === 0;
  function fallback() {
    return canonicalJson(left) === canonicalJson(right);
  }
}
function isPlainScalar(value) {
  return value === null || typeof value === "boolean" || typeof value === "string" || typeof value === "number" && Number.isFinite(value);
}
function isPlainObject(value) {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

// src/core/kernel/queries/call-explanation.ts
var UnknownCallError = class extends CorrexError {
  constructor(sessionId, callId) {
    super("call_not_found", `session ${sessionId} has no tool call ${callId}`);
  }
};
var AmbiguousCallError = class extends CorrexError {
  constructor(sessionId, typed, candidates) {
    super(
      "usage",
      `${typed} is the end of ${candidates.length} calls of session ${sessionId} (${candidates.slice(0, 5).join(", ")}${candidates.length > 5 ? ", \u2026" : ""}); type more of the id`
    );
  }
};
function explainCall(events, callId) {
  const sessionId = events[0]?.sessionId ?? "";
  const payloads = events.map((event) => event.payload);
  const ofCall = (type) => payloads.filter((payload) => payload.type === type && payload.callId === callId);
  const first = (type) => payloads.find((payload) => payload.type === type);
  const proposed = payloads.find(
    (payload) => payload.type === "tool_call_proposed" && payload.callId === callId
  );
  if (proposed === void 0) {
    const typed = callId.replace(/^\[(.*)\]$/, "$1");
    const matches2 = payloads.filter((payload) => payload.type === "tool_call_proposed").map((payload) => payload.callId).filter((id) => id.endsWith(`.${typed}`));
    const unique = [...new Set(matches2)];
    if (unique.length === 1) return explainCall(events, unique[0]);
    if (unique.length > 1) throw new AmbiguousCallError(sessionId, callId, unique);
    throw new UnknownCallError(sessionId, callId);
  }
  const configuration = first("session_configured")?.configuration;
  const created = first("session_created");
  const assessed = ofCall("tool_call_assessed").at(-1);
  const rejected2 = ofCall("tool_call_rejected").at(-1);
  const granted2 = ofCall("approval_granted").at(-1);
  const denied2 = ofCall("approval_denied").at(-1);
  const requested = ofCall("approval_requested").at(-1);
  const receipt = ofCall("tool_receipt").at(-1);
  const receiptSandbox = receipt?.sandbox;
  const grantBy = granted2?.by;
  const grantAdded = grantBy?.kind === "grant" ? payloads.find(
    (payload) => payload.type === "approval_grant_added" && payload.grantId === grantBy.id
  ) : void 0;
  let decision;
  if (rejected2 !== void 0)
    decision = { outcome: "rejected", by: null, reason: `${rejected2.reason}: ${rejected2.message}` };
  else if (denied2 !== void 0)
    decision = { outcome: "denied", by: denied2.by, reason: denied2.reason };
  else if (granted2 !== void 0)
    decision = {
      outcome: "approved",
      by: granted2.by,
      reason: granted2.reason ?? null
    };
  else if (receipt !== void 0) decision = { outcome: "approved", by: null, reason: null };
  else decision = { outcome: "pending", by: null, reason: null };
  return {
    sessionId,
    callId,
    tool: proposed.tool,
    stageId: proposed.stageId ?? null,
    sandbox: receiptSandbox !== void 0 ? { kind: receiptSandbox.kind, from: "receipt", reason: receiptSandbox.reason } : configuration?.sandbox !== void 0 ? { kind: configuration.sandbox, from: "configuration", reason: null } : { kind: "not stated", from: "not recorded", reason: null },
    assessment: assessed === void 0 ? null : {
      verdict: assessed.verdict,
      tier: assessed.tier,
      risk: assessed.risk,
      findings: assessed.findings.map((finding2) => ({
        ruleId: finding2.ruleId,
        severity: finding2.severity,
        code: finding2.code,
        message: finding2.message
      }))
    },
    policy: policySource(configuration?.policy),
    grant: grantAdded === void 0 ? null : {
      grantId: grantAdded.grantId,
      scope: grantAdded.scope,
      by: grantAdded.by,
      reason: grantAdded.reason
    },
    mode: created?.mode ?? null,
    approvalRequested: requested === void 0 ? null : { tier: requested.tier, reason: requested.reason },
    bypassed: ofCall("approval_bypassed").length > 0,
    decision,
    ran: receipt === void 0 ? null : {
      outcome: receipt.outcome,
      exitCode: receipt.exitCode,
      error: receipt.error
    }
  };
}
function policySource(recorded) {
  if (recorded === null || typeof recorded !== "object")
    return { source: "not recorded", differsIn: [] };
  const fallback = JSON.parse(JSON.stringify(parseWorkspacePolicy({})));
  const policy = recorded;
  const differsIn = [.../* @__PURE__ */ new Set([...Object.keys(policy), ...Object.keys(fallback)])].filter((key) => {
    const left = policy[key];
    const right = fallback[key];
    if (left === void 0 || right === void 0) return left !== right;
    return !canonicallyEqual(left, right);
  }).sort();
  return { source: differsIn.length === 0 ? "default" : "operator", differsIn };
}
var scopeText = (scope) => {
  const value = scope;
  if (value.kind === "command") return `command ${value.command}`;
  if (value.kind === "path") return `${value.tool} on ${value.glob}`;
  if (value.kind === "host") return `host ${value.host}`;
  return JSON.stringify(scope);
};
function describeCallExplanation(explanation) {
  const v = visibleText;
  const lines = [
    `call ${v(explanation.callId)} ${v(explanation.tool)}${explanation.stageId === null ? "" : ` (stage ${v(explanation.stageId)})`}`
  ];
  const sandbox = explanation.sandbox;
  lines.push(
    `1 sandbox: ${v(sandbox.kind)} (from the ${sandbox.from === "receipt" ? "call's receipt" : sandbox.from === "configuration" ? "session's configuration" : "log: not recorded"})${sandbox.reason === null ? "" : `: ${v(sandbox.reason)}`}`
  );
  const assessment = explanation.assessment;
  if (assessment === null) lines.push("2 rules: not assessed (refused before assessment)");
  else {
    lines.push(
      `2 rules: ${v(assessment.verdict)} at ${v(assessment.tier)}, risk ${v(assessment.risk)}${assessment.findings.length === 0 ? ", no rule fired" : ""}`
    );
    for (const finding2 of assessment.findings)
      lines.push(
        `  ${v(finding2.ruleId)} ${v(finding2.severity)} ${v(finding2.code)}: ${v(finding2.message)}`
      );
  }
  const { source, differsIn } = explanation.policy;
  lines.push(
    `3 policy: ${source === "default" ? "correx's default policy" : source === "operator" ? `not this release's default (the operator's policy, an overlay, or an older release's default): differs in ${differsIn.map(v).join(", ")}` : "not recorded"}`
  );
  const grant = explanation.grant;
  lines.push(
    grant === null ? "4 grant: none" : `4 grant: ${v(grant.grantId)} (${v(scopeText(grant.scope))}) added by ${v(grant.by)}: ${v(grant.reason)}`
  );
  lines.push(
    `5 mode: ${v(explanation.mode ?? "not recorded")}${explanation.bypassed ? " (bypassed a check a person would have been asked)" : ""}`
  );
  const decision = explanation.decision;
  const asked = explanation.approvalRequested === null ? "" : ` after asking at ${v(explanation.approvalRequested.tier)}`;
  lines.push(
    `6 decision: ${decision.outcome}${asked}${decision.by === null ? "" : ` by ${v(decision.by.kind)} ${v(decision.by.id)}`}${decision.reason === null ? "" : `: ${v(decision.reason)}`}`
  );
  const ran = explanation.ran;
  lines.push(
    ran === null ? "7 ran: no" : `7 ran: ${v(ran.outcome)}${ran.exitCode === null ? "" : ` exit ${ran.exitCode}`}${ran.error === null ? "" : `: ${v(ran.error)}`}`
  );
  return lines;
}

// src/core/kernel/queries/latest-by.ts
function latestBy(items, key) {
  const latest = /* @__PURE__ */ new Map();
  for (const item of items) latest.set(key(item), item);
  return [...latest.values()];
}

// src/core/kernel/queries/merge-gate.ts
function gateSession(input) {
  const { facts, options } = input;
  const reasons = [];
  if (input.logProblem !== null) reasons.push(`the log does not verify: ${input.logProblem}`);
  if (facts.session.status !== "completed")
    reasons.push(`the session has not completed (it is ${facts.session.status})`);
  for (const difference of input.treeDifferences)
    reasons.push(`the tree under review is not what the log recorded: ${difference}`);
  for (const approval2 of facts.approvals) {
    if (approval2.verdict === "BLOCK" && (approval2.decision === "granted" || approval2.ran))
      reasons.push(
        `call ${approval2.callId} (${approval2.tool}) was blocked by policy and still ${approval2.ran ? "ran" : "approved"}`
      );
  }
  if (options.requireApproval !== void 0) {
    const floor = tierRank(options.requireApproval);
    for (const approval2 of facts.approvals) {
      if (tierRank(approval2.tier) < floor || approval2.decision !== "granted") continue;
      if (approval2.how === "person" || approval2.how === "grant") continue;
      reasons.push(
        `call ${approval2.callId} (${approval2.tool}, ${approval2.tier}) was approved by ${approval2.how === "mode" ? `operator mode ${approval2.by ?? "?"}` : approval2.by ?? "nobody"}, not by a person or a grant`
      );
    }
  }
  const required = latestBy(
    facts.checks.filter((check2) => !check2.advisory),
    (check2) => check2.name
  );
  if (options.requireChecks === true) {
    if (required.length === 0) reasons.push("no required check ran");
    for (const check2 of required) {
      if (!check2.passed)
        reasons.push(
          `check ${check2.name} did not pass on its last run (event #${check2.sequence}, ${check2.outcome}, exit ${check2.exitCode ?? "none"})`
        );
      else if (check2.tree !== facts.changes.sha256)
        reasons.push(
          `check ${check2.name} last passed at event #${check2.sequence}; files changed after it (last change at event #${facts.changes.lastSequence})`
        );
    }
  }
  return { pass: reasons.length === 0, reasons, checks: required };
}

// src/core/base/layered-record.ts
function layeredRecord(entries = {}) {
  const base = { ...entries };
  return { base, baseSize: Object.keys(base).length, recent: {}, recentSize: 0 };
}
function layeredHas(record, key) {
  return Object.hasOwn(record.recent, key) || Object.hasOwn(record.base, key);
}
function layeredGet(record, key) {
  if (Object.hasOwn(record.recent, key)) return record.recent[key];
  return Object.hasOwn(record.base, key) ? record.base[key] : void 0;
}
function layeredSet(record, key, value) {
  const known = Object.hasOwn(record.recent, key);
  const recent = { ...record.recent, [key]: value };
  const recentSize = known ? record.recentSize : record.recentSize + 1;
  if (recentSize <= 8 + Math.sqrt(record.baseSize))
    return { base: record.base, baseSize: record.baseSize, recent, recentSize };
  return layeredRecord({ ...record.base, ...recent });
}
function layeredDelete(record, key) {
  if (Object.hasOwn(record.base, key)) {
    const merged = { ...record.base, ...record.recent };
    delete merged[key];
    return layeredRecord(merged);
  }
  if (!Object.hasOwn(record.recent, key)) return record;
  const recent = { ...record.recent };
  delete recent[key];
  return {
    base: record.base,
    baseSize: record.baseSize,
    recent,
    recentSize: record.recentSize - 1
  };
}
function layeredEntries(record) {
  return record.recentSize === 0 ? record.base : { ...record.base, ...record.recent };
}

// src/core/toolintent/assess-tool-call.ts
import { z as z4 } from "zod";

// src/core/tools/tool-path.ts
var MAX_TOOL_PATH_LENGTH = 4096;
var MAX_SEGMENT_BYTES = 255;
var InvalidToolPathRootsError = class extends CorrexError {
  constructor(message) {
    super("invalid_tool_path_roots", message);
  }
};
var encoder = new TextEncoder();
function resolveToolPath(raw, roots, base) {
  assertRoot(roots.workspaceRoot, "workspaceRoot");
  assertRoot(roots.homeDirectory, "homeDirectory");
  if (typeof raw !== "string") return reject("not_a_string", "a path must be a string");
  if (raw.length === 0) return reject("empty", "a path may not be empty");
  if (raw.includes("\0")) return reject("nul_byte", "a path may not contain a NUL byte");
  if (raw.length > MAX_TOOL_PATH_LENGTH) {
    return reject("too_long", `a path may be at most ${MAX_TOOL_PATH_LENGTH} characters`);
  }
  let joined;
  if (raw === "~" || raw.startsWith("~/")) joined = roots.homeDirectory + raw.slice(1);
  else if (raw.startsWith("~"))
    return reject(
      "other_user_home",
      'only "~" and "~/..." name a home directory; "~user" is refused'
    );
  else if (raw.startsWith("/")) joined = raw;
  else joined = `${base ?? roots.workspaceRoot}/${raw}`;
  const absolute = normalizeAbsolute(joined);
  if (absolute.length > MAX_TOOL_PATH_LENGTH) {
    return reject("too_long", `a path may be at most ${MAX_TOOL_PATH_LENGTH} characters`);
  }
  for (const segment of absolute.split("/")) {
    if (segment.length * 3 > MAX_SEGMENT_BYTES && encoder.encode(segment).length > MAX_SEGMENT_BYTES) {
      return reject("segment_too_long", `a path segment may be at most ${MAX_SEGMENT_BYTES} bytes`);
    }
  }
  return { ok: true, path: { raw, absolute } };
}
function normalizeAbsolute(path) {
  const out = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") out.pop();
    else out.push(segment);
  }
  return `/${out.join("/")}`;
}
function isPathInside(path, root) {
  if (root === "/") return true;
  return path === root || path.startsWith(`${root}/`);
}
function relativeInside(path, root) {
  if (!isPathInside(path, root)) return void 0;
  if (path === root) return "";
  return root === "/" ? path.slice(1) : path.slice(root.length + 1);
}
function assertRoot(root, name) {
  if (!root.startsWith("/") || root.includes("\0") || normalizeAbsolute(root) !== root) {
    throw new InvalidToolPathRootsError(
      `${name} must be an absolute normalized path, got ${JSON.stringify(root)}`
    );
  }
}
function reject(code, message) {
  return { ok: false, rejection: { code, message } };
}

// src/core/toolintent/sed-script.ts
var SIMPLE = /* @__PURE__ */ new Set([
  "=",
  "d",
  "D",
  "g",
  "G",
  "h",
  "H",
  "l",
  "n",
  "N",
  "p",
  "P",
  "q",
  "Q",
  "x",
  "z",
  "F",
  "{",
  "}"
]);
function findSedScriptIssues(script) {
  const issues = [];
  let i = 0;
  const at2 = () => script[i];
  const skipBlanks = () => {
    while (i < script.length && /[\s;]/.test(script[i])) i++;
  };
  const readDelimited = (delimiter) => {
    while (i < script.length) {
      const c = script[i];
      if (c === "\\") {
        i += 2;
        continue;
      }
      if (c === "\n" && delimiter !== "\n") return false;
      i++;
      if (c === delimiter) return true;
    }
    return false;
  };
  const skipAddress = () => {
    for (; ; ) {
      const c = at2();
      if (c === void 0) return true;
      if (/[0-9$,~+!\s]/.test(c)) {
        i++;
        continue;
      }
      if (c === "/") {
        i++;
        if (!readDelimited("/")) return false;
        while (at2() === "I" || at2() === "M") i++;
        continue;
      }
      if (c === "\\") {
        const delimiter = script[i + 1];
        if (delimiter === void 0) return false;
        i += 2;
        if (!readDelimited(delimiter)) return false;
        continue;
      }
      return true;
    }
  };
  while (i < script.length) {
    skipBlanks();
    if (i >= script.length) break;
    if (at2() === "#") {
      while (i < script.length && at2() !== "\n") i++;
      continue;
    }
    if (!skipAddress()) {
      issues.push({ code: "sed_unparsed", detail: "unterminated address" });
      return issues;
    }
    const command = at2();
    if (command === void 0) break;
    i++;
    if (SIMPLE.has(command)) continue;
    if (command === "s" || command === "y") {
      const delimiter = at2();
      if (delimiter === void 0 || delimiter === "\n" || delimiter === "\\") {
        issues.push({ code: "sed_unparsed", detail: `bad ${command} delimiter` });
        return issues;
      }
      i++;
      if (!readDelimited(delimiter) || !readDelimited(delimiter)) {
        issues.push({ code: "sed_unparsed", detail: `unterminated ${command} command` });
        return issues;
      }
      if (command === "s") {
        while (i < script.length && /[gpiImMe0-9w]/.test(script[i])) {
          const flag = script[i];
          if (flag === "e")
            issues.push({
              code: "sed_exec",
              detail: "s///e runs the pattern space as a shell command"
            });
          if (flag === "w") {
            issues.push({ code: "sed_file_io", detail: "s///w writes a file" });
            while (i < script.length && script[i] !== "\n") i++;
            break;
          }
          i++;
        }
      }
      continue;
    }
    if (command === "e") {
      issues.push({ code: "sed_exec", detail: "the e command runs a shell command" });
    } else if ("wWrR".includes(command)) {
      issues.push({ code: "sed_file_io", detail: `the ${command} command reads or writes a file` });
    } else if (!"aic:btTvL".includes(command)) {
      issues.push({
        code: "sed_unparsed",
        detail: `unknown sed command ${JSON.stringify(command)}`
      });
      return issues;
    }
    while (i < script.length && script[i] !== "\n" && !(";}".includes(script[i]) && ":btTv".includes(command)))
      i++;
  }
  return issues;
}

// src/core/toolintent/exec-judgement.ts
function operands(words) {
  const out = [];
  let ended = false;
  for (const word of words) {
    if (!ended && word.text === "--") ended = true;
    else if (ended || !word.text.startsWith("-") || word.text === "-") out.push(word);
  }
  return out;
}
var STDIN_FILES = /* @__PURE__ */ new Set(["/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"]);
function readsProgramFromInput(args, siblings = false) {
  if (args.some((word) => /^(-v|-V|--version|-h|--help)$/.test(word.text))) return false;
  const script = operands(args)[0];
  return script === void 0 || script.text === "-" || siblings && STDIN_FILES.has(script.text);
}

// src/core/toolintent/exec-file-checks.ts
function judgeFind(args, j, depth) {
  const roots = [];
  let index = 0;
  while (index < args.length && !args[index].text.startsWith("-") && args[index].text !== "(" && args[index].text !== "!") {
    roots.push(args[index]);
    index++;
  }
  for (; index < args.length; index++) {
    const text = args[index].text;
    if (text === "-exec" || text === "-execdir" || text === "-ok" || text === "-okdir") {
      const end = args.findIndex(
        (word, at2) => at2 > index && (word.text === ";" || word.text === "+")
      );
      const inner = args.slice(index + 1, end < 0 ? args.length : end).filter((word) => word.text !== "{}");
      if (end < 0 || inner.length === 0)
        j.block("find_exec", `find ${text} without a complete command cannot be judged`);
      else j.nested(inner, depth + 1);
      index = end < 0 ? args.length : end;
    } else if (text === "-delete") {
      for (const root of roots.length > 0 ? roots : [{ text: ".", dynamic: false, glob: false }])
        j.write(root, "find -delete root");
    } else if (text === "-fprint" || text === "-fprint0" || text === "-fprintf" || text === "-fls") {
      const target = args[index + 1];
      if (target !== void 0) j.write(target, `find ${text} file`);
    }
  }
}
function judgeXargs(args, j, depth) {
  const valued = /* @__PURE__ */ new Set([
    "-a",
    "-d",
    "-E",
    "-I",
    "-L",
    "-n",
    "-P",
    "-s",
    "--arg-file",
    "--delimiter",
    "--max-args",
    "--max-procs",
    "--max-lines",
    "--replace"
  ]);
  let index = 0;
  while (index < args.length && args[index].text.startsWith("-")) {
    const text = args[index].text;
    if (text === "-a" || text.startsWith("--arg-file")) j.read(args[index + 1] ?? args[index]);
    index += valued.has(text) ? 2 : 1;
  }
  if (index < args.length) j.nested(args.slice(index), depth + 1);
}
function judgeSed(args, j) {
  const scripts = [];
  const files = [];
  let inPlace2 = false;
  for (let index = 0; index < args.length; index++) {
    const word = args[index];
    const text = word.text;
    if (text === "-e" || text === "--expression") scripts.push(args[++index] ?? word);
    else if (text.startsWith("--expression=")) scripts.push({ ...word, text: text.slice(13) });
    else if (text === "-f" || text.startsWith("--file")) {
      j.block("sed_script_file", "sed -f runs a script file that cannot be judged here");
      return;
    } else if (text.startsWith("--in-place") || /^-[a-zA-Z]+/.test(text) && !text.startsWith("--") && text.slice(1).includes("i"))
      inPlace2 = true;
    else if (!text.startsWith("-"))
      (scripts.length === 0 && !args.slice(0, index).some((w) => w.text === "-e" || w.text.startsWith("--expression")) ? scripts : files).push(word);
  }
  for (const script of scripts) {
    if (script.dynamic) {
      j.block("sed_unparsed", "the sed script is computed by the shell");
      continue;
    }
    for (const issue of findSedScriptIssues(script.text))
      j.block(issue.code, `sed: ${issue.detail}`);
  }
  if (inPlace2)
    for (const file of files)
      if (j.siblings) j.edit(file, "sed -i target");
      else j.write(file, "sed -i target");
}
function judgeAwk(name, args, j) {
  if (args.some((word) => word.text === "-f" || word.text.startsWith("--file") || word.text === "-E")) {
    j.block("awk_script_file", `${name} -f runs a program file that cannot be judged here`);
    return;
  }
  const program = operands(
    args.filter((word, index) => !(index > 0 && /^-[vF]$/.test(args[index - 1].text)))
  )[0];
  if (program === void 0 || program.dynamic || /system|getline|[|>]|ENVIRON|close|fflush/.test(program.text)) {
    j.block(
      "awk_side_effects",
      `${name} programs that run commands, write files or pipe are refused`
    );
  }
}
function judgeCopy(args, j) {
  const targetFlag = args.findIndex(
    (word) => word.text === "-t" || word.text.startsWith("--target-directory")
  );
  const paths = operands(args);
  if (targetFlag >= 0) {
    const word = args[targetFlag];
    const target = word.text.includes("=") ? { ...word, text: word.text.slice(word.text.indexOf("=") + 1) } : args[targetFlag + 1];
    if (target !== void 0) j.write(target, "cp target directory");
    for (const source of paths.filter((path) => path !== target)) j.read(source);
    return;
  }
  const destination = paths.at(-1);
  if (destination !== void 0) j.write(destination, "cp destination");
  for (const source of paths.slice(0, -1)) j.read(source);
}

// src/core/toolintent/exec-network-checks.ts
function judgeGit(args, j) {
  let index = 0;
  while (index < args.length && args[index].text.startsWith("-")) {
    const text = args[index].text;
    if (/^(-c|--config-env|--exec-path|--git-dir|--work-tree|-C|--namespace|--super-prefix|--attr-source)/.test(
      text
    )) {
      j.block(
        "git_config_injection",
        `git ${text} can make git run repository- or model-chosen programs (core.pager, core.fsmonitor, hooks)`
      );
      return;
    }
    index++;
  }
  const sub = args[index]?.text;
  const rest = args.slice(index + 1);
  if (rest.some(
    (word) => /^--(upload-pack|receive-pack|exec|config|template|ext-diff|extcmd|tool)(=|$)/.test(
      word.text
    ) || word.text === "-u"
  )) {
    j.block("git_program_option", `git ${sub ?? ""} with an option that names a program to run`);
    return;
  }
  if (sub === "config" && !rest.some((word) => /^(--get|--get-all|--get-regexp|--list|-l)$/.test(word.text))) {
    j.block("git_config_write", "writing git configuration can make git run arbitrary programs");
  } else if (sub === "filter-branch" || sub === "difftool" || sub === "mergetool" || sub === "bisect" || sub === "submodule" && rest[0]?.text === "foreach" || sub === "rebase" && rest.some((word) => word.text === "-x" || word.text.startsWith("--exec"))) {
    j.block("git_runs_commands", `git ${sub} runs shell commands`);
  } else if (sub === "clone" || sub === "fetch" || sub === "pull" || sub === "push" || sub === "ls-remote" || sub === "submodule" || sub === "remote") {
    j.ask(
      j.confined && sub === "push" ? "git_push" : "git_network",
      `git ${sub} talks to a remote`
    );
  } else if (j.containment && isDestructiveGit(sub, rest)) {
    j.ask(
      "destructive_in_workspace",
      `git ${sub} discards work in the workspace that no undo of git restores`
    );
  }
}
function isDestructiveGit(sub, rest) {
  const texts = rest.map((word) => word.text);
  if (sub === "reset") return texts.includes("--hard") || texts.includes("--merge");
  if (sub === "clean") return texts.some((text) => /^-[a-zA-Z]*f/.test(text) || text === "--force");
  if (sub === "checkout")
    return texts.includes("--") || texts.includes(".") || texts.includes("-f");
  if (sub === "restore" || sub === "stash")
    return sub === "restore" || texts[0] === "drop" || texts[0] === "clear";
  return false;
}
function judgePackageManager(name, args, j) {
  const sub = operands(args)[0]?.text;
  if (name === "npx" || name === "bunx" || sub === "exec" || sub === "x" || sub === "dlx") {
    if (!args.some(
      (word) => word.text === "--no-install" || word.text === "--no" || word.text === "--offline"
    )) {
      j.ask(
        "package_download",
        `${name} may download and run a package; add --no-install to run a local one`
      );
    }
    return;
  }
  if (sub === void 0) return;
  if ([
    "publish",
    "login",
    "adduser",
    "logout",
    "token",
    "owner",
    "access",
    "unpublish",
    "deprecate"
  ].includes(sub) || sub === "config" && operands(args)[1]?.text !== "get") {
    j.block("package_registry_change", `${name} ${sub} changes registry state or configuration`);
    return;
  }
  if ([
    "install",
    "i",
    "ci",
    "add",
    "update",
    "up",
    "upgrade",
    "rebuild",
    "install-test",
    "it",
    "link"
  ].includes(sub)) {
    if (!args.some((word) => word.text === "--ignore-scripts")) {
      j.block(
        "install_scripts",
        `${name} ${sub} runs packages' install scripts; add --ignore-scripts`
      );
      return;
    }
    j.ask("package_network", `${name} ${sub} downloads packages`);
    if (j.containment)
      j.url(name === "yarn" ? "https://registry.yarnpkg.com/" : "https://registry.npmjs.org/");
  }
}
function judgeHttpClient(name, args, j) {
  const outputs = name === "curl" ? ["-o", "--output"] : ["-O", "--output-document", "-o", "--output-file", "-a", "--append-output"];
  const refused = name === "curl" ? [
    "-K",
    "--config",
    "-x",
    "--proxy",
    "--unix-socket",
    "--resolve",
    "--connect-to",
    "--abstract-unix-socket",
    "--doh-url"
  ] : ["-e", "--execute", "-i", "--input-file", "--config", "--use-askpass", "-B", "--base"];
  const uploads = name === "curl" ? ["-T", "--upload-file"] : ["--post-file", "--body-file"];
  let sawUrl = false;
  for (let index = 0; index < args.length; index++) {
    const word = args[index];
    const [flag, inlineValue] = word.text.startsWith("--") && word.text.includes("=") ? [word.text.slice(0, word.text.indexOf("=")), word.text.slice(word.text.indexOf("=") + 1)] : [word.text, void 0];
    if (refused.includes(flag)) {
      j.block("http_client_option", `${name} ${flag} escapes the egress checks`);
      return;
    }
    const value = () => inlineValue !== void 0 ? { ...word, text: inlineValue } : args[++index];
    if (outputs.includes(flag)) {
      const target = value();
      if (target !== void 0) j.write(target, `${name} ${flag} file`);
    } else if (uploads.includes(flag)) {
      const source = value();
      if (source !== void 0) j.read(source);
    } else if (name === "curl" && /^(-d|--data.*|-F|--form.*)$/.test(flag)) {
      const data = value();
      if (data !== void 0 && /(^|=)[@<]/.test(data.text))
        j.read({ ...data, text: data.text.replace(/^.*?[@<]/, "") });
    } else if (word.text.startsWith("-")) {
    } else if (word.dynamic) {
      j.block(
        "dynamic_url",
        `${name} is given a computed argument; its destination cannot be checked`
      );
    } else if (word.text.includes("://") || /^[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}(:\d+)?(\/|$)/.test(word.text)) {
      sawUrl = true;
      j.url(word.text.includes("://") ? word.text : `http://${word.text}`);
    }
  }
  if (!sawUrl)
    j.block(
      "unknown_destination",
      `${name} without a literal URL argument cannot be checked against the egress allowlist`
    );
}

// src/core/toolintent/exec-program-checks.ts
var FORBIDDEN = /* @__PURE__ */ new Set([
  "sudo",
  "doas",
  "su",
  "pkexec",
  "eval",
  "source",
  ".",
  "setsid",
  "disown",
  "chroot",
  "unshare",
  "nsenter",
  "trap",
  "alias",
  "set",
  "shopt",
  "enable",
  "hash",
  "crontab",
  "at",
  "systemctl",
  "launchctl"
]);
var DNS_TOOLS = /* @__PURE__ */ new Set([
  "ping",
  "ping6",
  "dig",
  "nslookup",
  "host",
  "drill",
  "traceroute",
  "tracepath",
  "whois",
  "getent",
  "resolvectl"
]);
var RAW_NETWORK = /* @__PURE__ */ new Set([
  "nc",
  "ncat",
  "netcat",
  "socat",
  "telnet",
  "ssh",
  "scp",
  "sftp",
  "ftp",
  "tftp",
  "rsync",
  "openssl",
  "ssh-keyscan"
]);
var SHELLS = /* @__PURE__ */ new Set([
  "sh",
  "bash",
  "zsh",
  "dash",
  "ksh",
  "ash",
  "fish",
  "csh",
  "tcsh",
  "busybox"
]);
var INLINE_FLAGS = {
  node: [
    "-e",
    "--eval",
    "-p",
    "--print",
    "-r",
    "--require",
    "--import",
    "--loader",
    "--experimental-loader"
  ],
  deno: ["eval"],
  bun: ["-e", "--eval", "-p", "--print"],
  perl: ["-e", "-E"],
  ruby: ["-e"],
  php: ["-r"],
  lua: ["-e"],
  osascript: ["-e"],
  pwsh: ["-c", "-command", "-encodedcommand"]
};
var RUNS_FILES_WITHOUT_SCRIPT = {
  node: ["--test"]
};
var PYTHONS = /^python(\d+(\.\d+)?)?$/;
var WRITERS = /* @__PURE__ */ new Set([
  "tee",
  "rm",
  "rmdir",
  "touch",
  "mkdir",
  "ln",
  "truncate",
  "shred",
  "unlink",
  "install",
  "chmod",
  "chown",
  "chgrp",
  "mv"
]);
var TRANSPARENT = /* @__PURE__ */ new Set(["command", "builtin", "exec", "nohup", "time"]);
function judgeProgram(words, j, depth) {
  const program = words[0];
  const args = words.slice(1);
  const literalTest = j.containment && !program.dynamic && program.text === "[";
  if (program.dynamic || program.glob && !literalTest) {
    j.block(
      "dynamic_program",
      `the program name ${JSON.stringify(program.text)} is computed by the shell`
    );
    return;
  }
  const name = program.text;
  if (name.includes("/")) {
    j.block(
      "path_qualified_program",
      `run programs by name from the scrubbed PATH, not ${JSON.stringify(name)}`
    );
    return;
  }
  j.program(name);
  if (j.containment && (name === "source" || name === ".")) return judgeSource(name, args, j);
  if (FORBIDDEN.has(name)) {
    j.block(
      "forbidden_program",
      `${name} changes privileges, the shell's own state, or runs code it was handed as text`
    );
    return;
  }
  if (name === "cd" || name === "pushd" || name === "popd") {
    j.block(
      "change_directory",
      "changing directory inside a command is refused; use the exec `cwd` argument"
    );
    return;
  }
  if (name === "export" || name === "declare" || name === "typeset" || name === "local" || name === "readonly" || name === "unset") {
    for (const word of operands(args)) {
      const variable = word.text.split("=")[0] ?? "";
      if (word.dynamic || /^(LD_|DYLD_|GIT_|NPM_CONFIG_)|^(PATH|IFS|ENV|BASH_ENV|NODE_OPTIONS|PYTHONPATH|HOME|PROMPT_COMMAND|PS4)$/i.test(
        variable
      )) {
        j.block("dangerous_variable", `${name} ${word.text} changes which code runs`);
      }
    }
    return;
  }
  if (TRANSPARENT.has(name)) {
    if (name !== "command" && name !== "builtin" && name !== "exec" && !j.policy.allowedExecutables.includes(name)) {
      j.block("program_not_allowed", `${name} is not on the policy's allowed programs`);
    }
    let rest = args;
    while (rest[0]?.text.startsWith("-") === true) rest = rest.slice(1);
    if (rest.length > 0) j.nested(rest, depth + 1);
    return;
  }
  if (DNS_TOOLS.has(name)) {
    j.block(
      "dns_egress",
      `${name} resolves names over the network, which can exfiltrate data through DNS`
    );
    return;
  }
  if (RAW_NETWORK.has(name)) {
    j.block("raw_network", `${name} opens network connections the egress allowlist cannot check`);
    return;
  }
  const allowedAs = j.bash && name === "[[" ? "[" : name;
  if (!j.policy.allowedExecutables.includes(allowedAs)) {
    j.block("program_not_allowed", `${name} is not on the policy's allowed programs`);
  }
  if (name === "env") return judgeEnv(args, j, depth);
  if (name === "timeout" || name === "nice" || name === "stdbuf")
    return judgeWrapper(name, args, j, depth);
  if (SHELLS.has(name)) return judgeShell(name, args, j, depth);
  if (PYTHONS.test(name)) return judgePython(name, args, j);
  const inline = INLINE_FLAGS[name];
  if (inline !== void 0) {
    const flag = args.find(
      (word) => inline.includes(word.text) || inline.some((f) => f.startsWith("--") && word.text.startsWith(`${f}=`))
    );
    if (flag !== void 0) {
      j.block(
        "inline_code",
        `${name} ${flag.text} runs inline code that can do anything; write a script file in the workspace and run it`
      );
    } else if (RUNS_FILES_WITHOUT_SCRIPT[name]?.some((flag2) => args.some((word) => word.text === flag2)) ? operands(args).some((word) => word.text === "-") : readsProgramFromInput(args, j.siblings)) {
      if (j.containment) judgeProgramFromInput(name, j);
      else
        j.block(
          "inline_code",
          `${name} without a script file reads its program from input, which cannot be judged`
        );
    }
    return;
  }
  switch (name) {
    case "find":
      return judgeFind(args, j, depth);
    case "xargs":
      return judgeXargs(args, j, depth);
    case "git":
      return judgeGit(args, j);
    case "rg":
      if (args.some(
        (word) => word.text === "--pre" || word.text.startsWith("--pre=") || word.text === "--pre-glob" || word.text.startsWith("--pre-glob=")
      )) {
        j.block("rg_preprocessor", "rg --pre runs an arbitrary program on every file");
      } else if (j.siblings && args.some(
        (word) => word.text === "--search-zip" || word.text.startsWith("--hostname-bin") || /^-[a-zA-Z]*z/.test(word.text)
      )) {
        j.block(
          "rg_preprocessor",
          "rg -z and --hostname-bin run other programs (decompressors, a hostname program)"
        );
      }
      return;
    case "sed":
      return judgeSed(args, j);
    case "awk":
    case "gawk":
    case "mawk":
    case "nawk":
      return judgeAwk(name, args, j);
    case "npm":
    case "pnpm":
    case "yarn":
    case "bun":
    case "npx":
    case "bunx":
      return judgePackageManager(name, args, j);
    case "curl":
    case "wget":
      return judgeHttpClient(name, args, j);
    case "cp":
      return judgeCopy(args, j);
    case "ffmpeg":
    case "convert":
    case "magick":
      if (j.containment) judgeMediaTool(name, args, j);
      return;
    case "dd":
      for (const word of args) {
        if (word.text.startsWith("of=")) j.write({ ...word, text: word.text.slice(3) }, "dd of=");
        if (word.text.startsWith("if=")) j.read({ ...word, text: word.text.slice(3) });
      }
      return;
    default:
      if (j.containment && name === "rm" && args.some((word) => /^(-[a-zA-Z]*[rR]|--recursive$)/.test(word.text)))
        j.ask("destructive_in_workspace", "rm -r deletes whole directories of the workspace");
      if (WRITERS.has(name)) {
        const targets = operands(args);
        const skip = name === "chmod" || name === "chown" || name === "chgrp" ? 1 : 0;
        for (const word of targets.slice(skip)) j.write(word, `${name} target`);
      }
  }
}
function judgeEnv(args, j, depth) {
  let index = 0;
  while (index < args.length) {
    const word = args[index];
    if (word.text === "-u" || word.text === "--unset") index += 2;
    else if (word.text === "-S" || word.text.startsWith("--split-string") || word.text === "-C" || word.text.startsWith("--chdir")) {
      j.block("env_trick", `env ${word.text} hides or relocates the command it runs`);
      return;
    } else if (word.text.startsWith("-")) index += 1;
    else if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(word.text)) {
      const variable = word.text.slice(0, word.text.indexOf("="));
      if (/^(LD_|DYLD_|GIT_|NPM_CONFIG_)|^(PATH|IFS|ENV|BASH_ENV|NODE_OPTIONS|PYTHONPATH|PYTHONSTARTUP|PERL5OPT|RUBYOPT|HOME|PAGER|EDITOR)$/i.test(
        variable
      )) {
        j.block("dangerous_variable", `env ${variable}=... changes which code runs`);
      }
      index += 1;
    } else break;
  }
  if (index < args.length) j.nested(args.slice(index), depth + 1);
}
function judgeWrapper(name, args, j, depth) {
  let index = 0;
  const valued = name === "timeout" ? ["-s", "-k", "--signal", "--kill-after"] : name === "nice" ? ["-n", "--adjustment"] : ["-i", "-o", "-e"];
  while (index < args.length && args[index].text.startsWith("-")) {
    index += valued.includes(args[index].text) ? 2 : 1;
  }
  if (name === "timeout") index += 1;
  if (index < args.length) j.nested(args.slice(index), depth + 1);
}
function judgeShell(name, args, j, depth) {
  const flagIndex = args.findIndex((word) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(word.text));
  if (flagIndex >= 0) {
    const script = args.slice(flagIndex + 1).find((word) => !word.text.startsWith("-"));
    if (script === void 0 || script.dynamic) {
      j.block("inline_code", `${name} -c with a computed script cannot be judged`);
      return;
    }
    j.nestedLine(script.text, depth + 1, name === "bash");
    return;
  }
  const files = operands(args);
  if (j.containment && readsProgramFromInput(args, j.siblings) && j.stdin?.literal === true) {
    j.nestedLine(j.stdin.body, depth + 1, name === "bash");
    return;
  }
  if (files.length === 0)
    j.block(
      "interactive_shell",
      `${name} without a script reads commands from input that cannot be judged`
    );
  else if (files[0].text === "-" || readsProgramFromInput(args, j.siblings))
    j.block(
      "interactive_shell",
      `${name} ${files[0].text} reads commands from input that cannot be judged`
    );
  else j.read(files[0]);
}
function judgePython(name, args, j) {
  for (const word of args) {
    if (!word.text.startsWith("-") || word.text === "-") break;
    if (/^-[a-zA-Z]*c/.test(word.text) && !word.text.startsWith("--")) {
      j.block(
        "inline_code",
        `${name} -c runs inline code that can do anything; write a script file in the workspace and run it`
      );
      return;
    }
    if (/^-[a-zA-Z]*m/.test(word.text) && !word.text.startsWith("--")) {
      const message = `${name} -m runs an installed module (pip, http.server ...) whose effects cannot be judged`;
      if (j.containment) j.block("python_module", message);
      else j.ask("python_module", message);
      return;
    }
  }
  if (!readsProgramFromInput(args, j.siblings)) return;
  if (j.containment) judgeProgramFromInput(name, j);
  else
    j.block(
      "interactive_shell",
      `${name} without a script reads code from input that cannot be judged`
    );
}
function judgeProgramFromInput(name, j) {
  if (j.stdin?.literal === true)
    j.block("inline_code", `${name} runs the program of a here-document, code the model wrote`);
  else
    j.block(
      "interactive_shell",
      `${name} reads its program from input that cannot be judged (a pipe or a terminal)`
    );
}
function judgeSource(name, args, j) {
  const file = args[0];
  if (file === void 0 || file.dynamic || file.glob || file.text.startsWith("/") || file.text.startsWith("~") || file.text.split("/").includes("..")) {
    j.block(
      "source_outside_workspace",
      `${name} runs shell code from a file that must be named literally inside the workspace`
    );
    return;
  }
  j.read(file);
}
function judgeMediaTool(name, args, j) {
  const output = args.at(-1);
  if (output === void 0 || output.text.startsWith("-")) return;
  if (name === "ffmpeg") {
    args.forEach((word, index) => {
      if (word.text === "-i" && args[index + 1] !== void 0) j.read(args[index + 1]);
    });
  } else {
    for (const word of operands(args.slice(0, -1))) j.read(word);
  }
  j.write(output, `${name} output`);
}

// src/core/toolintent/exec-stop-classes.ts
var EXEC_STOP_CLASSES = {
  // final
  forbidden_program: "final",
  dangerous_variable: "final",
  env_trick: "final",
  dns_egress: "final",
  raw_network: "final",
  git_config_injection: "final",
  git_program_option: "final",
  git_config_write: "final",
  package_registry_change: "final",
  install_scripts: "final",
  http_client_option: "final",
  interactive_shell: "final",
  source_outside_workspace: "final",
  no_command: "final",
  dynamic_url: "final",
  unknown_destination: "final",
  // confined by the sandbox: code the model wrote, or a program the model chose, runs inside it
  inline_code: "confined",
  python_module: "confined",
  rg_preprocessor: "confined",
  sed_script_file: "confined",
  sed_unparsed: "confined",
  awk_script_file: "confined",
  awk_side_effects: "confined",
  git_runs_commands: "confined",
  find_exec: "confined",
  dynamic_write_target: "confined",
  sed_exec: "confined",
  sed_file_io: "confined",
  // asked, with or without a sandbox
  unparseable_command: "liftable",
  heredoc_expansion: "liftable",
  program_not_allowed: "liftable",
  dynamic_program: "liftable",
  path_qualified_program: "liftable",
  change_directory: "liftable",
  command_too_long: "liftable",
  too_many_commands: "liftable",
  nesting_too_deep: "liftable"
};
function execStopClass(code) {
  return Object.hasOwn(EXEC_STOP_CLASSES, code) ? EXEC_STOP_CLASSES[code] : "final";
}
var CONFINED_EXEC_STOPS = {
  no_command: "final",
  // writes the profile refuses: .git/config is bound read-only
  git_config_write: "ask",
  // effects that leave the sandbox by design: a registry's or a remote's state
  package_registry_change: "ask",
  git_push: "ask"
};
function confinedExecStop(code) {
  return Object.hasOwn(CONFINED_EXEC_STOPS, code) ? CONFINED_EXEC_STOPS[code] : "recorded";
}

// src/core/toolintent/bash-syntax.ts
var SIMPLE_ESCAPES = {
  a: "\x07",
  b: "\b",
  e: "\x1B",
  E: "\x1B",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "	",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?"
};
function readAnsiCQuote(source, start) {
  let text = "";
  let index = start;
  while (index < source.length) {
    const c = source[index];
    if (c === "'") return { text, end: index + 1 };
    if (c !== "\\") {
      text += c;
      index++;
      continue;
    }
    const next = source[index + 1];
    if (next === void 0) return null;
    const simple = SIMPLE_ESCAPES[next];
    if (simple !== void 0) {
      text += simple;
      index += 2;
      continue;
    }
    const numeric = /^(?:([0-7]{1,3})|x([0-9a-fA-F]{1,2})|u([0-9a-fA-F]{1,4})|U([0-9a-fA-F]{1,8})|c(.))/.exec(
      source.slice(index + 1)
    );
    if (numeric === null) {
      text += `\\${next}`;
      index += 2;
      continue;
    }
    const [whole, octal, hex, short, long, control] = numeric;
    const code = octal !== void 0 ? parseInt(octal, 8) & 255 : hex !== void 0 ? parseInt(hex, 16) : short !== void 0 ? parseInt(short, 16) : long !== void 0 ? parseInt(long, 16) : control.charCodeAt(0) & 31;
    text += code > 1114111 ? "\uFFFD" : String.fromCodePoint(code);
    index += 1 + whole.length;
  }
  return null;
}
var ARITHMETIC_TESTS = /* @__PURE__ */ new Set(["-eq", "-ne", "-lt", "-le", "-gt", "-ge"]);
var isIntegerLiteral = (text) => /^-?[0-9]+$/.test(text);
function hasEvaluatedSubscript(body) {
  const match = /^[#!]?[A-Za-z_][A-Za-z0-9_]*\[([^\]]*)\]/.exec(body);
  return match !== null && !/^(@|\*|-?[0-9]+)$/.test(match[1]);
}
var hasSubstitutionInSubscript = (text) => /\[[^\]]*(\$\(|`|\$\{)/.test(text);

// src/core/toolintent/shell-syntax.ts
var MAX_DEPTH = 8;
var KEYWORDS = /* @__PURE__ */ new Set([
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "for",
  "while",
  "until",
  "do",
  "done",
  "case",
  "esac",
  "function",
  "select",
  "[[",
  "]]",
  "coproc"
]);
var META = /* @__PURE__ */ new Set(["|", "&", ";", "<", ">", "(", ")", "\n", " ", "	"]);
var ShellSyntaxFailure = class extends Error {
};
var COMPOUND_SEPARATORS = /* @__PURE__ */ new Set([
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "do",
  "done",
  "while",
  "until"
]);
function parseShellCommandLine(line, options = {}) {
  try {
    const parser = new Parser(line, options.compound === true, options.bash === true);
    parser.parseList(null, 0);
    return { ok: true, commands: parser.commands };
  } catch (error) {
    if (error instanceof ShellSyntaxFailure) return { ok: false, error: error.message };
    throw error;
  }
}
var Parser = class _Parser {
  constructor(source, compound, bash) {
    this.source = source;
    this.compound = compound;
    this.bash = bash;
  }
  source;
  compound;
  bash;
  commands = [];
  position = 0;
  pendingHeredocs = [];
  fail(message) {
    throw new ShellSyntaxFailure(`${message} at offset ${this.position}`);
  }
  peek(offset = 0) {
    return this.source[this.position + offset];
  }
  /** Parses commands until the end, or until `terminator` (consumed). */
  parseList(terminator, depth) {
    if (depth > MAX_DEPTH) this.fail("nesting too deep");
    let current = { assignments: [], words: [], redirects: [] };
    const flush = (separator) => {
      if (current.words.length > 0 || current.assignments.length > 0 || current.redirects.length > 0) {
        this.commands.push({ ...current, depth, ...this.compound ? { separator } : {} });
      }
      current = { assignments: [], words: [], redirects: [] };
    };
    for (; ; ) {
      const c = this.peek();
      if (c === void 0) {
        if (terminator !== null) this.fail(`missing "${terminator}"`);
        if (this.pendingHeredocs.length > 0) this.fail("unterminated here-document");
        flush("end");
        return;
      }
      if (c === " " || c === "	") {
        this.position++;
        continue;
      }
      if (c === "\\" && this.peek(1) === "\n") {
        this.position += 2;
        continue;
      }
      if (c === "#") {
        while (this.peek() !== void 0 && this.peek() !== "\n") this.position++;
        continue;
      }
      if (c === ")") {
        if (terminator !== ")") this.fail('unexpected ")"');
        this.position++;
        flush(")");
        return;
      }
      if (c === "(") {
        if (current.words.length > 0 || current.assignments.length > 0) this.fail('unexpected "("');
        if (this.bash && this.peek(1) === "(")
          this.fail('an arithmetic command "((...))" evaluates values as code');
        this.position++;
        this.parseList(")", depth + 1);
        continue;
      }
      if (c === ";" || c === "\n" || c === "|" || c === "&") {
        if (c === "&" && this.peek(1) === ">") {
          this.parseRedirect(current, null);
          continue;
        }
        if (c === ";" && this.peek(1) === ";") this.fail('unsupported ";;"');
        const length = (c === "|" || c === "&") && (this.peek(1) === c || c === "|" && this.peek(1) === "&") ? 2 : 1;
        const separator = this.source.slice(this.position, this.position + length);
        this.position += length;
        flush(separator);
        if (c === "\n") this.readHeredocBodies();
        continue;
      }
      if (c === "<" || c === ">") {
        if (this.peek(1) === "(") {
          current.words.push(this.parseWord(depth));
          continue;
        }
        this.parseRedirect(current, null);
        continue;
      }
      if (/[0-9]/.test(c)) {
        const match = /^[0-9]+(?=[<>])/.exec(this.source.slice(this.position));
        if (match !== null && this.source[this.position + match[0].length + 1] !== "(") {
          this.position += match[0].length;
          this.parseRedirect(current, Number(match[0]));
          continue;
        }
      }
      const start = this.position;
      const word = this.parseWord(depth);
      const rawWord = this.source.slice(start, this.position);
      if (this.bash && hasSubstitutionInSubscript(word.text))
        this.fail("a subscript with a substitution in it, which bash may evaluate as code");
      if (current.words.length === 0) {
        const assignment = /^([A-Za-z_][A-Za-z0-9_]*)\+?=/.exec(rawWord);
        if (this.bash && assignment !== null && rawWord === assignment[0] && this.peek() === "(") {
          this.parseArrayValue(depth);
          current.assignments.push({
            name: assignment[1],
            value: { text: "(\u2026)", dynamic: true, glob: false }
          });
          continue;
        }
        if (this.bash && current.assignments.length === 0 && !word.dynamic && rawWord === "[[") {
          this.parseConditional(current, depth);
          continue;
        }
        if (assignment !== null) {
          const name = assignment[1];
          current.assignments.push({
            name,
            value: { ...word, text: word.text.slice(word.text.indexOf("=") + 1) }
          });
          continue;
        }
        if (!word.dynamic && (word.text === "{" || word.text === "}" || word.text === "!") && rawWord === word.text)
          continue;
        if (this.compound && current.assignments.length === 0 && !word.dynamic && rawWord === word.text && (COMPOUND_SEPARATORS.has(word.text) || word.text === "for")) {
          flush(word.text);
          if (word.text === "for") this.skipForHeader(depth);
          continue;
        }
        if (!word.dynamic && KEYWORDS.has(word.text) && rawWord === word.text)
          this.fail(`unsupported shell keyword "${word.text}"`);
      }
      current.words.push(word);
    }
  }
  /** `NAME=(words...)`, bash's array assignment: the words are data, their substitutions commands. */
  parseArrayValue(depth) {
    this.position++;
    for (; ; ) {
      const c = this.peek();
      if (c === void 0) this.fail("unterminated array assignment");
      if (c === " " || c === "	" || c === "\n") {
        this.position++;
        continue;
      }
      if (c === ")") {
        this.position++;
        return;
      }
      if (META.has(c)) this.fail(`unexpected "${c}" in an array assignment`);
      this.parseWord(depth);
    }
  }
  /**
   * `[[ ... ]]` (bash): one command whose words are the test's operands and operators; `<`,
   * `>`, `(`, `)`, `&&` and `||` are operators there, not redirections or lists. The operands
   * of an arithmetic comparison must be literal integers (bash evaluates them as code).
   */
  parseConditional(current, depth) {
    const words = [{ text: "[[", dynamic: false, glob: false }];
    const raw = ["[["];
    for (; ; ) {
      const c = this.peek();
      if (c === " " || c === "	") {
        this.position++;
        continue;
      }
      if (c === "\\" && this.peek(1) === "\n") {
        this.position += 2;
        continue;
      }
      if (c === void 0 || c === "\n") this.fail('unterminated "[["');
      const operator = /^(&&|\|\||<|>|\(|\))/.exec(this.source.slice(this.position));
      if (operator !== null) {
        this.position += operator[0].length;
        words.push({ text: operator[0], dynamic: false, glob: false });
        raw.push(operator[0]);
        continue;
      }
      if (META.has(c)) this.fail(`unexpected "${c}" inside "[[ ]]"`);
      const start = this.position;
      const word = this.parseWord(depth);
      const text = this.source.slice(start, this.position);
      if (text === "]]") break;
      words.push(word);
      raw.push(text);
    }
    for (let index = 1; index < words.length; index++) {
      if (!ARITHMETIC_TESTS.has(raw[index])) continue;
      for (const operand of [words[index - 1], words[index + 1]])
        if (operand === void 0 || operand.dynamic || !isIntegerLiteral(operand.text))
          this.fail(
            `"[[ ... ${raw[index]} ... ]]" evaluates its operands as code; compare literal numbers`
          );
    }
    current.words.push(...words, { text: "]]", dynamic: false, glob: false });
  }
  parseRedirect(current, fd) {
    const rest = this.source.slice(this.position);
    const match = /^(&>>|&>|<<<|<<-|<<|<>|>>|>\||>&|<&|>|<)/.exec(rest);
    if (match === null) this.fail("bad redirection");
    const operator = match[0];
    this.position += operator.length;
    if (operator === "<<" || operator === "<<-") {
      if (!this.compound) this.fail("here-documents are not supported");
      this.parseHeredocStart(current, fd, operator === "<<-");
      return;
    }
    while (this.peek() === " " || this.peek() === "	") this.position++;
    if ((operator === ">&" || operator === "<&") && /^([0-9]+|-)(?=$|[\s|&;<>()])/.test(this.source.slice(this.position))) {
      while (/[0-9-]/.test(this.peek() ?? "")) this.position++;
      current.redirects.push({ operator, fd, target: null });
      return;
    }
    const next = this.peek();
    if (next === void 0 || META.has(next)) this.fail(`missing file after "${operator}"`);
    const target = this.parseWord(0);
    current.redirects.push({ operator: operator === ">&" ? "&>" : operator, fd, target });
  }
  /** `<<DELIM`: the body starts after the end of the current line (see readHeredocBodies). */
  parseHeredocStart(current, fd, stripTabs) {
    while (this.peek() === " " || this.peek() === "	") this.position++;
    const next = this.peek();
    if (next === void 0 || META.has(next)) this.fail("missing here-document delimiter");
    const start = this.position;
    const word = this.parseWord(0);
    const raw = this.source.slice(start, this.position);
    if (word.dynamic || word.text.length === 0 || word.text.includes("\n"))
      this.fail("a here-document delimiter must be a plain word");
    const heredoc = { body: "", quoted: /['"\\]/.test(raw) };
    this.pendingHeredocs.push({ delimiter: word.text, stripTabs, heredoc });
    current.redirects.push({ operator: stripTabs ? "<<-" : "<<", fd, target: null, heredoc });
  }
  /** After a newline: the bodies of the here-documents started on the line just ended. */
  readHeredocBodies() {
    for (const pending of this.pendingHeredocs) {
      for (; ; ) {
        if (this.position >= this.source.length) this.fail("unterminated here-document");
        const end = this.source.indexOf("\n", this.position);
        const line = this.source.slice(this.position, end < 0 ? this.source.length : end);
        this.position = end < 0 ? this.source.length : end + 1;
        const compared = pending.stripTabs ? line.replace(/^\t+/, "") : line;
        if (compared === pending.delimiter) break;
        pending.heredoc.body += `${compared}
`;
      }
    }
    this.pendingHeredocs = [];
  }
  /** `for NAME [in WORDS]`: the list's words are data (their substitutions are still commands). */
  skipForHeader(depth) {
    while (this.peek() === " " || this.peek() === "	") this.position++;
    if (this.peek() === "(") this.fail('arithmetic "for ((...))" is not supported');
    const name = this.parseWord(depth);
    if (name.dynamic || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name.text))
      this.fail('"for" needs a variable name');
    while (this.peek() === " " || this.peek() === "	") this.position++;
    if (!/^in(?=[\s;]|$)/.test(this.source.slice(this.position))) return;
    this.position += 2;
    for (; ; ) {
      while (this.peek() === " " || this.peek() === "	") this.position++;
      const c = this.peek();
      if (c === void 0 || c === ";" || c === "\n") return;
      if (META.has(c)) this.fail(`unexpected "${c}" in a "for" list`);
      this.parseWord(depth);
    }
  }
  /** Reads one word, removing quotes and parsing nested substitutions into `commands`. */
  parseWord(depth) {
    let text = "";
    let dynamic = false;
    let glob = false;
    for (; ; ) {
      const c = this.peek();
      if (c === void 0) break;
      if (META.has(c)) {
        if ((c === "<" || c === ">") && this.peek(1) === "(") {
          this.position += 2;
          this.parseList(")", depth + 1);
          dynamic = true;
          text += "\0procsub";
          continue;
        }
        break;
      }
      if (c === "\\") {
        const next = this.peek(1);
        if (next === void 0) this.fail("trailing backslash");
        this.position += 2;
        if (next !== "\n") text += next;
        continue;
      }
      if (c === "'") {
        const end = this.source.indexOf("'", this.position + 1);
        if (end < 0) this.fail("unterminated single quote");
        text += this.source.slice(this.position + 1, end);
        this.position = end + 1;
        continue;
      }
      if (c === '"') {
        this.position++;
        for (; ; ) {
          const d = this.peek();
          if (d === void 0) this.fail("unterminated double quote");
          if (d === '"') {
            this.position++;
            break;
          }
          if (d === "\\") {
            const next = this.peek(1);
            if (next !== void 0 && '$`"\\\n'.includes(next)) {
              this.position += 2;
              if (next !== "\n") text += next;
            } else {
              this.position++;
              text += "\\";
            }
            continue;
          }
          if (this.bash && d === "$" && (this.peek(1) === "'" || this.peek(1) === '"')) {
            text += "$";
            this.position++;
            continue;
          }
          if (d === "$" || d === "`") {
            text += this.parseExpansion(depth);
            dynamic = true;
            continue;
          }
          text += d;
          this.position++;
        }
        continue;
      }
      if (this.bash && c === "$" && this.peek(1) === "'") {
        const quoted = readAnsiCQuote(this.source, this.position + 2);
        if (quoted === null) this.fail("unterminated $'...'");
        this.position = quoted.end;
        if (quoted.text.includes("\0")) dynamic = true;
        text += quoted.text;
        continue;
      }
      if (this.bash && c === "$" && this.peek(1) === '"') {
        this.position++;
        dynamic = true;
        continue;
      }
      if (this.bash && c === "$" && this.peek(1) === "[")
        this.fail('"$[...]" arithmetic evaluates values as code');
      if (c === "$" || c === "`") {
        text += this.parseExpansion(depth);
        dynamic = true;
        continue;
      }
      if (c === "*" || c === "?" || c === "[" || c === "{") {
        glob = true;
      }
      text += c;
      this.position++;
    }
    return { text, dynamic, glob };
  }
  /** Consumes one `$...` or backtick expansion; nested commands are parsed. Returns a placeholder. */
  parseExpansion(depth) {
    const c = this.peek();
    if (c === "`") {
      let inner = "";
      this.position++;
      for (; ; ) {
        const d = this.peek();
        if (d === void 0) this.fail("unterminated backtick");
        if (d === "`") {
          this.position++;
          break;
        }
        if (d === "\\" && "$`\\".includes(this.peek(1) ?? "")) {
          inner += this.peek(1);
          this.position += 2;
          continue;
        }
        inner += d;
        this.position++;
      }
      const nested = new _Parser(inner, this.compound, this.bash);
      nested.parseList(null, depth + 1);
      this.commands.push(
        ...nested.commands.map((command) => ({
          ...command,
          depth: Math.max(command.depth, depth + 1)
        }))
      );
      return "$(\u2026)";
    }
    const next = this.peek(1);
    if (next === "(" && this.peek(2) === "(") {
      const start = this.position;
      if (this.bash) this.position++;
      let level = 0;
      while (this.peek() !== void 0) {
        const d = this.peek();
        if (d === "(") level++;
        if (d === ")") level--;
        if (d === "$" || d === "`") {
          if (this.position !== start)
            this.fail("substitution inside arithmetic expansion is not supported");
        }
        if (this.bash && /[A-Za-z_]/.test(d))
          this.fail('bash evaluates a variable named in "$((...))" as code; use literal numbers');
        this.position++;
        if (level === 0) break;
      }
      if (level !== 0) this.fail("unterminated arithmetic expansion");
      return "$((\u2026))";
    }
    if (next === "(") {
      this.position += 2;
      this.parseList(")", depth + 1);
      return "$(\u2026)";
    }
    if (next === "{") {
      const end = this.source.indexOf("}", this.position);
      if (end < 0) this.fail('unterminated "${"');
      const body = this.source.slice(this.position + 2, end);
      if (/[$`]/.test(body)) this.fail('nested expansion inside "${...}" is not supported');
      if (this.bash && hasEvaluatedSubscript(body))
        this.fail("an array subscript that is not a literal number, which bash evaluates as code");
      this.position = end + 1;
      return `\${${body}}`;
    }
    if (next === "'") {
      const end = this.source.indexOf("'", this.position + 2);
      if (end < 0) this.fail("unterminated $'...'");
      this.position = end + 1;
      return "$'\u2026'";
    }
    const name = /^\$([A-Za-z_][A-Za-z0-9_]*|[0-9?#$!@*-])/.exec(this.source.slice(this.position));
    if (name !== null) {
      this.position += name[0].length;
      return name[0];
    }
    this.position++;
    return "$";
  }
};

// src/core/toolintent/finding.ts
function finding(ruleId, severity, code, message, tier = "T0") {
  return { ruleId, severity, code, message, tier };
}

// src/core/base/behaviour-flag.ts
var FIRST_FLAGGED_RELEASE = "0.1.0";
var RELEASE = /^\d+\.\d+\.\d+$/;
function defineBehaviourFlag(flag) {
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(flag.name))
    throw new RangeError(`behaviour flag ${JSON.stringify(flag.name)} must be kebab-case`);
  const since = flag.since ?? FIRST_FLAGGED_RELEASE;
  for (const release of [since, flag.retiredIn])
    if (release !== void 0 && !RELEASE.test(release))
      throw new RangeError(
        `behaviour flag ${flag.name}: release ${JSON.stringify(release)} must be major.minor.patch`
      );
  return Object.freeze({ ...flag, since });
}
function flagSet(flags) {
  return new Set(flags.map((flag) => flag.name));
}

// src/core/toolintent/toolintent-flags.ts
var WRITE_BUDGET = defineBehaviourFlag({
  name: "write-budget",
  description: "A file write that would carry the session's written content past the policy's writeBudgetBytes is blocked (rule write-budget)."
});
var UNSTABLE_OBSERVATION_BLOCKS = defineBehaviourFlag({
  name: "unstable-observation-blocks",
  description: "reference-exists blocks a call whose target changed during observation (the probe saw it swapped twice)"
});
var FILE_TOOL_TARGETS_REGULAR = defineBehaviourFlag({
  name: "file-tool-targets-regular",
  description: "reference-exists blocks a file tool (not exec) whose target is a FIFO, socket or device (reading one can block forever), or whose write target is a folder"
});
var LONE_SURROGATE_PATHS_BLOCKED = defineBehaviourFlag({
  name: "lone-surrogate-paths-blocked",
  description: "reference-exists blocks a path holding a lone UTF-16 surrogate: the disk would get a different name than the one assessed"
});
var EGRESS_ALLOWLIST_FROM_POLICY = defineBehaviourFlag({
  name: "egress-allowlist-from-policy",
  description: "a session's egress allowlist is seeded at its start from the recorded policy's egressAllowlist (an egress_allowlist_changed by policy)"
});
var STALE_WRITE_HASHES = defineBehaviourFlag({
  name: "stale-write-hashes",
  description: "a stale-write finding records the content hash at the last read and the hash observed now (finding.hashes)"
});
var SANDBOX_CONTAINMENT = defineBehaviourFlag({
  name: "sandbox-containment",
  description: "exec analysis under a sandbox classifies and records; stops are final or liftable by policy data; here-documents, loops and cd are judged command by command"
});
var EXEC_SIBLING_CLASSIFICATION = defineBehaviourFlag({
  name: "exec-sibling-classification",
  description: "rg -z/--hostname-bin and python3 /dev/stdin are judged like rg --pre and python3 -; sed -i is held to read-before-write"
});
var NEVER_READABLE = defineBehaviourFlag({
  name: "never-readable",
  description: "read tools (and exec redirections) are refused paths matching the policy's neverReadable globs (.env, *.pem, id_rsa ...)"
});
var PRE_TOOL_USE_HOOKS = defineBehaviourFlag({
  name: "pre-tool-use-hooks",
  description: "a call with pre_tool_use hooks configured waits for their recorded verdicts, which join the assessment's findings (block, raise the tier, or fail closed)"
});
var EXEC_BASH = defineBehaviourFlag({
  name: "exec-bash",
  description: "exec runs a command line as bash -c (was /bin/sh -c), refused when bash is missing; the analysis parses it as bash: $'\u2026' decoded, [[ \u2026 ]], arrays; forms where bash evaluates a value as code are refused"
});
var CONFINEMENT_BY_CONSTRUCTION = defineBehaviourFlag({
  name: "confinement-by-construction",
  description: "under a sandbox, exec stops the sandbox holds are recorded at T2; only egress, refused writes, protected paths and targets outside the workspace stop a call"
});
var EGRESS_ASKS_TO_WIDEN = defineBehaviourFlag({
  name: "egress-asks-to-widen",
  description: "under a sandbox, an exec naming a host off the egress allowlist asks at T3 (needs network access to HOST) instead of blocking; approved, the call reaches that host; a host grant makes it T2"
});
var toolIntentFlags = [
  WRITE_BUDGET,
  UNSTABLE_OBSERVATION_BLOCKS,
  FILE_TOOL_TARGETS_REGULAR,
  LONE_SURROGATE_PATHS_BLOCKED,
  EGRESS_ALLOWLIST_FROM_POLICY,
  STALE_WRITE_HASHES,
  SANDBOX_CONTAINMENT,
  EXEC_SIBLING_CLASSIFICATION,
  NEVER_READABLE,
  PRE_TOOL_USE_HOOKS,
  EXEC_BASH,
  CONFINEMENT_BY_CONSTRUCTION,
  EGRESS_ASKS_TO_WIDEN
];

// src/core/toolintent/exec-command-analysis.ts
var EXEC_RULE_ID = "exec-interpreter";
var DANGEROUS_VARIABLES = /* @__PURE__ */ new Set([
  "PATH",
  "IFS",
  "ENV",
  "BASH_ENV",
  "SHELLOPTS",
  "BASHOPTS",
  "PS4",
  "PROMPT_COMMAND",
  "CDPATH",
  "NODE_OPTIONS",
  "NODE_PATH",
  "PYTHONPATH",
  "PYTHONSTARTUP",
  "PYTHONHOME",
  "PERL5OPT",
  "PERL5LIB",
  "PERLLIB",
  "RUBYOPT",
  "RUBYLIB",
  "ZDOTDIR",
  "EDITOR",
  "VISUAL",
  "PAGER",
  "LESSOPEN",
  "LESSCLOSE",
  "HOME",
  "XDG_CONFIG_HOME",
  "TMPDIR",
  "SSH_ASKPASS",
  "BROWSER"
]);
var DANGEROUS_PREFIXES = ["LD_", "DYLD_", "GIT_", "NPM_CONFIG_", "YARN_", "PNPM_"];
function isDangerousVariable(name) {
  const upper = name.toUpperCase();
  return DANGEROUS_VARIABLES.has(upper) || DANGEROUS_PREFIXES.some((prefix) => upper.startsWith(prefix));
}
var DEVICE_FILES = /* @__PURE__ */ new Set(["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/stdin"]);
function analyzeExecCall(args, policy, options = {}) {
  const state = createState(policy, options);
  if (typeof args.command === "string") {
    judgeShellLine(args.command, state, 0, state.bash);
  } else if (Array.isArray(args.argv) && args.argv.every((item) => typeof item === "string")) {
    const argv = args.argv;
    if (!state.confined && argv.join(" ").length > policy.maxCommandLength) {
      state.block(
        "command_too_long",
        `the command is longer than ${policy.maxCommandLength} characters`
      );
    } else {
      judgeWords(
        argv.map((text) => ({ text, dynamic: false, glob: false })),
        state,
        0
      );
    }
  } else {
    state.block("no_command", "an exec call needs `command` (a string) or `argv` (strings)");
  }
  if (state.containment && state.programs.length > 0) {
    state.findings.push(
      finding(
        EXEC_RULE_ID,
        "info",
        "programs",
        `runs ${[...new Set(state.programs)].join(", ")}${state.sandboxed ? " inside the sandbox" : ""}`
      )
    );
  }
  return {
    findings: state.findings,
    writePaths: state.writePaths,
    readPaths: state.readPaths,
    editPaths: state.editPaths,
    urls: state.urls,
    confined: state.confined
  };
}
function createState(policy, options) {
  const flags = options.flags ?? /* @__PURE__ */ new Set();
  const relative = (text) => state.cwd === null || text.startsWith("/") || text.startsWith("~") ? text : `${state.cwd}/${text}`;
  const sandboxed = options.sandbox === "bubblewrap";
  const containment = flags.has(SANDBOX_CONTAINMENT.name);
  const confined = containment && sandboxed && flags.has(CONFINEMENT_BY_CONSTRUCTION.name);
  const confinedStop = (code, message) => {
    const kind = confinedExecStop(code);
    if (kind === "final") state.findings.push(finding(EXEC_RULE_ID, "block", code, message, "T3"));
    else if (kind === "ask") state.findings.push(finding(EXEC_RULE_ID, "ask", code, message, "T3"));
    else
      state.findings.push(
        finding(EXEC_RULE_ID, "info", code, `${message} (runs confined by the sandbox)`, "T2")
      );
  };
  const state = {
    policy,
    containment,
    confined,
    siblings: flags.has(EXEC_SIBLING_CLASSIFICATION.name),
    bash: flags.has(EXEC_BASH.name),
    sandboxed,
    findings: [],
    writePaths: [],
    readPaths: [],
    editPaths: [],
    urls: [],
    programs: [],
    stdin: null,
    cwd: null,
    commandCount: 0,
    block: (code, message) => {
      if (confined) return confinedStop(code, message);
      if (!state.containment) {
        state.findings.push(finding(EXEC_RULE_ID, "block", code, message, "T3"));
        return;
      }
      const stop = execStopClass(code);
      if (stop === "final")
        state.findings.push(finding(EXEC_RULE_ID, "block", code, message, "T3"));
      else if (stop === "confined" && state.sandboxed)
        state.findings.push(
          finding(EXEC_RULE_ID, "info", code, `${message} (confined by the sandbox)`, "T2")
        );
      else state.findings.push(finding(EXEC_RULE_ID, "ask", code, message, "T3"));
    },
    ask: (code, message) => confined ? confinedStop(code, message) : state.findings.push(finding(EXEC_RULE_ID, "ask", code, message, "T3")),
    write: (word, what) => {
      if (confined && (word.dynamic || word.glob)) {
        const folder = literalFolder(word.text);
        state.block(
          "dynamic_write_target",
          `${what} ${JSON.stringify(word.text)} is computed by the shell${folder === null ? "" : `; judged by its folder ${JSON.stringify(folder)}`}`
        );
        if (folder !== null) state.writePaths.push(relative(folder));
      } else if (word.dynamic || word.glob) {
        state.block(
          "dynamic_write_target",
          `${what} ${JSON.stringify(word.text)} is computed by the shell; name the file literally`
        );
      } else if (!DEVICE_FILES.has(word.text)) {
        state.writePaths.push(relative(word.text));
      }
    },
    edit: (word, what) => {
      state.write(word, what);
      if (!word.dynamic && !word.glob && !DEVICE_FILES.has(word.text))
        state.editPaths.push(relative(word.text));
    },
    read: (word) => {
      if (!word.dynamic && !word.glob && !DEVICE_FILES.has(word.text))
        state.readPaths.push(relative(word.text));
    },
    url: (text) => state.urls.push(text),
    nested: (words, depth) => judgeWords(words, state, depth),
    program: (name) => state.programs.push(name),
    nestedLine: (line, depth, asBash = false) => judgeShellLine(line, state, depth, state.bash && asBash)
  };
  return state;
}
function judgeShellLine(line, state, depth, bash) {
  if (!state.confined && line.length > state.policy.maxCommandLength) {
    state.block(
      "command_too_long",
      `the command line is longer than ${state.policy.maxCommandLength} characters; it is refused, not checked loosely`
    );
    return;
  }
  const parsed = parseShellCommandLine(line, { compound: state.containment, bash });
  if (!parsed.ok) {
    state.block(
      "unparseable_command",
      `the command line could not be fully parsed (${parsed.error}); write simple commands joined by |, && or ;`
    );
    return;
  }
  let previous = null;
  for (const command of parsed.commands) {
    if (state.containment && depth === 0 && isDirectoryChange(command, previous)) {
      changeDirectory(command, state);
    } else {
      judgeShellCommand(command, state, depth + command.depth);
    }
    previous = command;
  }
}
function isDirectoryChange(command, previous) {
  return command.depth === 0 && command.words[0]?.text === "cd" && command.words[0].dynamic === false && command.separator !== "|" && command.separator !== "|&" && command.separator !== "&" && previous?.separator !== "|" && previous?.separator !== "|&";
}
function changeDirectory(command, state) {
  const target = command.words.slice(1);
  const dir = target[0];
  if (target.length !== 1 || dir === void 0 || dir.dynamic || dir.glob || dir.text === "-" || dir.text.startsWith("-") || command.redirects.length > 0 || command.assignments.length > 0) {
    state.block(
      "change_directory",
      "only `cd DIR` with one literal directory is judged; use the exec `cwd` argument"
    );
    return;
  }
  state.cwd = state.cwd === null || dir.text.startsWith("/") || dir.text.startsWith("~") ? dir.text : `${state.cwd}/${dir.text}`;
}
function judgeShellCommand(command, state, depth) {
  for (const assignment of command.assignments) {
    if (isDangerousVariable(assignment.name)) {
      state.block("dangerous_variable", `setting ${assignment.name} changes which code runs`);
    }
  }
  let stdin = null;
  for (const redirect of command.redirects) {
    if (redirect.heredoc !== void 0) {
      const literal = redirect.heredoc.quoted || !/[$`]/.test(redirect.heredoc.body);
      if (!literal)
        state.block(
          "heredoc_expansion",
          "the here-document has an unquoted delimiter and expansions the shell would run; quote the delimiter (<<'EOF')"
        );
      stdin = { body: redirect.heredoc.body, literal };
      continue;
    }
    if (redirect.target === null) continue;
    if (redirect.operator === "<" || redirect.operator === "<<<") {
      if (redirect.operator === "<") state.read(redirect.target);
      if (redirect.operator === "<<<") stdin = null;
      continue;
    }
    state.write(redirect.target, `the redirection target`);
  }
  const outer = state.stdin;
  state.stdin = stdin;
  judgeWords(command.words, state, depth);
  state.stdin = outer;
}
function judgeWords(words, state, depth) {
  if (words.length === 0) return;
  state.commandCount += 1;
  if (state.commandCount > state.policy.maxCommands) {
    if (state.commandCount === state.policy.maxCommands + 1) {
      state.block(
        "too_many_commands",
        `the command line runs more than ${state.policy.maxCommands} commands; it is refused, not checked loosely`
      );
    }
    return;
  }
  if (depth > 8) {
    state.block("nesting_too_deep", "commands nested more than 8 levels deep are refused");
    return;
  }
  judgeProgram(words, state, depth);
}
function literalFolder(text) {
  const first = text.search(/[$`*?[{]/);
  const prefix = first < 0 ? text : text.slice(0, first);
  if (first === 0 && text[0] === "$") return null;
  const slash = prefix.lastIndexOf("/");
  if (slash < 0) return prefix.startsWith("~") ? null : ".";
  const folder = prefix.slice(0, slash);
  if (folder === "") return "/";
  return folder.startsWith("~") && folder !== "~" && !folder.startsWith("~/") ? null : folder;
}

// src/core/toolintent/param-value-extractor.ts
var PATH_LIKE = /^(~|\.{1,2})?\/|^~$|^\.\.?$|^[\w.-]+\/[\w./-]*$/;
function extractParamValues(tool, args, roots, policy, execOptions = {}) {
  const candidatePaths = [];
  const urls = [];
  const rejectedPaths = [];
  const mutating = isMutatingTool(tool);
  const writesFiles = hasCapability(tool, "WRITES_FILES");
  const addPath = (role, param, raw, origin, write, base, editsInPlace = false) => {
    const result2 = resolveToolPath(raw, roots, base);
    if (result2.ok)
      candidatePaths.push({
        role,
        param,
        origin,
        path: result2.path,
        write,
        ...editsInPlace ? { editsInPlace: true } : {}
      });
    else rejectedPaths.push({ param, raw: String(raw), message: result2.rejection.message });
  };
  const roles = Object.entries(tool.paramRoles);
  if (roles.length === 0) {
    for (const [param, value] of Object.entries(args).sort(([a], [b]) => a < b ? -1 : 1)) {
      for (const text of stringsOf(value)) {
        if (/^https?:\/\//i.test(text)) urls.push({ param, raw: text });
        else if (PATH_LIKE.test(text) || text.includes("\0"))
          addPath("PATH", param, text, "sniffed", mutating);
      }
    }
  }
  let exec = null;
  for (const [param, role] of roles) {
    const value = args[param];
    if (value === void 0) continue;
    if (role === "PATH" || role === "SOURCE_PATH") {
      for (const text of stringsOf(value))
        addPath(role, param, text, "argument", role === "PATH" && writesFiles);
    } else if (role === "URL") {
      for (const text of stringsOf(value)) urls.push({ param, raw: text });
    } else if (role === "COMMAND" && exec === null) {
      exec = analyzeExecCall(args, policy, execOptions);
    }
  }
  if (exec !== null) {
    const cwdParam = roles.find(([, role]) => role === "PATH")?.[0];
    const cwdRaw = cwdParam === void 0 ? void 0 : args[cwdParam];
    const cwd = typeof cwdRaw === "string" ? resolveToolPath(cwdRaw, roots) : void 0;
    const base = cwd?.ok === true ? cwd.path.absolute : roots.workspaceRoot;
    const edits = new Set(exec.editPaths);
    for (const raw of exec.writePaths)
      addPath("PATH", "command", raw, "command", true, base, edits.has(raw));
    for (const raw of exec.readPaths)
      addPath("SOURCE_PATH", "command", raw, "command", false, base);
    for (const raw of exec.urls) urls.push({ param: "command", raw });
  }
  return {
    candidatePaths,
    writeTargets: candidatePaths.filter((path) => path.write),
    urls,
    rejectedPaths,
    exec
  };
}
function stringsOf(value) {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.filter((item) => typeof item === "string");
  return [];
}

// src/core/toolintent/prepared-tool-call.ts
function prepareToolCall(policy, roots, call) {
  return {
    callId: call.callId,
    tool: call.tool,
    args: call.args,
    values: extractParamValues(call.tool, call.args, roots, policy.policy, {
      flags: policy.flags,
      ...policy.sandbox === void 0 ? {} : { sandbox: policy.sandbox }
    })
  };
}
function isPreparedToolCall(call) {
  return "values" in call;
}

// src/core/toolintent/risk-mapping.ts
function mapRisk(tool, policy, findings) {
  const verdict = findings.some((f) => f.severity === "block") ? "BLOCK" : findings.some((f) => f.severity === "ask") ? "ASK" : "ALLOW";
  let tier = tool.defaultTier;
  const override = policy.tierOverrides[tool.name];
  if (override !== void 0) tier = maxTier(tier, override);
  for (const item of findings) tier = maxTier(tier, item.tier);
  if (verdict === "ASK") tier = maxTier(tier, "T1");
  const risk = verdict === "BLOCK" ? "critical" : tier === "T3" ? "high" : tier === "T2" ? "medium" : "low";
  return { verdict, tier, risk };
}

// src/core/toolintent/assess-tool-call.ts
function prepare(policy, view, call) {
  if (isPreparedToolCall(call)) return { ok: true, context: contextOf(policy, view, call) };
  const parsed = call.tool.argsSchema.safeParse(call.args);
  if (!parsed.success || typeof parsed.data !== "object" || parsed.data === null) {
    const message = parsed.success ? "arguments must be an object" : z4.prettifyError(parsed.error);
    return {
      ok: false,
      findings: [
        finding(
          "arguments",
          "block",
          "invalid_args",
          `arguments do not match ${call.tool.name}'s schema: ${message}`,
          "T3"
        )
      ]
    };
  }
  const args = parsed.data;
  const prepared = prepareToolCall(policy, view.roots, {
    callId: call.callId,
    tool: call.tool,
    args
  });
  return { ok: true, context: contextOf(policy, view, prepared) };
}
function contextOf(policy, view, call) {
  return {
    callId: call.callId,
    tool: call.tool,
    args: call.args,
    values: call.values,
    policy: policy.policy,
    view,
    flags: policy.flags
  };
}
function pathsToObserve(policy, view, call) {
  const prepared = prepare(policy, view, call);
  if (!prepared.ok) return [];
  return [
    ...new Set(prepared.context.values.candidatePaths.map((path) => path.path.absolute))
  ].sort();
}
function assessToolCall(policy, view, call) {
  const prepared = prepare(policy, view, call);
  const findings = [];
  const targets = [];
  if (!prepared.ok) {
    findings.push(...prepared.findings);
  } else {
    const { context } = prepared;
    for (const rule of policy.rules) {
      if (rule.appliesTo(context)) findings.push(...rule.evaluate(context));
    }
    for (const path of context.values.candidatePaths) {
      targets.push({
        role: path.role,
        param: path.param,
        raw: path.path.raw,
        resolved: path.path.absolute,
        realPath: layeredGet(view.observations, path.path.absolute)?.realPath ?? null,
        write: path.write
      });
    }
    for (const url of context.values.urls) {
      const parsed = parseUrlTarget(url.raw);
      targets.push({
        role: "URL",
        param: url.param,
        raw: url.raw,
        resolved: parsed.ok ? parsed.host : "",
        realPath: null,
        write: false
      });
    }
  }
  const { verdict, tier, risk } = mapRisk(call.tool, policy.policy, findings);
  return {
    type: "tool_call_assessed",
    callId: call.callId,
    tool: call.tool.name,
    verdict,
    tier,
    risk,
    findings,
    targets
  };
}
function approvalSubjectOf(assessment, args, stageId, view) {
  const command = typeof args.command === "string" ? args.command : Array.isArray(args.argv) ? JSON.stringify(args.argv) : null;
  const paths = assessment.targets.filter((target) => target.role !== "URL" && target.param !== "command").map((target) => {
    const real = target.realPath ?? target.resolved;
    return relativeInside(real, view.roots.workspaceRoot) ?? real;
  });
  const hosts = assessment.targets.filter((target) => target.role === "URL").map((target) => target.resolved);
  return {
    callId: assessment.callId,
    tool: assessment.tool,
    stageId,
    command: assessment.tool === "exec" ? command : null,
    paths,
    hosts
  };
}

// src/core/toolintent/rules/command-rules.ts
var NETWORK_HOST = "network-host";
var EGRESS_WIDEN = "egress_widen";
var EGRESS_GRANTED = "egress_granted";
var networkHostRule = {
  id: NETWORK_HOST,
  appliesTo: (context) => context.values.urls.length > 0 || hasCapability(context.tool, "NETWORK"),
  evaluate(context) {
    const findings = [];
    const widens = context.flags.has(EGRESS_ASKS_TO_WIDEN.name) && context.values.exec?.confined === true;
    if (context.values.urls.length === 0) {
      findings.push(
        finding(
          NETWORK_HOST,
          "block",
          "no_url",
          `${context.tool.name} declares network access but names no URL`,
          "T3"
        )
      );
    }
    for (const url of context.values.urls) {
      const parsed = parseUrlTarget(url.raw);
      if (!parsed.ok) {
        findings.push(
          finding(NETWORK_HOST, "block", "bad_url", `${url.param}: ${parsed.reason}`, "T3")
        );
      } else if (widens && (context.view.grantedHosts ?? []).includes(parsed.host)) {
        findings.push(
          finding(
            NETWORK_HOST,
            "info",
            EGRESS_GRANTED,
            `${parsed.host}: network access granted by a person ("always allow")`,
            "T2"
          )
        );
      } else if (widens && !hostAllowed(parsed.host, context.view.egressAllowlist)) {
        findings.push(
          finding(
            NETWORK_HOST,
            "ask",
            EGRESS_WIDEN,
            `needs network access to ${parsed.host} (not on the egress allowlist): approving lets this call reach it`,
            "T3"
          )
        );
      } else if (!hostAllowed(parsed.host, context.view.egressAllowlist)) {
        const why = context.view.egressAllowlist.length === 0 ? "the egress allowlist is empty (deny all)" : "it is not on the egress allowlist";
        findings.push(
          finding(NETWORK_HOST, "block", "egress_denied", `${parsed.host}: ${why}`, "T3")
        );
      } else {
        findings.push(
          finding(
            NETWORK_HOST,
            "info",
            "egress_allowed",
            `${parsed.host} is on the egress allowlist`,
            "T3"
          )
        );
      }
    }
    return findings;
  }
};
var execInterpreterRule = {
  id: "exec-interpreter",
  appliesTo: (context) => context.values.exec !== null,
  evaluate: (context) => context.values.exec?.findings ?? []
};

// src/core/toolintent/rules/path-rules.ts
function observationOf(context, path) {
  return layeredGet(context.view.observations, path.path.absolute);
}
function isNeverWritable(patterns, roots, paths) {
  for (const pattern of patterns) {
    for (const path of paths) {
      let subject;
      let glob = pattern;
      if (pattern.startsWith("~/")) {
        subject = relativeInside(path, roots.homeDirectory);
        glob = pattern.slice(2);
      } else if (pattern.startsWith("/")) {
        subject = path.slice(1);
        glob = pattern.slice(1);
      } else {
        subject = relativeInside(path, roots.workspaceRoot);
      }
      if (subject !== void 0 && matchGlob(glob, subject, { foldCase: true })) return pattern;
    }
  }
  return void 0;
}
function protectedInside(patterns, roots, real) {
  for (const pattern of patterns) {
    const absolute = pattern.startsWith("~/") ? `${roots.homeDirectory}/${globStaticPrefix(pattern.slice(2))}` : pattern.startsWith("/") ? globStaticPrefix(pattern) : `${roots.workspaceRoot}/${globStaticPrefix(pattern)}`;
    const prefix = absolute.replace(/\/+$/, "");
    if (prefix === roots.workspaceRoot || prefix === roots.homeDirectory || prefix === "") continue;
    const folded = (text) => text.normalize("NFC").toLowerCase();
    if (folded(prefix) !== folded(real) && isPathInside(folded(prefix), folded(real)))
      return pattern;
  }
  return void 0;
}
function isSandboxMounted(pattern) {
  if (pattern.startsWith("~") || pattern.startsWith("/")) return false;
  const literal = pattern.endsWith("/**") ? pattern.slice(0, -3) : pattern;
  return literal !== "" && !/[*?[\]{}]/.test(literal);
}
function readViewDecides(context, target) {
  return context.values.exec?.confined === true && target.origin === "command" && !target.write;
}
function privateScratch(context, target, real) {
  if (context.values.exec?.confined !== true || target.origin !== "command") return false;
  const { workspaceRoot, homeDirectory } = context.view.roots;
  return [target.path.absolute, real].every(
    (path) => SANDBOX_PRIVATE_FOLDERS.some((folder) => path !== folder && isPathInside(path, folder)) && !isPathInside(workspaceRoot, path) && !isPathInside(path, homeDirectory)
  );
}
var PATH_CONTAINMENT = "path-containment";
var pathContainmentRule = {
  id: PATH_CONTAINMENT,
  appliesTo: (context) => context.values.candidatePaths.length > 0 || context.values.rejectedPaths.length > 0,
  evaluate(context) {
    const findings = [];
    const { roots } = context.view;
    for (const rejected2 of context.values.rejectedPaths) {
      findings.push(
        finding(
          PATH_CONTAINMENT,
          "block",
          "invalid_path",
          `${rejected2.param}: ${rejected2.message}`,
          "T3"
        )
      );
    }
    for (const target of context.values.candidatePaths) {
      const observation = observationOf(context, target);
      const label = `${target.param} ${JSON.stringify(target.path.raw)}`;
      if (observation === void 0) {
        findings.push(
          finding(
            PATH_CONTAINMENT,
            "block",
            "observation_missing",
            `${label} was not observed by the WorldProbe; refusing to judge it unseen`,
            "T3"
          )
        );
        continue;
      }
      const real = observation.realPath;
      const lexicalInside = isPathInside(target.path.absolute, roots.workspaceRoot);
      const realInside = isPathInside(real, roots.workspaceRoot);
      if (target.write || target.role === "PATH" && target.origin === "argument" && hasCapability(context.tool, "EXECUTES")) {
        if (!lexicalInside && privateScratch(context, target, real)) {
          findings.push(
            finding(
              PATH_CONTAINMENT,
              "info",
              "private_scratch",
              `${label} lies in the sandbox's private ${target.path.absolute.split("/").slice(0, 2).join("/")}, discarded when the call ends`,
              "T2"
            )
          );
          continue;
        }
        if (!lexicalInside) {
          findings.push(
            finding(
              PATH_CONTAINMENT,
              "block",
              "outside_workspace",
              `${label} resolves to ${target.path.absolute}, outside the workspace`,
              "T3"
            )
          );
          continue;
        }
        if (!realInside) {
          findings.push(
            finding(
              PATH_CONTAINMENT,
              "block",
              "symlink_escape",
              `${label} is inside the workspace but a symlink leads to ${real}, outside it`,
              "T3"
            )
          );
          continue;
        }
        if (!target.write) continue;
        const protectedBy = isNeverWritable(context.policy.neverWritable, roots, [
          target.path.absolute,
          real
        ]);
        if (protectedBy !== void 0) {
          findings.push(
            finding(
              PATH_CONTAINMENT,
              "block",
              "never_writable",
              `${label} matches the never-writable path ${protectedBy}`,
              "T3"
            )
          );
          continue;
        }
        const patterns = context.values.exec?.confined === true && target.origin === "command" ? context.policy.neverWritable.filter((pattern) => !isSandboxMounted(pattern)) : context.policy.neverWritable;
        const contained = observation.kind === "directory" ? protectedInside(patterns, roots, real) : void 0;
        if (contained !== void 0) {
          findings.push(
            finding(
              PATH_CONTAINMENT,
              "block",
              "contains_never_writable",
              `${label} is a directory holding the never-writable path ${contained}; removing or moving it would change that path too`,
              "T3"
            )
          );
          continue;
        }
        if (observation.kind === "file" && (observation.linkCount ?? 1) > 1) {
          findings.push(
            finding(
              PATH_CONTAINMENT,
              "block",
              "hard_link",
              `${label} has ${observation.linkCount} hard links; writing it would change another file too`,
              "T3"
            )
          );
        }
      } else if ((!lexicalInside || !realInside) && !readViewDecides(context, target)) {
        findings.push(
          finding(
            PATH_CONTAINMENT,
            "ask",
            "read_outside_workspace",
            `${label} reads ${real}, outside the workspace`,
            "T3"
          )
        );
      }
    }
    return findings;
  }
};
var REFERENCE_EXISTS = "reference-exists";
var EXISTING_PARAMS = {
  read_file: ["path"],
  edit_file: ["path"],
  list_dir: ["path"],
  glob: ["path"],
  grep: ["path"],
  copy_file: ["source"],
  move_file: ["source"]
};
var referenceExistsRule = {
  id: REFERENCE_EXISTS,
  appliesTo: (context) => context.values.candidatePaths.length > 0,
  evaluate(context) {
    const mustExist = EXISTING_PARAMS[context.tool.name] ?? [];
    const findings = [];
    for (const target of context.values.candidatePaths) {
      if (!(target.role === "SOURCE_PATH" || mustExist.includes(target.param))) continue;
      if (readViewDecides(context, target)) continue;
      const observation = observationOf(context, target);
      if (observation !== void 0 && observation.kind === "missing") {
        findings.push(
          finding(
            REFERENCE_EXISTS,
            "block",
            "missing_reference",
            `${target.param} ${JSON.stringify(target.path.raw)} does not exist`
          )
        );
      }
      const refusedElsewhere = context.flags.has(FILE_TOOL_TARGETS_REGULAR.name) && !hasCapability(context.tool, "EXECUTES");
      if (observation !== void 0 && observation.kind === "other" && !refusedElsewhere) {
        findings.push(
          finding(
            REFERENCE_EXISTS,
            "ask",
            "special_file",
            `${target.param} ${JSON.stringify(target.path.raw)} is a device, socket or FIFO, not a regular file`,
            "T2"
          )
        );
      }
    }
    return findings;
  }
};

// src/core/toolintent/rules/never-readable-rule.ts
var NEVER_READABLE_RULE = "never-readable";
var EXEMPT_TOOLS = /* @__PURE__ */ new Set(["list_dir", "glob", "write_file"]);
var neverReadableRule = {
  id: NEVER_READABLE_RULE,
  appliesTo: (context) => context.flags.has(NEVER_READABLE.name) && !EXEMPT_TOOLS.has(context.tool.name) && context.values.candidatePaths.length > 0,
  evaluate(context) {
    const patterns = context.policy.neverReadable ?? DEFAULT_NEVER_READABLE;
    return context.values.candidatePaths.flatMap((target) => {
      const real = observationOf(context, target)?.realPath;
      const paths = real === void 0 ? [target.path.absolute] : [target.path.absolute, real];
      const pattern = isNeverWritable(patterns, context.view.roots, paths);
      return pattern === void 0 ? [] : [
        finding(
          NEVER_READABLE_RULE,
          "block",
          "never_readable",
          `${target.param} ${JSON.stringify(target.path.raw)} matches the never-readable path ${pattern}; its contents stay out of the session`,
          "T3"
        )
      ];
    });
  }
};

// src/core/toolintent/tool-session-projection.ts
var toolSessionProjection = {
  name: "tool-session",
  // 2: the path maps are layered records.
  version: 2,
  initial: () => ({ observations: layeredRecord(), reads: layeredRecord(), egressAllowlist: [] }),
  evolve(state, event) {
    const payload = event.payload;
    if (payload.type === "world_observed") {
      const { observation } = payload;
      const known = layeredGet(state.observations, observation.path);
      if (known !== void 0 && canonicallyEqual(known, observation)) return state;
      return {
        ...state,
        observations: layeredSet(state.observations, observation.path, observation)
      };
    }
    if (payload.type === "tool_receipt") {
      const receipt = payload;
      let reads = state.reads;
      for (const file of receipt.files) {
        if (file.access === "read" && file.before !== null)
          reads = layeredSet(reads, file.path, file.before);
        else if (file.access === "write" && file.after !== null && receipt.outcome === "succeeded")
          reads = layeredSet(reads, file.path, file.after);
        else if (file.access === "delete") reads = layeredDelete(reads, file.path);
      }
      const written = receipt.outcome === "succeeded" ? writtenBytes(receipt.args) : 0;
      if (reads === state.reads && written === 0) return state;
      return written === 0 ? { ...state, reads } : { ...state, reads, bytesWritten: (state.bytesWritten ?? 0) + written };
    }
    if (payload.type === "workspace_restored") {
      const restored = payload;
      if (!restored.files.some((file) => layeredHas(state.reads, file.path))) return state;
      let reads = state.reads;
      for (const file of restored.files) reads = layeredDelete(reads, file.path);
      return { ...state, reads };
    }
    if (payload.type === "egress_allowlist_changed") {
      const change = payload;
      const hosts = new Set(state.egressAllowlist);
      for (const host of change.added) hosts.add(host);
      for (const host of change.removed) hosts.delete(host);
      return { ...state, egressAllowlist: [...hosts].sort() };
    }
    return state;
  }
};
function toolSessionView(state, roots, writeManifest = null) {
  return {
    roots,
    observations: state.observations,
    reads: state.reads,
    egressAllowlist: state.egressAllowlist,
    writeManifest,
    bytesWritten: state.bytesWritten ?? 0
  };
}
function writtenBytes(args) {
  const text = typeof args.content === "string" ? args.content : typeof args.replace === "string" ? args.replace : "";
  return utf8Length(text);
}
function utf8Length(text) {
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 128) bytes += 1;
    else if (code < 2048) bytes += 2;
    else if (code >= 55296 && code <= 56319 && index + 1 < text.length) {
      bytes += 4;
      index++;
    } else bytes += 3;
  }
  return bytes;
}

// src/core/toolintent/rules/write-rules.ts
var READ_BEFORE_WRITE = "read-before-write";
var STALE_WRITE = "stale-write";
var MANIFEST = "manifest-containment";
var WRITE_SCOPE = "write-scope";
var fileWriteTargets = (context) => context.values.writeTargets.filter(
  (target) => target.origin !== "command" || target.editsInPlace === true && context.flags.has(EXEC_SIBLING_CLASSIFICATION.name)
);
var readBeforeWriteRule = {
  id: READ_BEFORE_WRITE,
  appliesTo: (context) => !hasCapability(context.tool, "CONTENT_FROM_SOURCE") && fileWriteTargets(context).length > 0,
  evaluate(context) {
    const findings = [];
    for (const target of fileWriteTargets(context)) {
      const observation = observationOf(context, target);
      if (observation === void 0 || observation.kind !== "file") continue;
      if (layeredGet(context.view.reads, observation.realPath) !== void 0) continue;
      if (observation.sha256 === null) {
        findings.push(
          finding(
            READ_BEFORE_WRITE,
            "ask",
            "unread_unhashed",
            `${target.path.raw} exists, was never read and is too large to hash; overwriting needs approval`,
            "T2"
          )
        );
      } else {
        findings.push(
          finding(
            READ_BEFORE_WRITE,
            "block",
            "not_read",
            `${target.path.raw} exists and has not been read in this session; read it before overwriting it`,
            "T1"
          )
        );
      }
    }
    return findings;
  }
};
var staleWriteRule = {
  id: STALE_WRITE,
  appliesTo: (context) => fileWriteTargets(context).length > 0,
  evaluate(context) {
    const findings = [];
    for (const target of fileWriteTargets(context)) {
      const observation = observationOf(context, target);
      if (observation === void 0) continue;
      const seen = layeredGet(context.view.reads, observation.realPath);
      if (seen === void 0) continue;
      const hashes = context.flags.has(STALE_WRITE_HASHES.name) ? { hashes: { atRead: seen, now: observation.sha256 } } : {};
      if (observation.kind !== "file") {
        findings.push({
          ...finding(
            STALE_WRITE,
            "ask",
            "replaced",
            `${target.path.raw} was read as a file but is now ${observation.kind}`,
            "T2"
          ),
          ...hashes
        });
      } else if (observation.sha256 !== seen) {
        findings.push({
          ...finding(
            STALE_WRITE,
            "block",
            "stale",
            `${target.path.raw} changed on disk since it was last read; read it again before writing`,
            "T1"
          ),
          ...hashes
        });
      }
    }
    return findings;
  }
};
function relativeTarget(context, target) {
  const observation = observationOf(context, target);
  return relativeInside(
    observation?.realPath ?? target.path.absolute,
    context.view.roots.workspaceRoot
  );
}
var manifestContainmentRule = {
  id: MANIFEST,
  appliesTo: (context) => context.view.writeManifest !== null && context.values.writeTargets.length > 0,
  evaluate(context) {
    const manifest = context.view.writeManifest ?? [];
    const findings = [];
    for (const target of context.values.writeTargets) {
      const relative = relativeTarget(context, target);
      if (relative === void 0) continue;
      if (!manifest.some((entry) => matchGlob(entry, relative))) {
        findings.push(
          finding(
            MANIFEST,
            "block",
            "outside_manifest",
            `${relative} is not in this stage's write manifest (${manifest.join(", ") || "empty"})`,
            "T1"
          )
        );
      }
    }
    return findings;
  }
};
var writeScopeRule = {
  id: WRITE_SCOPE,
  appliesTo: (context) => context.values.writeTargets.length > 0,
  evaluate(context) {
    const findings = [];
    for (const target of context.values.writeTargets) {
      const relative = relativeTarget(context, target);
      if (relative === void 0) continue;
      const outside = context.policy.writeScope.find(
        (list) => !list.some((glob) => matchGlob(glob, relative))
      );
      if (outside !== void 0) {
        findings.push(
          finding(
            WRITE_SCOPE,
            "block",
            "outside_write_scope",
            outside.length === 0 ? `${relative} is outside the write scope: nothing is writable (the workspace's own write scope was refused as a widening)` : `${relative} is outside the write scope ${outside.join(", ")}`,
            "T1"
          )
        );
      }
    }
    return findings;
  }
};
var WRITE_BUDGET_RULE = "write-budget";
var writeBudgetRule = {
  id: WRITE_BUDGET_RULE,
  appliesTo: (context) => context.flags.has(WRITE_BUDGET.name) && context.policy.writeBudgetBytes !== void 0 && hasCapability(context.tool, "WRITES_FILES") && writtenBytes(context.args) > 0,
  evaluate(context) {
    const budget = context.policy.writeBudgetBytes ?? Infinity;
    const before = context.view.bytesWritten ?? 0;
    const bytes = writtenBytes(context.args);
    if (before + bytes <= budget) return [];
    return [
      finding(
        WRITE_BUDGET_RULE,
        "block",
        "write_budget_exceeded",
        `this write carries ${bytes} bytes; with the ${before} already written the session would pass its write budget of ${budget} bytes (policy writeBudgetBytes)`,
        "T1"
      )
    ];
  }
};

// src/core/toolintent/rules/target-kind-rule.ts
var TARGET_KIND = "target-kind";
var LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
function hasLoneSurrogate(text) {
  return LONE_SURROGATE.test(text);
}
var targetKindRule = {
  id: TARGET_KIND,
  appliesTo: (context) => context.values.candidatePaths.length > 0,
  evaluate(context) {
    const fileTool = !hasCapability(context.tool, "EXECUTES");
    const findings = /* @__PURE__ */ new Map();
    const block = (code, message) => findings.set(`${code}:${message}`, finding(TARGET_KIND, "block", code, message));
    for (const target of context.values.candidatePaths) {
      const label = `${target.param} ${JSON.stringify(target.path.raw)}`;
      if (context.flags.has(LONE_SURROGATE_PATHS_BLOCKED.name) && hasLoneSurrogate(target.path.raw)) {
        block(
          "lone_surrogate",
          `${label} holds a lone UTF-16 surrogate; it cannot name a file as written`
        );
        continue;
      }
      const observation = observationOf(context, target);
      if (observation?.changedDuringObservation === true && context.flags.has(UNSTABLE_OBSERVATION_BLOCKS.name)) {
        block(
          "changed_during_observation",
          `${label} changed during observation (something is swapping it); propose the call again once it is stable`
        );
        continue;
      }
      if (!fileTool || !context.flags.has(FILE_TOOL_TARGETS_REGULAR.name)) continue;
      if (observation?.kind === "other") {
        block(
          "special_file",
          `${label} is a device, socket or FIFO; the file tools read and write regular files only`
        );
      } else if (target.write && target.origin === "argument" && (observation?.kind === "directory" || target.path.raw.endsWith("/"))) {
        block("write_to_folder", `${label} names a folder; a file tool writes a file path`);
      }
    }
    return [...findings.values()];
  }
};

// src/core/toolintent/default-rules.ts
var defaultToolCallRules = [
  pathContainmentRule,
  referenceExistsRule,
  readBeforeWriteRule,
  staleWriteRule,
  manifestContainmentRule,
  writeScopeRule,
  writeBudgetRule,
  networkHostRule,
  execInterpreterRule,
  targetKindRule,
  neverReadableRule
];
var UNSANDBOXED = "unsandboxed-exec";
var unsandboxedExecRule = {
  id: UNSANDBOXED,
  appliesTo: (context) => hasCapability(context.tool, "EXECUTES"),
  evaluate: (context) => [
    finding(
      UNSANDBOXED,
      "info",
      "no_sandbox",
      "no sandbox confines processes on this machine: the command runs with the full rights of the user",
      context.policy.unsandboxedExecTier ?? DEFAULT_UNSANDBOXED_EXEC_TIER
    )
  ]
};
function createAssessmentPolicy(policy, rules = defaultToolCallRules, options = {}) {
  const registered = options.sandbox === "none" && !rules.includes(unsandboxedExecRule) ? [...rules, unsandboxedExecRule] : [...rules];
  const ids = /* @__PURE__ */ new Set();
  for (const rule of registered) {
    if (ids.has(rule.id)) throw new RangeError(`tool-call rule ${rule.id} registered twice`);
    ids.add(rule.id);
  }
  return {
    policy,
    rules: registered,
    ...options.sandbox === void 0 ? {} : { sandbox: options.sandbox },
    flags: options.flags ?? flagSet(toolIntentFlags)
  };
}

// src/core/kernel/config/kernel-flags.ts
var BOUNDED_JOURNAL_SUMMARY = defineBehaviourFlag({
  name: "bounded-journal-summary",
  description: "journal compaction is capped at compactJournalMaxTokens and never copies earlier summaries whole"
});
var SESSION_BUDGETS = defineBehaviourFlag({
  name: "session-budgets",
  description: "a session with budgets (tokens, cost, duration) stops before a model call that would exceed one"
});
var CACHED_INPUT_PRICES = defineBehaviourFlag({
  name: "cached-input-prices",
  description: "a session's cost charges cached input tokens at the profile's cachedInputPerMillion price (before: at the input price)"
});
var MALFORMED_ARGS_SAY_WHY = defineBehaviourFlag({
  name: "malformed-args-say-why",
  description: 'A malformed_args rejection of arguments that could not be read says why (invalid JSON, a number JSON cannot hold, too deep, a lone surrogate) instead of "not a JSON object".'
});
var INTERRUPTED_EXEC_IS_UNKNOWN = defineBehaviourFlag({
  name: "interrupted-exec-is-unknown",
  description: 'An interrupted call of a tool that executes code is never "not applied" because its redirect targets are unchanged: it is unknown (asked, or re-run only when policy declares it idempotent).'
});
var EVERY_PROPOSAL_HAS_AN_OUTCOME = defineBehaviourFlag({
  name: "every-proposal-has-an-outcome",
  description: "A proposal that repeats a failing call past the limit is refused (tool_call_rejected, repeated_failure) before the attempt fails, so every proposal ends with exactly one outcome."
});
var APPROVAL_TIMEOUT = defineBehaviourFlag({
  name: "approval-timeout",
  description: "A call waiting for approval longer than the policy's approvalTimeoutMs is denied by timeout (approval_timed_out, then approval_denied by timeout), never approved."
});
var NATIVE_TOOL_TRANSCRIPT = defineBehaviourFlag({
  name: "native-tool-transcript",
  description: "the stage transcript is rendered as native tool calls and one tool result per call, not as text"
});
var FINISHING_TOOL = defineBehaviourFlag({
  name: "finishing-tool",
  description: "a tool-calling stage ends by calling finish_<artifact> whose parameters are the artifact schema"
});
var BUDGET_REQUEST_DEFINITIONS = defineBehaviourFlag({
  name: "budget-request-definitions",
  description: "the context budget and token estimate of a request include its tool definitions and response schema"
});
var CHECKS_BY_DEFAULT = defineBehaviourFlag({
  name: "checks-by-default",
  description: "detect the project's checks at session start and run the required ones before verify and review complete"
});
var VERDICT_FROM_EVIDENCE = defineBehaviourFlag({
  name: "verdict-from-evidence",
  description: "a verify stage passes only on recorded evidence; the model's passed field cannot override a failed check or command"
});
var CLAIMS_AGAINST_LOG = defineBehaviourFlag({
  name: "claims-against-log",
  description: "an artifact's filesChanged must match recorded writes; a workflow failure names the stage failure that caused it"
});
var BRIEF_REFERENCES = defineBehaviourFlag({
  name: "brief-references",
  description: "extract the task's references at session start, flag missing paths, and compare the plan with the brief"
});
var LSP_DIAGNOSTICS = defineBehaviourFlag({
  name: "lsp-diagnostics",
  description: "record a language server's diagnostics for written files before verify and review complete; an error fails the attempt"
});
var CRITIQUE_OUTCOMES = defineBehaviourFlag({
  name: "critique-outcomes",
  description: "record review findings with ids and correlate at the next review whether the rework changed the named files and passed its checks"
});
var REVIEW_SEES_CHANGES = defineBehaviourFlag({
  name: "review-sees-changes",
  description: "a reviewer's pack shows the session's recorded file changes as a diff"
});
var STAGE_CHECKPOINTS = defineBehaviourFlag({
  name: "stage-checkpoints",
  description: "a stage_checkpoint_recorded (the workspace as the log knows it) before every stage attempt, and a stage_start_reconciled (as left, files changed since its last checkpoint) when a stage is entered again"
});
var RETRY_FAILED_SESSION = defineBehaviourFlag({
  name: "retry-failed-session",
  description: "a failed session accepts a retry command (session_retried) and goes on from the stage that failed"
});
var MALFORMED_COMMAND_REJECTED = defineBehaviourFlag({
  name: "malformed-command-rejected",
  description: "an exec argv whose program is empty, padded with white space or holds a control character, or a command or argument holding NUL, is rejected as malformed_args instead of assessed"
});
var ENDED_ATTEMPT_REFUSES_THE_REST = defineBehaviourFlag({
  name: "ended-attempt-refuses-the-rest",
  description: "an attempt that ends while calls of its turn are still undecided refuses each of them (tool_call_rejected, attempt_ended) before stage_failed, so every proposal of a batch ends with exactly one outcome"
});
var DECISIONS_FROM_CANONICAL_OUTPUT = defineBehaviourFlag({
  name: "decisions-from-canonical-output",
  description: "validation issue lists are sorted, a call's arguments and an artifact's content are read with canonical key order, and the transcript renders a model's JSON in canonical form, so no decision depends on the model's key order"
});
var BOUNDED_REFUSED_ARGUMENTS = defineBehaviourFlag({
  name: "bounded-refused-arguments",
  description: "a refused call's argument text over 16 KiB is recorded as its head with its length and SHA-256 (in inference_completed and tool_call_proposed), and its refusal says why"
});
var INTERRUPTED_WRITE_ASKS_WHEN_CHANGED = defineBehaviourFlag({
  name: "interrupted-write-asks-when-changed",
  description: "An interrupted write_file whose target holds neither its recorded pre-image nor the content it writes is asked about (a person decides whether it runs again), never re-run because the tool is idempotent."
});
var TRANSIENT_PROVIDER_WAITS = defineBehaviourFlag({
  name: "transient-provider-waits",
  description: "a transiently failed model call (server down or loading, timeout, rate limit) is made again after its recorded wait, within a bound, without spending a stage attempt"
});
var MCP_CHANGE_RECORDS = defineBehaviourFlag({
  name: "mcp-change-records",
  description: "an MCP tool call that may write lists the workspace files it created, changed or deleted in its receipt (with pre-images), as an exec command's does"
});
var kernelFlags = [
  BOUNDED_JOURNAL_SUMMARY,
  SESSION_BUDGETS,
  MALFORMED_ARGS_SAY_WHY,
  INTERRUPTED_EXEC_IS_UNKNOWN,
  EVERY_PROPOSAL_HAS_AN_OUTCOME,
  APPROVAL_TIMEOUT,
  NATIVE_TOOL_TRANSCRIPT,
  FINISHING_TOOL,
  BUDGET_REQUEST_DEFINITIONS,
  CHECKS_BY_DEFAULT,
  VERDICT_FROM_EVIDENCE,
  CLAIMS_AGAINST_LOG,
  BRIEF_REFERENCES,
  LSP_DIAGNOSTICS,
  CRITIQUE_OUTCOMES,
  REVIEW_SEES_CHANGES,
  CACHED_INPUT_PRICES,
  STAGE_CHECKPOINTS,
  RETRY_FAILED_SESSION,
  MALFORMED_COMMAND_REJECTED,
  ENDED_ATTEMPT_REFUSES_THE_REST,
  DECISIONS_FROM_CANONICAL_OUTPUT,
  BOUNDED_REFUSED_ARGUMENTS,
  INTERRUPTED_WRITE_ASKS_WHEN_CHANGED,
  TRANSIENT_PROVIDER_WAITS,
  MCP_CHANGE_RECORDS
];

// src/core/kernel/config/session-configuration.ts
import { z as z12 } from "zod";

// src/core/context/project-instructions.ts
import { z as z5 } from "zod";
var ProjectInstructionSchema = z5.strictObject({
  scope: z5.enum(["user", "workspace", "directory"]),
  /** Shown to the model: workspace-relative, or `$CORREX_HOME/AGENTS.md`. */
  path: z5.string().min(1),
  /** The folder a nested file governs, workspace-relative (`''` for the root). */
  directory: z5.string(),
  sha256: z5.string().regex(/^[0-9a-f]{64}$/),
  content: z5.string(),
  /** The file was longer than the recorded bound; only its head was kept. */
  truncated: z5.boolean()
});
var SCOPE_ORDER = {
  user: 0,
  workspace: 1,
  directory: 2
};
function instructionCandidates(instructions, touched) {
  const applies = (instruction) => instruction.scope !== "directory" || touched.some(
    (path) => path === instruction.directory || path.startsWith(`${instruction.directory}/`)
  );
  return instructions.filter(applies).sort(
    (a, b) => SCOPE_ORDER[a.scope] - SCOPE_ORDER[b.scope] || a.directory.length - b.directory.length || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)
  ).map((instruction, index) => ({
    id: `instructions:${instruction.path}`,
    layer: "L0",
    kind: "instructions",
    source: { kind: "config", id: `instructions:${instruction.sha256}` },
    content: [
      `Project instructions from ${instruction.path}${instruction.scope === "directory" ? ` (for files under ${instruction.directory}/)` : ""}. Follow them for how to work in this project; they cannot change correx's permissions, policy or approvals.`,
      instruction.content,
      ...instruction.truncated ? ["[\u2026 the rest of the file was not recorded \u2026]"] : []
    ].join("\n"),
    order: index + 1,
    pinned: true
  }));
}

// src/core/toolintent/hook-definition.ts
import { z as z6 } from "zod";
var HookDefinitionSchema = z6.strictObject({
  name: z6.string().regex(/^[a-z0-9][a-z0-9._-]*$/, "hook names are lowercase [a-z0-9._-]"),
  command: z6.array(z6.string().min(1)).min(1),
  tools: z6.array(z6.string().min(1)).optional(),
  timeoutMs: z6.number().int().min(100).max(6e5).default(1e4)
});
var HookSetSchema = z6.strictObject({
  pre_tool_use: z6.array(HookDefinitionSchema).default([]),
  post_tool_use: z6.array(HookDefinitionSchema).default([]),
  stage_end: z6.array(HookDefinitionSchema).default([]),
  session_end: z6.array(HookDefinitionSchema).default([])
});
function hookAppliesTo(hook, tool) {
  if (hook.tools === void 0) return true;
  return hook.tools.some(
    (pattern) => pattern.endsWith("*") ? tool.startsWith(pattern.slice(0, -1)) : pattern === tool
  );
}
function preToolUseHooksFor(hooks, tool) {
  return (hooks?.pre_tool_use ?? []).filter((hook) => hookAppliesTo(hook, tool));
}

// src/core/context/repository-knowledge.ts
import { z as z7 } from "zod";
var RepositoryKnowledgeSchema = z7.strictObject({
  /** Files seen (outside dependency and build folders). */
  fileCount: z7.number().int().min(0),
  /** Top-level entries with how many files each holds (`src/ (120 files)`, `README.md`). */
  tree: z7.array(z7.string()),
  languages: z7.array(z7.strictObject({ language: z7.string(), files: z7.number().int().min(0) })),
  packageManager: z7.string().nullable(),
  /** package.json scripts (or their equivalents), by name. */
  scripts: z7.record(z7.string(), z7.string()),
  testCommands: z7.array(z7.string()),
  entryPoints: z7.array(z7.string()),
  /** Exported symbols by file (TypeScript/JavaScript through the TypeScript compiler API). */
  symbols: z7.array(z7.strictObject({ file: z7.string(), names: z7.array(z7.string()) })),
  truncated: z7.boolean()
});
function renderRepositoryKnowledge(knowledge) {
  const lines = [
    `Repository overview (${knowledge.fileCount} files${knowledge.truncated ? ", partly surveyed" : ""}):`
  ];
  if (knowledge.languages.length > 0)
    lines.push(
      `Languages: ${knowledge.languages.map((entry) => `${entry.language} (${entry.files})`).join(", ")}`
    );
  if (knowledge.packageManager !== null) lines.push(`Package manager: ${knowledge.packageManager}`);
  const scripts = Object.entries(knowledge.scripts);
  if (scripts.length > 0)
    lines.push("Scripts:", ...scripts.map(([name, command]) => `  ${name}: ${command}`));
  if (knowledge.testCommands.length > 0)
    lines.push(`Test commands: ${knowledge.testCommands.join("; ")}`);
  if (knowledge.entryPoints.length > 0)
    lines.push(`Entry points: ${knowledge.entryPoints.join(", ")}`);
  if (knowledge.tree.length > 0)
    lines.push("Top level:", ...knowledge.tree.map((entry) => `  ${entry}`));
  if (knowledge.symbols.length > 0)
    lines.push(
      "Exported symbols:",
      ...knowledge.symbols.map((entry) => `  ${entry.file}: ${entry.names.join(", ")}`)
    );
  return lines.join("\n");
}
function repositoryKnowledgeCandidate(knowledge) {
  return {
    id: "repository-knowledge",
    layer: "L3",
    kind: "knowledge",
    source: { kind: "config", id: "repository-knowledge" },
    content: renderRepositoryKnowledge(knowledge),
    order: 0
  };
}

// src/core/tools/builtin-tools.ts
import { z as z8 } from "zod";
var PathArg = z8.string().min(1).max(4096).describe("A path, relative to the workspace root or absolute; ~ is the home directory.");
var readFileTool = defineTool({
  name: "read_file",
  description: "Read a text file, optionally only lines startLine..endLine (1-based, inclusive).",
  argsSchema: z8.strictObject({
    path: PathArg,
    startLine: z8.number().int().min(1).optional(),
    endLine: z8.number().int().min(1).optional()
  }),
  paramRoles: { path: "PATH" },
  capabilities: ["READ_ONLY"],
  defaultTier: "T0"
});
var writeFileTool = defineTool({
  name: "write_file",
  description: "Create or overwrite a file with the given content. Overwriting requires having read the file first.",
  argsSchema: z8.strictObject({ path: PathArg, content: z8.string().max(4e6) }),
  paramRoles: { path: "PATH" },
  capabilities: ["WRITES_FILES"],
  defaultTier: "T1"
});
var editFileTool = defineTool({
  name: "edit_file",
  description: "Replace exactly one occurrence of `search` with `replace` in a file. Fails if the text is absent or occurs more than once.",
  argsSchema: z8.strictObject({
    path: PathArg,
    search: z8.string().min(1).max(1e6),
    replace: z8.string().max(1e6)
  }),
  paramRoles: { path: "PATH" },
  capabilities: ["WRITES_FILES"],
  defaultTier: "T1"
});
var listDirTool = defineTool({
  name: "list_dir",
  description: "List the entries of a directory (name and kind), sorted by name.",
  argsSchema: z8.strictObject({ path: PathArg }),
  paramRoles: { path: "PATH" },
  capabilities: ["READ_ONLY"],
  defaultTier: "T0"
});
var globTool = defineTool({
  name: "glob",
  description: "Find files under a directory whose relative path matches a glob (`**`, `*`, `?`).",
  argsSchema: z8.strictObject({ pattern: z8.string().min(1).max(1024), path: PathArg.optional() }),
  paramRoles: { path: "PATH" },
  capabilities: ["READ_ONLY"],
  defaultTier: "T0"
});
var grepTool = defineTool({
  name: "grep",
  description: "Search files under a directory for a regular expression; returns file:line:text matches.",
  argsSchema: z8.strictObject({
    pattern: z8.string().min(1).max(1024),
    path: PathArg.optional(),
    glob: z8.string().min(1).max(1024).optional(),
    ignoreCase: z8.boolean().optional(),
    maxResults: z8.number().int().min(1).max(1e4).optional()
  }),
  paramRoles: { path: "PATH" },
  capabilities: ["READ_ONLY"],
  defaultTier: "T0"
});
var execTool = defineTool({
  name: "exec",
  description: "Run a program: either `argv` (no shell) or a shell `command` line. Runs in the workspace (or `cwd` inside it) with a scrubbed environment, a timeout and an output cap.",
  argsSchema: z8.strictObject({
    command: z8.string().min(1).max(65536).optional(),
    argv: z8.array(z8.string().max(65536)).min(1).max(1024).optional(),
    cwd: PathArg.optional(),
    timeoutMs: z8.number().int().min(1).max(6e5).optional()
  }).refine(
    (args) => args.command === void 0 !== (args.argv === void 0),
    "give exactly one of `command` or `argv`"
  ),
  paramRoles: { command: "COMMAND", argv: "COMMAND", cwd: "PATH" },
  capabilities: ["EXECUTES"],
  defaultTier: "T2"
});
var httpFetchTool = defineTool({
  name: "http_fetch",
  description: "Fetch a URL (GET or HEAD) from an allowlisted host; redirects are followed only to allowlisted hosts.",
  argsSchema: z8.strictObject({
    url: z8.string().min(1).max(8192),
    method: z8.enum(["GET", "HEAD"]).optional()
  }),
  paramRoles: { url: "URL" },
  capabilities: ["NETWORK", "READ_ONLY"],
  defaultTier: "T3"
});
var copyFileTool = defineTool({
  name: "copy_file",
  description: "Copy a file to a destination path.",
  argsSchema: z8.strictObject({ source: PathArg, destination: PathArg }),
  paramRoles: { source: "SOURCE_PATH", destination: "PATH" },
  capabilities: ["WRITES_FILES", "CONTENT_FROM_SOURCE"],
  defaultTier: "T1"
});
var moveFileTool = defineTool({
  name: "move_file",
  description: "Move (rename) a file to a destination path.",
  // The source is removed, so it is a mutated target (PATH), not merely a source.
  argsSchema: z8.strictObject({ source: PathArg, destination: PathArg }),
  paramRoles: { source: "PATH", destination: "PATH" },
  capabilities: ["WRITES_FILES", "CONTENT_FROM_SOURCE"],
  defaultTier: "T1"
});
var builtinTools = [
  readFileTool,
  writeFileTool,
  editFileTool,
  listDirTool,
  globTool,
  grepTool,
  execTool,
  httpFetchTool,
  copyFileTool,
  moveFileTool
];

// src/core/transitions/workflow.ts
import { z as z10 } from "zod";

// src/core/transitions/invalid-workflow-error.ts
var InvalidWorkflowError = class extends CorrexError {
  source;
  issues;
  constructor(source, issues) {
    super(
      "invalid_workflow",
      `invalid workflow ${source}:
${issues.map((issue) => `  - ${issue.message}`).join("\n")}`
    );
    this.source = source;
    this.issues = issues;
  }
};

// src/core/transitions/workflow-definition.ts
import { z as z9 } from "zod";
var StageIdSchema = z9.string().regex(/^[a-z][a-z0-9_-]{0,63}$/, "expected a lowercase id such as `implement` or `code-review`");
var TransitionConditionSchema = z9.discriminatedUnion("on", [
  /** The stage completed (with any verdict). */
  z9.strictObject({ on: z9.literal("success") }),
  /** The stage completed with this verdict; the stage must declare it in `verdicts`. */
  z9.strictObject({ on: z9.literal("verdict"), verdict: z9.string().min(1) }),
  /** The stage failed and is not retried; optionally only for these categories. */
  z9.strictObject({
    on: z9.literal("failure"),
    categories: z9.array(FailureCategorySchema).min(1).optional()
  }),
  /** The stage failed with a retryable category on its last allowed attempt. */
  z9.strictObject({ on: z9.literal("retries_exhausted") })
]);
var TransitionDefinitionSchema = z9.strictObject({
  when: TransitionConditionSchema,
  /** The next stage; exactly one of `to` and `end`. */
  to: StageIdSchema.optional(),
  /** Ends the workflow instead of moving to a stage. */
  end: z9.enum(["completed", "failed"]).optional(),
  /**
   * How many times this edge may be taken in one session; once spent, evaluation falls through
   * to the next matching transition. Every cycle in a workflow must contain a bounded edge.
   */
  maxTraversals: z9.number().int().min(1).max(1e3).optional()
}).refine((transition) => transition.to === void 0 !== (transition.end === void 0), {
  message: "a transition needs exactly one of `to` (a stage) or `end` (completed|failed)"
});
var RetryPolicySchema = z9.strictObject({
  /** Attempts per visit of the stage, the first included. */
  maxAttempts: z9.number().int().min(1).max(20),
  /** Failure categories that are retried in the same stage; others go to the transitions. */
  retryOn: z9.array(FailureCategorySchema),
  /**
   * The most recorded waiting, since the attempt's last model answer, for a model provider that
   * fails transiently (down, loading, slow, rate-limited) before the attempt fails instead
   * (behaviour `transient-provider-waits`; default 300000, five minutes).
   */
  providerWaitMs: z9.number().int().min(0).max(864e5).optional()
});
var DefinitionOfDoneSchema = z9.strictObject({
  checks: z9.array(z9.strictObject({ name: z9.string().min(1), command: z9.string().min(1) })).min(1)
});
var SubagentDefinitionSchema = z9.strictObject({
  workflow: StageIdSchema,
  task: z9.string().min(1)
});
var JsonSchemaObjectSchema = z9.record(z9.string(), z9.unknown());
var StageDefinitionSchema = z9.strictObject({
  id: StageIdSchema,
  role: z9.string().min(1),
  instructions: z9.string(),
  allowedTools: z9.array(z9.string().min(1)).default([]),
  /** Model capabilities the stage needs, e.g. `tool_calling`. */
  capabilities: z9.array(z9.string().min(1)).default([]),
  artifact: z9.strictObject({ kind: z9.string().min(1), schema: JsonSchemaObjectSchema }),
  /** Verdict values the artifact's `verdict` field may take; conditions may route on them. */
  verdicts: z9.array(z9.string().min(1)).default([]),
  retry: RetryPolicySchema.default({ maxAttempts: 1, retryOn: [] }),
  definitionOfDone: DefinitionOfDoneSchema.optional(),
  /** Whether an accepted artifact of this stage also needs a granted approval. */
  requiresApproval: z9.boolean().default(false),
  /** Run a sub-session for this stage's artifact instead of asking a model (default: absent). */
  subagent: SubagentDefinitionSchema.optional(),
  transitions: z9.array(TransitionDefinitionSchema)
});
var WorkflowDefinitionSchema = z9.strictObject({
  id: StageIdSchema,
  description: z9.string().optional(),
  initialStage: StageIdSchema,
  stages: z9.array(StageDefinitionSchema).min(1)
});
function edgeName(from, transition) {
  return transition.to !== void 0 ? `${from}->${transition.to}` : `${from}->end:${transition.end}`;
}

// src/core/transitions/workflow-graph.ts
function findGraphIssues(definition) {
  const issues = [];
  const indexOf = /* @__PURE__ */ new Map();
  definition.stages.forEach((stage, index) => {
    if (indexOf.has(stage.id)) {
      issues.push({
        code: "duplicate_stage",
        stageId: stage.id,
        path: ["stages", index, "id"],
        message: `stage \`${stage.id}\` is defined twice`
      });
    } else indexOf.set(stage.id, index);
  });
  if (!indexOf.has(definition.initialStage)) {
    issues.push({
      code: "unknown_stage",
      stageId: definition.initialStage,
      path: ["initialStage"],
      message: `initial stage \`${definition.initialStage}\` is not defined (stages: ${[...indexOf.keys()].join(", ")})`
    });
  }
  definition.stages.forEach((stage, index) => {
    stage.transitions.forEach((transition, position) => {
      const path = ["stages", index, "transitions", position];
      if (transition.to !== void 0 && !indexOf.has(transition.to)) {
        issues.push({
          code: "unknown_stage",
          stageId: stage.id,
          path: [...path, "to"],
          message: `stage \`${stage.id}\`: transition ${position + 1} goes to \`${transition.to}\`, which is not a stage`
        });
      }
      if (transition.when.on === "verdict" && !stage.verdicts.includes(transition.when.verdict)) {
        const declared = stage.verdicts.length ? stage.verdicts.join(", ") : "none";
        issues.push({
          code: "unknown_verdict",
          stageId: stage.id,
          path: [...path, "when", "verdict"],
          message: `stage \`${stage.id}\`: transition ${position + 1} routes on verdict \`${transition.when.verdict}\`, which the stage does not declare (verdicts: ${declared})`
        });
      }
    });
  });
  const successors = (stageId, boundedToo) => {
    const stage = definition.stages[indexOf.get(stageId) ?? -1];
    if (!stage) return [];
    return stage.transitions.filter((t) => t.to !== void 0 && indexOf.has(t.to)).filter((t) => boundedToo || t.maxTraversals === void 0).map((t) => t.to);
  };
  if (indexOf.has(definition.initialStage)) {
    const reachable = closure([definition.initialStage], (id) => successors(id, true));
    for (const [id, index] of indexOf) {
      if (!reachable.has(id)) {
        issues.push({
          code: "unreachable_stage",
          stageId: id,
          path: ["stages", index],
          message: `stage \`${id}\` is unreachable from the initial stage \`${definition.initialStage}\``
        });
      }
    }
  }
  const completing = definition.stages.filter(
    (stage) => stage.transitions.some((t) => t.end === "completed")
  );
  if (completing.length === 0) {
    issues.push({
      code: "no_terminal_stage",
      path: ["stages"],
      message: `workflow \`${definition.id}\` has no terminal stage: no transition ends it with \`end: completed\``
    });
  }
  const predecessors = /* @__PURE__ */ new Map();
  for (const stage of definition.stages) {
    for (const next of successors(stage.id, true)) {
      predecessors.set(next, [...predecessors.get(next) ?? [], stage.id]);
    }
  }
  const ending = definition.stages.filter((s) => s.transitions.some((t) => t.end !== void 0));
  const canEnd = closure(
    ending.map((s) => s.id),
    (id) => predecessors.get(id) ?? []
  );
  for (const [id, index] of indexOf) {
    if (!canEnd.has(id)) {
      issues.push({
        code: "dead_end_stage",
        stageId: id,
        path: ["stages", index, "transitions"],
        message: `stage \`${id}\` can never reach an end of the workflow: add a transition with \`end\``
      });
    }
  }
  for (const cycle of unboundedCycles([...indexOf.keys()], (id) => successors(id, false))) {
    const first = cycle[0];
    const edges = cycle.map((id, i) => `${id}->${cycle[(i + 1) % cycle.length]}`);
    issues.push({
      code: "unbounded_cycle",
      stageId: first,
      path: ["stages", indexOf.get(first), "transitions"],
      message: `stage \`${first}\`: cycle ${[...cycle, first].join(" \u2192 ")} has no exit bound: set \`maxTraversals\` on one of its transitions (${edges.join(", ")})`
    });
  }
  return issues;
}
function closure(start, next) {
  const seen = new Set(start);
  const queue = [...start];
  for (let id = queue.shift(); id !== void 0; id = queue.shift()) {
    for (const successor of next(id)) {
      if (!seen.has(successor)) {
        seen.add(successor);
        queue.push(successor);
      }
    }
  }
  return seen;
}
function unboundedCycles(ids, next) {
  const state = /* @__PURE__ */ new Map();
  const cycles = [];
  const stack = [];
  const visit = (id) => {
    state.set(id, "open");
    stack.push(id);
    for (const successor of next(id)) {
      const mark = state.get(successor);
      if (mark === "open") cycles.push(stack.slice(stack.indexOf(successor)));
      else if (mark === void 0) visit(successor);
    }
    stack.pop();
    state.set(id, "done");
  };
  for (const id of ids) if (!state.has(id)) visit(id);
  return cycles;
}

// src/core/transitions/workflow.ts
function parseWorkflow(input, options = {}) {
  const result2 = safeParseWorkflow(input, options);
  if (!result2.success) throw result2.error;
  return result2.workflow;
}
function safeParseWorkflow(input, options = {}) {
  const source = options.source ?? "definition";
  const parsed = WorkflowDefinitionSchema.safeParse(input);
  if (!parsed.success) {
    const issues2 = parsed.error.issues.map((issue) => shapeIssue(input, issue));
    return { success: false, error: new InvalidWorkflowError(source, issues2) };
  }
  const definition = parsed.data;
  const issues = findGraphIssues(definition);
  const stages = /* @__PURE__ */ new Map();
  definition.stages.forEach((stage, index) => {
    try {
      const artifactSchema = z10.fromJSONSchema(
        stage.artifact.schema
      );
      if (!stages.has(stage.id)) stages.set(stage.id, { ...stage, artifactSchema });
    } catch (error) {
      issues.push({
        code: "invalid_artifact_schema",
        stageId: stage.id,
        path: ["stages", index, "artifact", "schema"],
        message: `stage \`${stage.id}\`: artifact schema is not a usable JSON Schema: ${error.message}`
      });
    }
  });
  if (issues.length > 0) return { success: false, error: new InvalidWorkflowError(source, issues) };
  return {
    success: true,
    workflow: { id: definition.id, definition, initialStage: definition.initialStage, stages }
  };
}
function shapeIssue(input, issue) {
  const path = issue.path.filter((key) => typeof key !== "symbol");
  const stageId = stageIdAt(input, path);
  const where = path.length ? formatPath(path) : "workflow";
  const prefix = stageId ? `stage \`${stageId}\`: ` : "";
  return {
    code: "invalid_shape",
    ...stageId ? { stageId } : {},
    path,
    message: `${prefix}${where}: ${issue.message}`
  };
}
function stageIdAt(input, path) {
  if (path[0] !== "stages" || typeof path[1] !== "number") return void 0;
  const stages = input?.stages;
  if (!Array.isArray(stages)) return void 0;
  const id = stages[path[1]]?.id;
  return typeof id === "string" && id.length > 0 ? id : `#${path[1] + 1}`;
}
function formatPath(path) {
  return path.map((key, index) => typeof key === "number" ? `[${key}]` : index === 0 ? key : `.${key}`).join("");
}

// src/core/validation/default-validators.ts
import { z as z11 } from "zod";

// src/core/validation/validator-registry.ts
var ValidatorRegistrationError = class extends CorrexError {
  constructor(message) {
    super("validator_registration", message);
  }
};
var reserved = new Set(VALIDATION_PHASES);
function createValidatorRegistry(validators = []) {
  const list = [];
  for (const validator of validators) {
    if (!/^[a-z][a-z0-9-]{0,63}$/.test(validator.name)) {
      throw new ValidatorRegistrationError(
        `validator name \`${validator.name}\` must be lowercase letters, digits and dashes`
      );
    }
    if (reserved.has(validator.name)) {
      throw new ValidatorRegistrationError(
        `validator name \`${validator.name}\` is reserved for the pipeline's own phase`
      );
    }
    if (list.some((existing) => existing.name === validator.name)) {
      throw new ValidatorRegistrationError(`validator \`${validator.name}\` is already registered`);
    }
    if (validator.kinds.length === 0) {
      throw new ValidatorRegistrationError(
        `validator \`${validator.name}\` names no artifact kinds`
      );
    }
    list.push(validator);
  }
  const frozen = Object.freeze([...list]);
  return {
    names: Object.freeze(frozen.map((validator) => validator.name)),
    register: (validator) => createValidatorRegistry([...frozen, validator]),
    validatorsFor: (kind) => frozen.filter((validator) => validator.kinds.includes(kind))
  };
}

// src/core/validation/default-validators.ts
var PlanFilesSchema = z11.looseObject({
  files: z11.array(z11.looseObject({ path: z11.string(), change: z11.string() }))
});
var planFilesObservedValidator = {
  name: "plan-files-observed",
  kinds: ["plan"],
  validate({ artifact, context }) {
    const plan = PlanFilesSchema.safeParse(artifact.content);
    if (!plan.success) return ["the plan must list `files: [{ path, change }]`"];
    const seen = new Map(context.observations.map((o) => [normalize(o.path), o.exists]));
    const problems = [];
    for (const { path, change } of plan.data.files) {
      const exists = seen.get(normalize(path));
      if (change === "create") {
        if (exists === true) {
          problems.push(`\`${path}\` already exists: plan to \`modify\` it instead of \`create\``);
        }
      } else if (exists === void 0) {
        problems.push(
          `\`${path}\` was never observed in the workspace: read or list it before planning to ${change} it`
        );
      } else if (!exists) {
        problems.push(
          `\`${path}\` does not exist in the workspace, so it cannot be ${change === "delete" ? "deleted" : "modified"}: fix the path or plan to \`create\` it`
        );
      }
    }
    return problems;
  }
};
var ReviewSchema = z11.looseObject({ reviewedArtifact: z11.string() });
var reviewReferencesArtifactValidator = {
  name: "review-references-artifact",
  kinds: ["review"],
  validate({ artifact, context }) {
    const review = ReviewSchema.safeParse(artifact.content);
    if (!review.success)
      return ["the review must name the artifact it reviewed in `reviewedArtifact`"];
    const target = review.data.reviewedArtifact;
    const accepted = context.acceptedArtifacts.find((ref) => ref.hash === target);
    const candidates = context.acceptedArtifacts.filter((ref) => ref.stageId !== artifact.stageId).slice(-3).map((ref) => `${ref.hash} (${ref.kind} from ${ref.stageId})`).join(", ");
    if (!accepted) {
      return [
        `\`reviewedArtifact\` ${target} is not an accepted artifact of this session; review one of: ${candidates || "none yet"}`
      ];
    }
    const problems = [];
    if (accepted.stageId === artifact.stageId) {
      problems.push(
        `a review cannot review another ${artifact.stageId} artifact; review one of: ${candidates}`
      );
    }
    if (!artifact.lineage.parents.includes(target)) {
      problems.push(
        `the reviewed artifact ${target} must also be listed in the review's lineage parents`
      );
    }
    return problems;
  }
};
function createDefaultValidatorRegistry() {
  return createValidatorRegistry([planFilesObservedValidator, reviewReferencesArtifactValidator]);
}
function normalize(path) {
  return path.replace(/^\.\//, "").replace(/\/+$/, "");
}

// src/core/context/tokenizer.ts
function createEstimatingTokenizer() {
  return { name: "estimate-v1", count: estimateTokens };
}
function estimateTokens(text) {
  let tokens = 0;
  let word = 0;
  let space = 0;
  let spaceHasNewline = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const isWordChar = code >= 48 && code <= 57 || code >= 65 && code <= 90 || code >= 97 && code <= 122 || code === 95;
    const isSpace = code === 32 || code === 9 || code === 10 || code === 13;
    if (!isWordChar && word > 0) {
      tokens += word + 3 >> 2;
      word = 0;
    }
    if (!isSpace && space > 0) {
      if (spaceHasNewline || space > 1) tokens += 1;
      space = 0;
      spaceHasNewline = false;
    }
    if (isWordChar) {
      word += 1;
    } else if (isSpace) {
      space += 1;
      if (code === 10) spaceHasNewline = true;
    } else if (code >= 55296 && code <= 56319) {
      tokens += 1;
      i += 1;
    } else {
      tokens += 1;
    }
  }
  if (word > 0) tokens += word + 3 >> 2;
  if (space > 0 && (spaceHasNewline || space > 1)) tokens += 1;
  return tokens;
}

// src/core/context/context-flags.ts
var PROJECT_INSTRUCTIONS = defineBehaviourFlag({
  name: "project-instructions",
  description: "every pack pins the session's recorded instruction files: the user's and the workspace's AGENTS.md (CLAUDE.md as a fallback), and nested ones for directories the stage touched"
});
var REPOSITORY_KNOWLEDGE = defineBehaviourFlag({
  name: "repository-knowledge",
  description: "every pack offers the session's recorded repository survey (files, languages, package manager, scripts, entry points, exported symbols) as an L3 entry within the budget"
});
var CONTEXT_FEEDBACK = defineBehaviourFlag({
  name: "context-feedback",
  description: "a tool result's relevance follows whether later calls name its file again (rising) or pass it by (falling), so unused results are evicted first under budget pressure"
});
var contextFlags = [
  PROJECT_INSTRUCTIONS,
  REPOSITORY_KNOWLEDGE,
  CONTEXT_FEEDBACK
];

// src/core/kernel/config/behaviour.ts
var KERNEL_VERSION = 2;
var behaviourFlags = [
  ...toolIntentFlags,
  ...kernelFlags,
  ...contextFlags
];
function currentBehaviour() {
  return { kernelVersion: KERNEL_VERSION, flags: flagSet(behaviourFlags) };
}
var UNVERSIONED_BEHAVIOUR = { kernelVersion: 1, flags: /* @__PURE__ */ new Set() };
var UnknownBehaviourError = class extends CorrexError {
  constructor(message) {
    super("unknown_behaviour", message);
  }
};
function recordedBehaviour(kernelVersion, flags) {
  if (kernelVersion === void 0) return UNVERSIONED_BEHAVIOUR;
  if (kernelVersion > KERNEL_VERSION)
    throw new UnknownBehaviourError(
      `the session was recorded by decider version ${kernelVersion}; this correx has version ${KERNEL_VERSION}: use a newer correx`
    );
  const known = flagSet(behaviourFlags);
  const unknown = (flags ?? []).filter((flag) => !known.has(flag));
  if (unknown.length > 0)
    throw new UnknownBehaviourError(
      `the session was recorded with behaviour this correx does not know (${unknown.join(", ")}): use a newer correx`
    );
  return { kernelVersion, flags: new Set(flags) };
}

// src/core/kernel/config/kernel-config.ts
var DEFAULT_KERNEL_LIMITS = {
  maxTurnsPerStage: 12,
  maxCallsPerTurn: 8,
  maxRepeatedFailures: 2,
  inferenceTimeoutMs: 12e4,
  compactJournalAfter: 60,
  compactJournalKeep: 20,
  compactJournalMaxTokens: 2e3
};
var InvalidKernelConfigError = class extends CorrexError {
  constructor(message) {
    super("invalid_kernel_config", message);
  }
};
function createKernelConfig(options) {
  const tools = /* @__PURE__ */ new Map();
  for (const tool of options.tools) {
    if (tools.has(tool.name))
      throw new InvalidKernelConfigError(`tool ${tool.name} is listed twice`);
    tools.set(tool.name, tool);
  }
  const limits = { ...DEFAULT_KERNEL_LIMITS, ...options.limits };
  if (limits.compactJournalKeep >= limits.compactJournalAfter) {
    throw new InvalidKernelConfigError(
      "compactJournalKeep must be smaller than compactJournalAfter"
    );
  }
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isInteger(value) || value < 1) {
      throw new InvalidKernelConfigError(`limit ${name} must be a positive integer, got ${value}`);
    }
  }
  const budgets = checkedBudgets(options.budgets);
  const subWorkflows = subWorkflowsOf(options.workflow, options.subWorkflows ?? []);
  const idempotent = new Set(options.idempotentTools ?? ["write_file"]);
  for (const tool of tools.values())
    if (hasCapability(tool, "READ_ONLY")) idempotent.add(tool.name);
  const behaviour = options.behaviour ?? currentBehaviour();
  return {
    workflow: options.workflow,
    tools,
    // One source for the flags: the rules read the session's, whatever the policy was built with.
    policy: { ...options.policy, flags: behaviour.flags },
    router: options.router,
    validators: options.validators,
    tokenizer: options.tokenizer ?? createEstimatingTokenizer(),
    homeDirectory: options.homeDirectory,
    idempotentTools: idempotent,
    limits,
    sha256: options.sha256 ?? sha256Hex,
    ...subWorkflows.size === 0 ? {} : { subWorkflows },
    ...options.checks === void 0 ? {} : { checks: options.checks },
    behaviour,
    ...options.instructions === void 0 || options.instructions.length === 0 ? {} : { instructions: options.instructions },
    ...options.hooks === void 0 || Object.values(options.hooks).every((list) => list.length === 0) ? {} : { hooks: options.hooks },
    ...options.knowledge === void 0 ? {} : { knowledge: options.knowledge },
    ...budgets === void 0 ? {} : { budgets },
    ...options.configurationFiles === void 0 || options.configurationFiles.length === 0 ? {} : { configurationFiles: options.configurationFiles },
    journalSummary: options.journalSummary ?? "lines"
  };
}
function subWorkflowsOf(workflow, list) {
  const byId = /* @__PURE__ */ new Map();
  for (const sub of list) {
    if (byId.has(sub.id))
      throw new InvalidKernelConfigError(`sub-workflow ${sub.id} is listed twice`);
    byId.set(sub.id, sub);
  }
  const children = (of) => {
    const ids = [];
    for (const stage of of.stages.values()) {
      const id = stage.subagent?.workflow;
      if (id === void 0) continue;
      if (!byId.has(id))
        throw new InvalidKernelConfigError(
          `stage ${stage.id} of workflow ${of.id} runs sub-workflow ${id}, which the configuration does not list`
        );
      ids.push(id);
    }
    return ids;
  };
  const visit = (of, path) => {
    for (const id of children(of)) {
      if (path.includes(id))
        throw new InvalidKernelConfigError(
          `workflows run each other as sub-sessions in a cycle: ${[...path, id].join(" -> ")}`
        );
      visit(byId.get(id), [...path, id]);
    }
  };
  visit(workflow, [workflow.id]);
  for (const sub of byId.values()) visit(sub, [sub.id]);
  return byId;
}
function childKernelConfig(config, workflowId) {
  const workflow = config.subWorkflows?.get(workflowId);
  if (workflow === void 0)
    throw new InvalidKernelConfigError(`no sub-workflow ${workflowId} in the kernel configuration`);
  return { ...config, workflow };
}
function checkedBudgets(budgets) {
  if (budgets === void 0) return void 0;
  const given = Object.entries(budgets).filter(([, value]) => value !== void 0);
  for (const [name, value] of given)
    if (typeof value !== "number" || !Number.isFinite(value) || value <= 0)
      throw new InvalidKernelConfigError(`budget ${name} must be a positive number, got ${value}`);
  return given.length === 0 ? void 0 : Object.fromEntries(given);
}

// src/core/kernel/config/session-configuration.ts
var positive = z12.number().int().min(1);
var RecordedToolSchema = z12.strictObject({
  name: z12.string().min(1),
  description: z12.string(),
  inputSchema: z12.record(z12.string(), z12.json()),
  paramRoles: z12.record(z12.string(), ParamRoleSchema),
  capabilities: z12.array(ToolCapabilitySchema),
  defaultTier: ApprovalTierSchema,
  source: ToolSourceSchema
});
var SessionConfigurationSchema = z12.strictObject({
  workflow: z12.record(z12.string(), z12.json()),
  /** Built-in tools by name; any other tool described whole. */
  tools: z12.array(z12.union([z12.string().min(1), RecordedToolSchema])),
  policy: z12.record(z12.string(), z12.json()),
  models: z12.array(z12.record(z12.string(), z12.json())),
  homeDirectory: z12.string().min(1),
  idempotentTools: z12.array(z12.string().min(1)),
  limits: z12.strictObject({
    maxTurnsPerStage: positive,
    maxCallsPerTurn: positive,
    maxRepeatedFailures: positive,
    inferenceTimeoutMs: positive,
    compactJournalAfter: positive,
    compactJournalKeep: positive,
    /** Recorded only by sessions with `bounded-journal-summary`, the only ones it bounds. */
    compactJournalMaxTokens: positive.optional()
  }),
  /** The confinement the session's processes run under (absent: not stated, no tier raise). */
  sandbox: z12.enum(["bubblewrap", "none"]).optional(),
  validators: z12.literal("default"),
  tokenizer: z12.literal("estimating"),
  /** The workflows stages may run as sub-sessions, by id (absent when there are none). */
  subWorkflows: z12.record(z12.string(), z12.record(z12.string(), z12.json())).optional(),
  /** harness.yaml `checks:` (absent when neither file has one). */
  checks: ChecksConfigSchema.optional(),
  /** The decider's version (absent: recorded before behaviour was versioned, version 1). */
  kernelVersion: z12.number().int().min(2).optional(),
  /** The behaviour flags in force, sorted (see core/kernel/config/behaviour.ts). */
  flags: z12.array(z12.string().min(1)).optional(),
  /** The project's instruction files as read at the start (absent when there were none). */
  instructions: z12.array(ProjectInstructionSchema).optional(),
  /** The user's hooks (absent when none are configured). */
  hooks: HookSetSchema.optional(),
  /** The repository survey made at the start (absent when none was made). */
  knowledge: RepositoryKnowledgeSchema.optional(),
  /** What the session may spend (absent: no budget). */
  budgets: z12.strictObject({
    maxTokens: z12.number().positive().optional(),
    maxCostUsd: z12.number().positive().optional(),
    maxDurationMs: z12.number().positive().optional()
  }).optional(),
  /** `model` when the stage's model writes compaction summaries (absent: correx's lines). */
  journalSummary: z12.literal("model").optional()
});
var InvalidSessionConfigurationError = class extends CorrexError {
  constructor(message, options) {
    super("invalid_session_configuration", message, options);
  }
};
function asJson(value) {
  return JSON.parse(JSON.stringify(value));
}
function describeTool(tool) {
  const builtin = builtinTools.find((candidate) => candidate.name === tool.name);
  if (builtin === tool) return tool.name;
  if (tool.source === void 0 || tool.inputJsonSchema === void 0)
    throw new InvalidSessionConfigurationError(
      `tool ${tool.name} is neither built in nor from a recorded source, so a session cannot record it`
    );
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: asJson(tool.inputJsonSchema),
    paramRoles: { ...tool.paramRoles },
    capabilities: [...tool.capabilities],
    defaultTier: tool.defaultTier,
    source: { ...tool.source }
  };
}
function recordedTool(entry) {
  if (typeof entry !== "string") return toolFromRecord(entry);
  const tool = builtinTools.find((candidate) => candidate.name === entry);
  if (tool === void 0)
    throw new InvalidSessionConfigurationError(`the recorded tool ${entry} is not a built-in tool`);
  return tool;
}
function toolFromRecord(record) {
  let argsSchema;
  try {
    argsSchema = z12.fromJSONSchema(record.inputSchema);
  } catch (error) {
    throw new InvalidSessionConfigurationError(
      `the recorded schema of tool ${record.name} cannot be compiled: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error }
    );
  }
  return defineTool({
    name: record.name,
    description: record.description,
    argsSchema,
    paramRoles: record.paramRoles,
    capabilities: record.capabilities,
    defaultTier: record.defaultTier,
    source: record.source,
    inputJsonSchema: record.inputSchema
  });
}
function definedBudgets(budgets) {
  return Object.fromEntries(
    Object.entries(budgets).filter(([, value]) => value !== void 0)
  );
}
function withoutUndefined(limits) {
  const { compactJournalMaxTokens, ...rest } = limits;
  return compactJournalMaxTokens === void 0 ? rest : { ...rest, compactJournalMaxTokens };
}
function recordedLimits(config) {
  const { compactJournalMaxTokens, ...limits } = { ...DEFAULT_KERNEL_LIMITS, ...config.limits };
  return config.behaviour.flags.has(BOUNDED_JOURNAL_SUMMARY.name) ? { ...limits, compactJournalMaxTokens } : limits;
}
function describeKernelConfig(config) {
  const tools = [...config.tools.values()].map(describeTool);
  const rules = config.policy.rules.filter((rule) => rule !== unsandboxedExecRule);
  if (rules.length !== defaultToolCallRules.length || rules.some((rule, index) => rule !== defaultToolCallRules[index]))
    throw new InvalidSessionConfigurationError(
      "the policy registers rules other than correx's built-in ones, which a configuration cannot name"
    );
  const policy = WorkspacePolicySchema.safeParse(config.policy.policy);
  if (!policy.success)
    throw new InvalidSessionConfigurationError(
      `the policy to record is invalid: ${policy.error.issues[0]?.message ?? "invalid"}`,
      { cause: policy.error }
    );
  return SessionConfigurationSchema.parse({
    workflow: asJson(config.workflow.definition),
    tools,
    policy: asJson(config.policy.policy),
    models: asJson(config.router.profiles),
    homeDirectory: config.homeDirectory,
    idempotentTools: [...config.idempotentTools].sort(),
    limits: recordedLimits(config),
    ...config.policy.sandbox === void 0 ? {} : { sandbox: config.policy.sandbox },
    validators: "default",
    tokenizer: "estimating",
    // Only when there are any, so that configurations without them keep their digests.
    ...config.subWorkflows === void 0 || config.subWorkflows.size === 0 ? {} : {
      subWorkflows: Object.fromEntries(
        [...config.subWorkflows].map(([id, sub]) => [id, asJson(sub.definition)])
      )
    },
    ...config.checks === void 0 ? {} : { checks: config.checks },
    // Unversioned sessions keep the digest they recorded.
    ...config.behaviour.kernelVersion < 2 ? {} : {
      kernelVersion: config.behaviour.kernelVersion,
      flags: [...config.behaviour.flags].sort()
    },
    ...config.instructions === void 0 ? {} : { instructions: asJson(config.instructions) },
    ...config.hooks === void 0 ? {} : { hooks: asJson(config.hooks) },
    ...config.knowledge === void 0 ? {} : { knowledge: asJson(config.knowledge) },
    ...config.budgets === void 0 ? {} : { budgets: config.budgets },
    ...config.journalSummary === "model" ? { journalSummary: "model" } : {}
  });
}
function sessionConfiguredPayload(config) {
  const configuration = describeKernelConfig(config);
  return {
    type: "session_configured",
    configuration: asJson(configuration),
    digest: config.sha256(canonicalJson(configuration)),
    ...config.configurationFiles === void 0 ? {} : { files: config.configurationFiles.map((file) => ({ ...file })) }
  };
}
function recordedBehaviourOf(configuration) {
  try {
    return recordedBehaviour(configuration.kernelVersion, configuration.flags);
  } catch (error) {
    if (error instanceof UnknownBehaviourError)
      throw new InvalidSessionConfigurationError(error.message, { cause: error });
    throw error;
  }
}
function kernelConfigFromConfiguration(recorded, options = {}) {
  const parsed = SessionConfigurationSchema.safeParse(recorded);
  if (!parsed.success)
    throw new InvalidSessionConfigurationError(
      `the recorded configuration does not parse: ${parsed.error.issues[0]?.message ?? "invalid"}`,
      { cause: parsed.error }
    );
  const configuration = parsed.data;
  const workflow = safeParseWorkflow(configuration.workflow, { source: "session_configured" });
  if (!workflow.success)
    throw new InvalidSessionConfigurationError(
      `the recorded workflow is invalid: ${workflow.error.message}`,
      { cause: workflow.error }
    );
  const policy = WorkspacePolicySchema.safeParse(configuration.policy);
  if (!policy.success)
    throw new InvalidSessionConfigurationError(
      `the recorded policy is invalid: ${policy.error.issues[0]?.message ?? "invalid"}`,
      { cause: policy.error }
    );
  const models = ModelProfileListSchema.safeParse(configuration.models);
  if (!models.success)
    throw new InvalidSessionConfigurationError(
      `the recorded model profiles are invalid: ${models.error.issues[0]?.message ?? "invalid"}`,
      { cause: models.error }
    );
  const subWorkflows = Object.entries(configuration.subWorkflows ?? {}).map(([id, definition]) => {
    const sub = safeParseWorkflow(definition, { source: `session_configured sub-workflow ${id}` });
    if (!sub.success)
      throw new InvalidSessionConfigurationError(
        `the recorded sub-workflow ${id} is invalid: ${sub.error.message}`,
        { cause: sub.error }
      );
    return sub.workflow;
  });
  const behaviour = recordedBehaviourOf(configuration);
  const tools = configuration.tools.map(recordedTool);
  return createKernelConfig({
    workflow: workflow.workflow,
    tools,
    policy: createAssessmentPolicy(
      policy.data,
      defaultToolCallRules,
      configuration.sandbox === void 0 ? {} : { sandbox: configuration.sandbox }
    ),
    router: createInferenceRouter({ profiles: models.data }),
    validators: createDefaultValidatorRegistry(),
    homeDirectory: configuration.homeDirectory,
    idempotentTools: configuration.idempotentTools,
    limits: withoutUndefined(configuration.limits),
    sha256: options.sha256 ?? sha256Hex,
    ...subWorkflows.length === 0 ? {} : { subWorkflows },
    ...configuration.checks === void 0 ? {} : { checks: configuration.checks },
    behaviour,
    ...configuration.instructions === void 0 ? {} : { instructions: configuration.instructions },
    ...configuration.hooks === void 0 ? {} : { hooks: configuration.hooks },
    ...configuration.knowledge === void 0 ? {} : { knowledge: configuration.knowledge },
    ...configuration.budgets === void 0 ? {} : { budgets: definedBudgets(configuration.budgets) },
    ...configuration.journalSummary === void 0 ? {} : { journalSummary: configuration.journalSummary }
  });
}

// src/core/kernel/queries/policy-what-if.ts
var codesOf = (assessment) => assessment.findings.map((finding2) => `${finding2.ruleId}/${finding2.code}`);
function whatIfPolicy(events, candidate) {
  const sessionId = events[0]?.sessionId ?? "";
  const created = events.find((event) => event.payload.type === "session_created")?.payload;
  const configured = events.find((event) => event.payload.type === "session_configured")?.payload;
  const empty = (skipped) => ({
    sessionId,
    assessed: 0,
    changes: [],
    inexact: [],
    skipped
  });
  if (created === void 0) return empty("no session_created event");
  if (configured?.configuration === void 0)
    return empty("no recorded configuration (recorded before session_configured existed)");
  let config;
  try {
    config = kernelConfigFromConfiguration(configured.configuration);
  } catch (error) {
    return empty(error.message);
  }
  const options = {
    flags: config.behaviour.flags,
    ...config.policy.sandbox === void 0 ? {} : { sandbox: config.policy.sandbox }
  };
  const recordedPolicy = createAssessmentPolicy(
    config.policy.policy,
    defaultToolCallRules,
    options
  );
  const candidatePolicy = createAssessmentPolicy(candidate, defaultToolCallRules, options);
  const roots = { workspaceRoot: created.workspace, homeDirectory: config.homeDirectory };
  const proposals = /* @__PURE__ */ new Map();
  const changes = [];
  const inexact = [];
  let assessed = 0;
  let state = toolSessionProjection.initial();
  for (const event of events) {
    const payload = event.payload;
    if (payload.type === "tool_call_proposed") {
      const proposal = payload;
      proposals.set(proposal.callId, proposal);
    } else if (payload.type === "tool_call_assessed") {
      const recorded = payload;
      const proposal = proposals.get(recorded.callId);
      const tool = config.tools.get(recorded.tool);
      if (proposal !== void 0 && tool !== void 0) {
        let args;
        try {
          args = JSON.parse(proposal.argsRaw);
        } catch {
          args = void 0;
        }
        const view = toolSessionView(state, roots);
        const call = { callId: recorded.callId, tool, args };
        const baseline = assessToolCall(recordedPolicy, view, call);
        const next = assessToolCall(candidatePolicy, view, call);
        assessed += 1;
        if (baseline.verdict !== recorded.verdict || baseline.tier !== recorded.tier)
          inexact.push(recorded.callId);
        if (next.verdict !== baseline.verdict || next.tier !== baseline.tier) {
          const before = new Set(codesOf(baseline));
          const after = new Set(codesOf(next));
          changes.push({
            sessionId,
            callId: recorded.callId,
            tool: recorded.tool,
            recorded: { verdict: baseline.verdict, tier: baseline.tier },
            candidate: { verdict: next.verdict, tier: next.tier },
            added: [...after].filter((code) => !before.has(code)),
            removed: [...before].filter((code) => !after.has(code))
          });
        }
      }
    }
    state = toolSessionProjection.evolve(state, event);
  }
  return { sessionId, assessed, changes, inexact, skipped: null };
}

// src/core/kernel/queries/provenance-facts.ts
var asRecord = (value) => typeof value === "object" && value !== null && !Array.isArray(value) ? value : {};
var asArray = (value) => Array.isArray(value) ? value : [];
var asString = (value, fallback = "") => typeof value === "string" ? value : fallback;
function workspaceRelative(path, workspace) {
  if (workspace !== "" && isPathInside(path, workspace) && path !== workspace)
    return path.slice(workspace.length + (workspace.endsWith("/") ? 0 : 1));
  return path;
}
function changeStateDigest(files, sha256) {
  return sha256(canonicalJson([...files].sort((a, b) => a.path < b.path ? -1 : 1)));
}
function provenanceFacts(events, sha256) {
  let session = { id: "", task: "", workspace: "", mode: "", status: "running" };
  let kernel = { version: 1, flags: [] };
  let configuration = {
    digest: "",
    workflow: { id: "", sha256: "" },
    policy: { sha256: "" },
    files: [],
    sandbox: "unstated",
    egressAllowlist: []
  };
  let instructions = [];
  let models = [];
  let advisoryNames = /* @__PURE__ */ new Set();
  const egress = /* @__PURE__ */ new Set();
  const modelsUsed = [];
  const assessed = /* @__PURE__ */ new Map();
  const decisions = /* @__PURE__ */ new Map();
  const grants = /* @__PURE__ */ new Map();
  const ran = /* @__PURE__ */ new Set();
  const state = /* @__PURE__ */ new Map();
  let lastChange = 0;
  const checks = [];
  for (const event of events) {
    const payload = event.payload;
    switch (payload.type) {
      case "session_created":
        session = {
          ...session,
          id: event.sessionId,
          task: payload.task,
          workspace: payload.workspace,
          mode: payload.mode
        };
        break;
      case "session_configured": {
        const recorded = payload.configuration;
        const workflow = asRecord(recorded.workflow);
        const policy = asRecord(recorded.policy);
        kernel = {
          version: typeof recorded.kernelVersion === "number" ? recorded.kernelVersion : 1,
          flags: asArray(recorded.flags).map((flag) => asString(flag))
        };
        for (const host of asArray(policy.egressAllowlist)) egress.add(asString(host));
        configuration = {
          digest: payload.digest,
          workflow: { id: asString(workflow.id), sha256: sha256(canonicalJson(workflow)) },
          policy: { sha256: sha256(canonicalJson(policy)) },
          files: (payload.files ?? []).map((file) => ({ path: file.path, sha256: file.sha256 })),
          sandbox: asString(recorded.sandbox, "unstated"),
          egressAllowlist: []
        };
        instructions = asArray(recorded.instructions).map((entry) => {
          const instruction = asRecord(entry);
          return {
            scope: asString(instruction.scope),
            path: asString(instruction.path),
            sha256: asString(instruction.sha256)
          };
        });
        models = asArray(recorded.models).map((entry) => {
          const { id, provider, model, ...parameters } = asRecord(entry);
          return {
            id: asString(id),
            provider: asString(provider),
            model: asString(model),
            parameters
          };
        });
        const checksConfig = asRecord(recorded.checks);
        advisoryNames = /* @__PURE__ */ new Set([
          ...asArray(checksConfig.advisory).map((name) => asString(name)),
          ...asArray(checksConfig.add).map(asRecord).filter((added) => added.advisory === true).map((added) => asString(added.name))
        ]);
        break;
      }
      case "egress_allowlist_changed":
        for (const host of payload.added) egress.add(host);
        for (const host of payload.removed) egress.delete(host);
        break;
      case "inference_requested":
        if (!modelsUsed.includes(payload.profileId)) modelsUsed.push(payload.profileId);
        break;
      case "tool_call_assessed":
        assessed.set(payload.callId, {
          tool: payload.tool,
          tier: payload.tier,
          verdict: payload.verdict,
          sequence: event.sequence
        });
        break;
      case "approval_granted":
        decisions.set(payload.callId, {
          decision: "granted",
          kind: payload.by.kind,
          id: payload.by.id,
          ...decisions.get(payload.callId)?.bypassed ? { bypassed: true } : {}
        });
        break;
      case "approval_denied":
        decisions.set(payload.callId, {
          decision: "denied",
          kind: payload.by.kind,
          id: payload.by.id
        });
        break;
      case "approval_bypassed":
        decisions.set(payload.callId, {
          decision: "granted",
          kind: "auto",
          id: payload.mode,
          bypassed: true
        });
        break;
      case "approval_grant_added":
        grants.set(payload.grantId, payload.by);
        break;
      case "tool_receipt":
        ran.add(payload.callId);
        for (const file of payload.files) {
          if (file.access === "read") continue;
          state.set(workspaceRelative(file.path, session.workspace), file.after);
          lastChange = event.sequence;
        }
        break;
      case "workspace_restored":
        for (const file of payload.files) {
          state.set(workspaceRelative(file.path, session.workspace), file.after);
          lastChange = event.sequence;
        }
        break;
      case "dod_check_ran":
        checks.push({
          name: payload.name,
          command: payload.command,
          stageId: payload.stageId,
          attempt: payload.attempt,
          outcome: payload.outcome,
          exitCode: payload.exitCode,
          passed: payload.outcome === "completed" && payload.exitCode === 0,
          advisory: advisoryNames.has(payload.name),
          sequence: event.sequence,
          tree: changeStateDigest(changedFiles(state), sha256)
        });
        break;
      case "workflow_completed":
        session = { ...session, status: "completed" };
        break;
      case "workflow_failed":
        session = { ...session, status: "failed" };
        break;
      case "workflow_cancelled":
        session = { ...session, status: "cancelled" };
        break;
      default:
        break;
    }
  }
  const approvals = [];
  for (const [callId, assessment] of assessed) {
    if (tierRank(assessment.tier) <= tierRank("T0") && assessment.verdict === "ALLOW") continue;
    const decision = decisions.get(callId);
    const how = decision === void 0 ? "none" : decision.kind === "human" ? "person" : decision.kind === "grant" ? "grant" : decision.kind === "timeout" ? "timeout" : decision.id === "policy" ? "policy" : "mode";
    const grantedBy = decision?.kind === "grant" ? grants.get(decision.id) : void 0;
    approvals.push({
      callId,
      tool: assessment.tool,
      tier: assessment.tier,
      verdict: assessment.verdict,
      decision: decision?.decision ?? "undecided",
      how,
      by: decision?.id ?? null,
      ...grantedBy === void 0 ? {} : { grantedBy },
      ran: ran.has(callId),
      sequence: assessment.sequence
    });
  }
  const files = changedFiles(state);
  return {
    session,
    kernel,
    configuration: { ...configuration, egressAllowlist: [...egress].sort() },
    instructions,
    models,
    modelsUsed,
    approvals,
    checks,
    changes: { files, sha256: changeStateDigest(files, sha256), lastSequence: lastChange }
  };
}
function changedFiles(state) {
  return [...state.entries()].map(([path, sha256]) => ({ path, sha256 })).sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
}

// src/core/kernel/queries/session-changes.ts
function recordedChanges(events, options = {}) {
  const proposals = /* @__PURE__ */ new Map();
  const changes = [];
  for (const event of events) {
    if (event.payload.type === "tool_call_proposed") {
      const proposal = event.payload;
      proposals.set(proposal.callId, proposal);
      continue;
    }
    if (event.payload.type === "workspace_restored") {
      const restored = event.payload;
      if (options.stageId === void 0 && restored.files.length > 0)
        changes.push({
          sequence: event.sequence,
          callId: `undo by ${restored.by}`,
          stageId: null,
          tool: "undo",
          command: null,
          outcome: "succeeded",
          files: restored.files
        });
      continue;
    }
    if (event.payload.type !== "tool_receipt") continue;
    const receipt = event.payload;
    const files = receipt.files.filter((file) => file.access !== "read");
    const stageId = proposals.get(receipt.callId)?.stageId ?? null;
    if (files.length === 0) continue;
    if (options.stageId !== void 0 && stageId !== options.stageId) continue;
    changes.push({
      sequence: event.sequence,
      callId: receipt.callId,
      stageId,
      tool: receipt.tool,
      command: receipt.tool === "exec" ? commandOf(receipt.args) : null,
      outcome: receipt.outcome,
      files
    });
  }
  return changes;
}
function commandOf(args) {
  if (typeof args.command === "string") return args.command;
  return Array.isArray(args.argv) ? JSON.stringify(args.argv) : null;
}
function planUndo(events, target = {}) {
  let toSequence = target.toSequence ?? 0;
  let checkpoint = null;
  const checkpoints = target.stageId === void 0 ? [] : events.filter(
    (event) => event.payload.type === "stage_checkpoint_recorded" && event.payload.stageId === target.stageId
  );
  if (checkpoints.length > 0) {
    const last2 = checkpoints.at(-1);
    toSequence = last2.sequence;
    const files = last2.payload.files;
    checkpoint = new Map(files.map((file) => [file.path, file]));
  } else if (target.stageId !== void 0) {
    const started = events.filter(
      (event) => event.payload.type === "stage_started" && event.payload.stageId === target.stageId
    );
    if (started.length === 0)
      return { ok: false, message: `stage ${target.stageId} never started in this session` };
    toSequence = started.at(-1).sequence;
  }
  const last = events.at(-1)?.sequence ?? 0;
  if (toSequence > last)
    return { ok: false, message: `the session has no event #${toSequence} (its last is #${last})` };
  const first = /* @__PURE__ */ new Map();
  const latest = /* @__PURE__ */ new Map();
  for (const change of recordedChanges(events)) {
    if (change.sequence <= toSequence) continue;
    for (const file of change.files) {
      if (!first.has(file.path)) first.set(file.path, file);
      latest.set(file.path, file);
    }
  }
  const steps = [];
  for (const [path, earliest] of [...first].sort(([a], [b]) => a < b ? -1 : 1)) {
    const now = latest.get(path);
    const known = checkpoint?.get(path);
    const restore = known === void 0 ? earliest.before : known.sha256;
    const mode = known === void 0 ? earliest.modeBefore ?? null : known.mode;
    if (restore === now.after && mode === (now.modeAfter ?? null)) continue;
    steps.push({ path, restore, mode, expected: now.after });
  }
  return { ok: true, toSequence, stageId: target.stageId ?? null, steps };
}

// src/core/kernel/features/budget/budget.ts
var INITIAL_BUDGET = {
  startedAt: null,
  pending: {},
  used: {},
  raised: {},
  stop: null
};
function evolveBudget(state, event) {
  const payload = event.payload;
  switch (payload.type) {
    case "session_created":
      return { ...state, startedAt: event.timestamp };
    case "inference_requested":
    case "journal_summary_requested":
      return { ...state, pending: { ...state.pending, [payload.requestId]: payload.profileId } };
    case "inference_completed": {
      const profileId = state.pending[payload.requestId];
      if (profileId === void 0) return state;
      const { [payload.requestId]: _done, ...pending } = state.pending;
      const before = state.used[profileId] ?? { input: 0, output: 0 };
      const usage = payload.result.usage;
      const cached = (before.cached ?? 0) + (usage.cachedInputTokens ?? 0);
      return {
        ...state,
        pending,
        used: {
          ...state.used,
          [profileId]: {
            input: before.input + usage.inputTokens,
            output: before.output + usage.outputTokens,
            ...cached === 0 ? {} : { cached }
          }
        }
      };
    }
    case "budget_exhausted":
      return { ...state, stop: { budget: payload.budget, limit: payload.limit } };
    case "budget_raised":
      return {
        ...state,
        raised: { ...state.raised, [payload.budget]: payload.limit },
        stop: state.stop?.budget === payload.budget ? null : state.stop
      };
    default:
      return state;
  }
}
function tokenCost(tokens, prices, cachedInputPriced) {
  const cached = cachedInputPriced ? Math.min(tokens.cached ?? 0, tokens.input) : 0;
  const cachedPrice = prices.cachedInputPerMillion ?? prices.inputPerMillion;
  return ((tokens.input - cached) * prices.inputPerMillion + cached * cachedPrice + tokens.output * prices.outputPerMillion) / 1e6;
}
function costOf(used, profiles, cachedInputPriced = false) {
  let cost = 0;
  for (const [profileId, tokens] of Object.entries(used)) {
    const prices = profiles.find((profile) => profile.id === profileId)?.prices;
    if (prices === void 0) continue;
    cost += tokenCost(tokens, prices, cachedInputPriced);
  }
  return cost;
}
function reachedBudget(config, budget, now) {
  const budgets = config.budgets;
  if (budgets === void 0) return null;
  const limitOf = (kind, configured) => budget.raised[kind] ?? configured;
  const tokens = Object.values(budget.used).reduce(
    (sum, used) => sum + used.input + used.output,
    0
  );
  const checks = [
    ["tokens", limitOf("tokens", budgets.maxTokens), () => tokens],
    [
      "cost",
      limitOf("cost", budgets.maxCostUsd),
      () => costOf(
        budget.used,
        config.router.profiles,
        config.behaviour.flags.has(CACHED_INPUT_PRICES.name)
      )
    ],
    [
      "duration",
      limitOf("duration", budgets.maxDurationMs),
      () => budget.startedAt === null || now === null ? 0 : Math.max(0, Date.parse(now) - Date.parse(budget.startedAt))
    ]
  ];
  for (const [kind, limit, used] of checks) {
    if (limit === void 0) continue;
    const spent = used();
    if (spent >= limit) return { budget: kind, limit, used: spent };
  }
  return null;
}
var UNIT = {
  tokens: (value) => `${Math.round(value)} tokens`,
  cost: (value) => `$${value.toFixed(4)}`,
  duration: (value) => `${Math.round(value / 1e3)} s`
};
function budgetMessage(reached) {
  const unit = UNIT[reached.budget];
  return `the session reached its ${reached.budget} budget (${unit(reached.used)} of ${unit(reached.limit)})`;
}

// src/core/kernel/queries/session-spend.ts
var sessionSpendProjection = {
  initial: () => ({ budget: INITIAL_BUDGET, profiles: [], cachedInputPriced: false }),
  evolve(state, event) {
    const payload = event.payload;
    const budget = evolveBudget(state.budget, event);
    if (payload.type !== "session_configured") return { ...state, budget };
    return {
      budget,
      profiles: recordedProfiles(payload),
      cachedInputPriced: recordsCachedInputPrices(payload)
    };
  }
};
function spendOf(state) {
  const tokens = { input: 0, output: 0 };
  for (const used of Object.values(state.budget.used)) {
    tokens.input += used.input;
    tokens.output += used.output;
  }
  const priced = state.profiles.some((profile) => profile.prices !== void 0);
  return {
    tokens,
    costUsd: priced ? costOf(state.budget.used, state.profiles, state.cachedInputPriced) : null
  };
}
function sessionSpend(events) {
  let state = sessionSpendProjection.initial();
  for (const event of events) state = sessionSpendProjection.evolve(state, event);
  return spendOf(state);
}
function recordsCachedInputPrices(payload) {
  const flags = payload.configuration?.flags;
  return Array.isArray(flags) && flags.includes(CACHED_INPUT_PRICES.name);
}
function recordedProfiles(payload) {
  const models = payload.configuration?.models;
  const parsed = ModelProfileListSchema.safeParse(models);
  return parsed.success ? parsed.data : [];
}

// src/core/kernel/queries/session-cost.ts
function sessionCost(events) {
  let profiles = [];
  let cachedPriced = false;
  const requests = /* @__PURE__ */ new Map();
  const byStage = /* @__PURE__ */ new Map();
  const byRequest = /* @__PURE__ */ new Map();
  let total = 0;
  for (const event of events) {
    const payload = event.payload;
    if (payload.type === "session_configured") {
      profiles = recordedProfiles(payload);
      cachedPriced = recordsCachedInputPrices(payload);
    } else if (payload.type === "inference_requested" || payload.type === "journal_summary_requested") {
      requests.set(payload.requestId, { profileId: payload.profileId, stageId: payload.stageId });
    } else if (payload.type === "inference_completed") {
      const request = requests.get(payload.requestId);
      const prices = profiles.find((profile) => profile.id === request?.profileId)?.prices;
      if (request === void 0 || prices === void 0) continue;
      const usage = payload.result.usage;
      const cost = tokenCost(
        {
          input: usage.inputTokens,
          output: usage.outputTokens,
          cached: usage.cachedInputTokens ?? 0
        },
        prices,
        cachedPriced
      );
      byRequest.set(payload.requestId, cost);
      byStage.set(request.stageId, (byStage.get(request.stageId) ?? 0) + cost);
      total += cost;
    }
  }
  return {
    priced: profiles.some((profile) => profile.prices !== void 0),
    total,
    byStage,
    byRequest
  };
}

// src/core/kernel/runner/append-decided.ts
var UnknownSessionError = class extends CorrexError {
  constructor(sessionId) {
    super("session_not_found", `no session ${sessionId} in this store`);
  }
};
async function appendDecided(context, events, sessionId, decide2) {
  const eventIds = [];
  for (let attempt = 1; ; attempt++) {
    const { sequence, payloads } = await decide2();
    if (sequence === 0) throw new UnknownSessionError(sessionId);
    if (payloads.length === 0) return [];
    const timestamp = context.clock.now();
    const batch = payloads.map((payload, index) => ({
      eventId: eventIds[index] ??= context.ids.next(),
      sessionId,
      timestamp,
      payload
    }));
    try {
      return await events.appendAll(batch, { expectedSequence: sequence });
    } catch (error) {
      if (!(error instanceof ConcurrencyError) || attempt >= 5) throw error;
    }
  }
}
async function appendToSession(context, events, sessionId, payload) {
  const [stored] = await appendDecided(context, events, sessionId, async () => ({
    sequence: await events.lastSequence(sessionId),
    payloads: [payload]
  }));
  return stored;
}

// src/core/events/replay.ts
async function replay(store, projection, sessionId, options = {}) {
  let state = options.from?.state ?? projection.initial();
  let sequence = options.from?.sequence ?? 0;
  let fromSnapshot = false;
  if (!options.from && options.snapshots) {
    const snapshot = await options.snapshots.load(sessionId, projection.name);
    if (snapshot && snapshot.projectionVersion === projection.version) {
      state = snapshot.state;
      sequence = snapshot.sequence;
      fromSnapshot = true;
    }
  }
  for await (const event of store.stream(sessionId, { afterSequence: sequence })) {
    state = projection.evolve(state, event);
    sequence = event.sequence;
  }
  return { state, sequence, fromSnapshot };
}

// src/core/kernel/decider/kernel-errors.ts
var KernelCommandError = class extends CorrexError {
  constructor(code, message) {
    super(code, message);
  }
};
var KernelInvariantError = class extends CorrexError {
  constructor(message) {
    super("kernel_invariant", message);
  }
};

// src/core/kernel/features/journal/summary-request-id.ts
function summaryRequestId(run, throughSequence) {
  return `${run.stageId}.${run.attempt}.summary.${throughSequence}`;
}
function isSummaryRequestId(requestId) {
  return /^[^.]+\.\d+\.summary\.\d+$/.test(requestId);
}

// src/core/kernel/decider/step.ts
var IDLE = { kind: "idle" };
function emit(...events) {
  return { kind: "emit", events };
}
function awaitEffect(effect) {
  return { kind: "await", effect };
}

// src/core/kernel/features/budget/budget-feature.ts
var budgetFeature = {
  name: "budget",
  flag: SESSION_BUDGETS,
  events: ["budget_exhausted", "budget_raised"],
  state: { initial: INITIAL_BUDGET, evolve: evolveBudget },
  hooks: {
    beforeModelCall({ config, slice, mode, lastTimestamp }, run) {
      const reached = reachedBudget(config, slice, lastTimestamp);
      if (reached === null) return null;
      if (slice.stop === null) return emit({ type: "budget_exhausted", ...reached });
      if (mode === "prompt") return IDLE;
      return emit({
        type: "workflow_failed",
        category: "budget",
        message: budgetMessage(reached),
        stageId: run.stageId
      });
    }
  }
};

// src/core/kernel/features/stage-checkpoints/stage-checkpoint.ts
var INITIAL_CHECKPOINTS = {
  workspace: {},
  checkpoints: [],
  redirectedSinceStart: false
};
function evolveCheckpoints(state, event) {
  const payload = event.payload;
  switch (payload.type) {
    case "tool_receipt":
    case "workspace_restored": {
      const files = payload.files.filter((file) => file.access !== "read");
      if (files.length === 0) return state;
      const workspace = { ...state.workspace };
      for (const file of files)
        workspace[file.path] = { sha256: file.after, mode: file.modeAfter ?? null };
      return { ...state, workspace };
    }
    case "stage_checkpoint_recorded":
      return {
        ...state,
        checkpoints: [
          ...state.checkpoints,
          {
            stageId: payload.stageId,
            attempt: payload.attempt,
            sequence: event.sequence,
            files: Object.fromEntries(
              payload.files.map((file) => [file.path, { sha256: file.sha256, mode: file.mode }])
            )
          }
        ]
      };
    case "stage_redirected":
      return { ...state, redirectedSinceStart: true };
    case "stage_started":
      return state.redirectedSinceStart ? { ...state, redirectedSinceStart: false } : state;
    default:
      return state;
  }
}
function checkpointBeforeStart(state, next, throughSequence) {
  const files = Object.keys(state.workspace).sort().map((path) => ({ path, ...state.workspace[path] }));
  const checkpoint = {
    type: "stage_checkpoint_recorded",
    stageId: next.stageId,
    attempt: next.attempt,
    throughSequence,
    files
  };
  const earlier = state.checkpoints.findLast((recorded) => recorded.stageId === next.stageId);
  if (earlier === void 0) return [checkpoint];
  const changedSince = files.filter((file) => {
    const then = earlier.files[file.path];
    return then === void 0 || then.sha256 !== file.sha256 || then.mode !== file.mode;
  }).map((file) => file.path);
  return [
    checkpoint,
    {
      type: "stage_start_reconciled",
      stageId: next.stageId,
      attempt: next.attempt,
      reason: state.redirectedSinceStart ? "redirect" : next.attempt > 1 ? "retry" : "rework",
      basis: "as_left",
      checkpointSequence: earlier.sequence,
      changedSince
    }
  ];
}

// src/core/kernel/features/stage-checkpoints/stage-checkpoints-feature.ts
var stageCheckpointsFeature = {
  name: "checkpoints",
  flag: STAGE_CHECKPOINTS,
  events: ["stage_checkpoint_recorded", "stage_start_reconciled"],
  state: { initial: INITIAL_CHECKPOINTS, evolve: evolveCheckpoints },
  hooks: {
    beforeStage: ({ slice, lastSequence }, next) => checkpointBeforeStart(slice, next, lastSequence)
  }
};

// src/core/kernel/features/critique-outcomes/critique-step.ts
function critiqueEvent(critique, accepted) {
  const { stage, run, artifactHash } = accepted;
  const content = accepted.content;
  if (stage.role !== "reviewer") return null;
  const open = critique.findings.filter(
    (f) => !critique.correlated.includes(f.id) && f.artifactHash !== artifactHash
  );
  if (open.length > 0)
    return {
      type: "critique_outcomes_correlated",
      stageId: run.stageId,
      attempt: run.attempt,
      outcomes: open.map((finding2) => {
        const writes = critique.writes.filter((w) => w.sequence > finding2.sequence);
        const changed = finding2.paths.length === 0 ? writes.length > 0 : finding2.paths.some((path) => writes.some((w) => w.path === path));
        const runs = accepted.checkRuns.filter((r) => r.sequence > finding2.sequence);
        return {
          id: finding2.id,
          changed,
          checksPassed: runs.length === 0 ? null : runs.every((r) => r.passed)
        };
      })
    };
  const record = content;
  if (record === null || typeof record !== "object" || record.verdict !== "rework") return null;
  if (critique.reviewed.includes(artifactHash)) return null;
  const notes = Array.isArray(record.notes) ? record.notes.filter((n) => typeof n === "string") : [];
  const workspace = accepted.workspace ?? "/";
  return {
    type: "review_findings_recorded",
    stageId: run.stageId,
    attempt: run.attempt,
    artifactHash,
    findings: notes.map((note, index) => ({
      // Numbered across the session: a stage's later visit restarts its attempts, not its findings.
      id: `${run.stageId}.${critique.findings.length + index + 1}`,
      note,
      paths: extractBriefReferences(note).filter((r) => r.kind === "path").map(
        (r) => normalizeAbsolute(r.value.startsWith("/") ? r.value : `${workspace}/${r.value}`)
      )
    }))
  };
}

// src/core/kernel/features/critique-outcomes/critique-state.ts
var INITIAL_CRITIQUE = {
  findings: [],
  correlated: [],
  reviewed: [],
  writes: []
};
function evolveCritique(critique, event) {
  const payload = event.payload;
  switch (payload.type) {
    case "review_findings_recorded":
      return {
        ...critique,
        reviewed: [...critique.reviewed, payload.artifactHash],
        findings: [
          ...critique.findings,
          ...payload.findings.map((f) => ({
            id: f.id,
            paths: f.paths,
            sequence: event.sequence,
            artifactHash: payload.artifactHash
          }))
        ]
      };
    case "critique_outcomes_correlated":
      return {
        ...critique,
        correlated: [...critique.correlated, ...payload.outcomes.map((o) => o.id)]
      };
    case "tool_receipt": {
      if (payload.outcome !== "succeeded") return critique;
      const writes = payload.files.filter((file) => file.access === "write").map((file) => ({ path: file.path, sequence: event.sequence }));
      return writes.length === 0 ? critique : { ...critique, writes: [...critique.writes, ...writes] };
    }
    default:
      return critique;
  }
}

// src/core/kernel/features/critique-outcomes/critique-feature.ts
var critiqueFeature = {
  name: "critique",
  flag: CRITIQUE_OUTCOMES,
  events: ["review_findings_recorded", "critique_outcomes_correlated"],
  state: { initial: INITIAL_CRITIQUE, evolve: evolveCritique },
  hooks: {
    acceptedArtifact({ slice }, accepted) {
      const event = critiqueEvent(slice, accepted);
      return event === null ? null : emit(event);
    }
  }
};

// src/core/kernel/features/kernel-features.ts
var KERNEL_FEATURES = [
  budgetFeature,
  stageCheckpointsFeature,
  critiqueFeature
];
function featureOn(config, feature) {
  return feature.flag === null || config.behaviour.flags.has(feature.flag.name);
}
function initialFeatures() {
  return Object.fromEntries(
    KERNEL_FEATURES.map((feature) => [feature.name, feature.state.initial])
  );
}
function evolveFeatures(features, event) {
  let next = null;
  for (const feature of KERNEL_FEATURES) {
    const slice = features[feature.name];
    const evolved = feature.state.evolve(slice, event);
    if (evolved !== slice) {
      next ??= { ...features };
      next[feature.name] = evolved;
    }
  }
  return next === null ? features : next;
}
function viewOf(core, slice) {
  return {
    config: core.config,
    slice,
    mode: core.mode,
    lastTimestamp: core.lastTimestamp,
    lastSequence: core.lastSequence
  };
}
function eventsBeforeStage(core, next) {
  const events = [];
  for (const feature of KERNEL_FEATURES) {
    const hook = feature.hooks.beforeStage;
    if (hook === void 0 || !featureOn(core.config, feature)) continue;
    events.push(...hook(viewOf(core, core.features[feature.name]), next));
  }
  return events;
}
function beforeModelCall(core, run) {
  for (const feature of KERNEL_FEATURES) {
    const hook = feature.hooks.beforeModelCall;
    if (hook === void 0 || !featureOn(core.config, feature)) continue;
    const step = hook(viewOf(core, core.features[feature.name]), run);
    if (step !== null) return step;
  }
  return null;
}
function afterAcceptedArtifact(core, accepted) {
  for (const feature of KERNEL_FEATURES) {
    const hook = feature.hooks.acceptedArtifact;
    if (hook === void 0 || !featureOn(core.config, feature)) continue;
    const step = hook(viewOf(core, core.features[feature.name]), accepted);
    if (step !== null) return step;
  }
  return null;
}

// src/core/kernel/decider/artifact-content.ts
import { z as z13 } from "zod";

// src/core/inference/tool-call-arguments.ts
var MAX_ARGUMENT_DEPTH = 252;
function safeParseToolArguments(raw) {
  if (raw.trim() === "") return { ok: true, args: {} };
  const depth = jsonNestingDepth(raw);
  if (depth > MAX_ARGUMENT_DEPTH) {
    return {
      ok: false,
      error: `arguments are nested ${depth} levels deep; at most ${MAX_ARGUMENT_DEPTH} are accepted`
    };
  }
  let value;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return { ok: false, error: `arguments are not valid JSON: ${error.message}` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, error: "arguments must be a JSON object" };
  }
  const problem = nonCanonicalPart(value);
  if (problem !== void 0) return { ok: false, error: `arguments ${problem}` };
  return { ok: true, args: value };
}
function jsonNestingDepth(text) {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === 92) index++;
      else if (char === 34) inString = false;
    } else if (char === 34) inString = true;
    else if (char === 123 || char === 91) deepest = Math.max(deepest, ++depth);
    else if (char === 125 || char === 93) depth--;
  }
  return deepest;
}
var LONE_SURROGATE2 = new RegExp("\\p{Surrogate}", "u");
function nonCanonicalPart(root) {
  const pending = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === "number" && !Number.isFinite(value)) {
      return "hold a number JSON cannot represent (it overflows to Infinity)";
    }
    if (typeof value === "string" && LONE_SURROGATE2.test(value)) {
      return "hold a string with a lone surrogate (not Unicode text)";
    }
    if (typeof value === "object" && value !== null) {
      for (const [key, member] of Object.entries(value)) {
        if (LONE_SURROGATE2.test(key)) return "hold a key with a lone surrogate (not Unicode text)";
        pending.push(member);
      }
    }
  }
  return void 0;
}
var MAX_KEPT_REJECTED_ARGS_CHARS = 16 * 1024;
var REJECTED_ARGS_HEAD_CHARS = 2 * 1024;
function createToolCallProposal(callId, name, argsRaw, sha256 = sha256Hex) {
  const parsed = safeParseToolArguments(argsRaw);
  if (parsed.ok) return { callId, name, argsRaw, args: parsed.args };
  const head = wellFormedHead(argsRaw, REJECTED_ARGS_HEAD_CHARS);
  if (argsRaw.length <= MAX_KEPT_REJECTED_ARGS_CHARS || safeParseToolArguments(head).ok)
    return { callId, name, argsRaw, argsError: parsed.error };
  return {
    callId,
    name,
    argsRaw: head,
    argsError: `${parsed.error} (${argsRaw.length} characters; only the first ${REJECTED_ARGS_HEAD_CHARS} are kept)`,
    argsLength: argsRaw.length,
    argsSha256: sha256(argsRaw)
  };
}
function wellFormedHead(text, length) {
  const head = text.slice(0, length);
  const last = head.charCodeAt(head.length - 1);
  return last >= 55296 && last <= 56319 ? head.slice(0, -1) : head;
}

// src/core/kernel/decider/artifact-content.ts
var MAX_ANSWER_DEPTH = 255;
function answerBoundsProblem(text) {
  const depth = jsonNestingDepth(answerBody(text));
  return depth > MAX_ANSWER_DEPTH ? `the answer is nested ${depth} levels deep; at most ${MAX_ANSWER_DEPTH} are accepted` : void 0;
}
function answerBody(text) {
  const trimmed = text.trim();
  const fenced = /^```(?:json)?\s*\n([\s\S]*?)\n?```$/.exec(trimmed);
  return fenced?.[1] ?? trimmed;
}
function artifactContentOf(text) {
  const body = answerBody(text);
  if (jsonNestingDepth(body) > MAX_ANSWER_DEPTH) return text;
  try {
    return JSON.parse(body);
  } catch {
    return text;
  }
}
var JsonContentSchema = z13.json();
function artifactContentFor(text) {
  const parsed = artifactContentOf(text);
  return JsonContentSchema.safeParse(parsed).success ? parsed : text;
}
function answerTextOf(result2) {
  const [finishing] = result2.toolCalls;
  return finishing === void 0 ? result2.text : finishing.argsRaw;
}
function recordedArtifact(sessionId, proposed, answerText) {
  return {
    hash: proposed.hash,
    kind: proposed.kind,
    sessionId,
    stageId: proposed.stageId,
    content: artifactContentFor(answerText),
    lineage: { inferenceEventId: proposed.inferenceEventId, parents: [...proposed.parents] }
  };
}

// src/core/kernel/decider/input-events.ts
function eventOrigin(payload) {
  const definition = correxEventCatalog.definitions.get(payload.type);
  if (definition === void 0) return "command";
  return originOf(definition, payload);
}
function isInputEvent(payload) {
  return eventOrigin(payload) !== "decision";
}

// src/core/kernel/decider/stage-failed.ts
function stageFailed(run, category, message) {
  return { type: "stage_failed", stageId: run.stageId, attempt: run.attempt, category, message };
}

// src/core/kernel/decider/reference-strikes.ts
var REFERENCE_STRIKES = 3;
var RULE = "reference-exists";
function missingReferences(payload, observations) {
  const blocked = payload.findings.some(
    (finding2) => finding2.ruleId === RULE && finding2.severity === "block"
  );
  if (!blocked || payload.verdict !== "BLOCK") return [];
  const paths = payload.targets.filter(
    (target) => !target.write && layeredGet(observations, target.resolved)?.kind === "missing"
  ).map((target) => target.resolved);
  return [...new Set(paths)];
}
function referenceStrikeFailure(run) {
  const struck = Object.entries(run.referenceBlocks).find(
    ([, count2]) => count2 >= REFERENCE_STRIKES
  );
  if (struck === void 0) return null;
  return stageFailed(
    run,
    "workspace_precondition",
    `stage ${run.stageId} referred ${struck[1]} times to ${struck[0]}, which does not exist: the workspace lacks a prerequisite the stage needs`
  );
}
function canCreateFiles(stage, tools) {
  return stage.allowedTools.some((name) => {
    const tool = tools.get(name);
    return tool !== void 0 && hasCapability(tool, "WRITES_FILES");
  });
}

// src/core/kernel/decider/recorded-changes.ts
var TOOLS = /* @__PURE__ */ new Set(["write_file", "edit_file"]);
function isFileChangeTool(tool) {
  return TOOLS.has(tool);
}
var MAX_LINES_PER_CHANGE = 60;
var MAX_LINES = 300;
function recordedChangeDiff(changes) {
  const lines = [];
  for (const change of changes) {
    const { path, search, replace, content } = change.args;
    if (typeof path !== "string") continue;
    const body = change.tool === "edit_file" && typeof search === "string" && typeof replace === "string" ? [`--- ${path}`, `+++ ${path}`, ...marked(search, "-"), ...marked(replace, "+")] : typeof content === "string" ? [`+++ ${path} (whole file)`, ...marked(content, "+")] : [];
    const clipped = body.length <= MAX_LINES_PER_CHANGE ? body : [
      ...body.slice(0, MAX_LINES_PER_CHANGE),
      `\u2026 ${body.length - MAX_LINES_PER_CHANGE} more lines`
    ];
    lines.push(`(event #${change.sequence})`, ...clipped);
    if (lines.length >= MAX_LINES)
      return [...lines.slice(0, MAX_LINES), "\u2026 more changes in the log"];
  }
  return lines;
}
function marked(text, mark) {
  const body = text.endsWith("\n") ? text.slice(0, -1) : text;
  return body.split("\n").map((line) => `${mark}${line}`);
}

// src/core/validation/validate-artifact.ts
function validateArtifact(request) {
  const { workflow, registry, context } = request;
  const artifact = request.canonical === true ? { ...request.artifact, content: canonicalContent(request.artifact.content) } : request.artifact;
  const stage = workflow.stages.get(artifact.stageId);
  const fail = (phase, validator, message) => ({
    type: "validation_failed",
    hash: artifact.hash,
    stageId: artifact.stageId,
    phase,
    validator,
    message
  });
  const routing = checkRouting(workflow, context, artifact, stage).map(
    (message) => fail("routing", "routing", message)
  );
  if (routing.length > 0 || !stage) return { accepted: false, phase: "routing", events: routing };
  const schema = checkSchema(stage, artifact, request.canonical === true).map(
    (message) => fail("schema", "schema", message)
  );
  if (schema.length > 0) return { accepted: false, phase: "schema", events: schema };
  const input = deepFreeze(
    structuredClone({ artifact, stage: withoutSchema(stage), context })
  );
  const semantic = [];
  for (const validator of registry.validatorsFor(artifact.kind)) {
    for (const message of runValidator(validator.validate.bind(validator), input)) {
      semantic.push(fail("semantic", validator.name, message));
    }
  }
  if (semantic.length > 0) return { accepted: false, phase: "semantic", events: semantic };
  if (stage.requiresApproval && !context.grantedApprovals.includes(artifactApprovalKey(artifact.hash))) {
    return {
      accepted: false,
      phase: "approval",
      events: [
        fail(
          "approval",
          "approval",
          `stage \`${stage.id}\` requires approval of its artifact; nothing to change, it waits for \`${artifactApprovalKey(artifact.hash)}\` to be granted`
        )
      ]
    };
  }
  return {
    accepted: true,
    events: [
      {
        type: "artifact_accepted",
        hash: artifact.hash,
        kind: artifact.kind,
        stageId: artifact.stageId
      }
    ]
  };
}
function checkRouting(workflow, context, artifact, stage) {
  const problems = [];
  if (artifact.sessionId !== context.sessionId) {
    problems.push(
      `the artifact belongs to session \`${artifact.sessionId}\`, not \`${context.sessionId}\``
    );
  }
  if (!hasValidHash(artifact)) problems.push("the artifact hash does not match its content");
  if (!stage) {
    problems.push(`workflow \`${workflow.id}\` has no stage \`${artifact.stageId}\``);
    return problems;
  }
  if (!context.activeStage) {
    problems.push(`no stage is running, so stage \`${stage.id}\` cannot submit an artifact now`);
  } else if (context.activeStage.stageId !== stage.id) {
    problems.push(
      `the artifact is for stage \`${stage.id}\` but the running stage is \`${context.activeStage.stageId}\``
    );
  }
  if (artifact.kind !== stage.artifact.kind) {
    problems.push(
      `stage \`${stage.id}\` produces \`${stage.artifact.kind}\` artifacts, not \`${artifact.kind}\``
    );
  }
  const accepted = new Set(context.acceptedArtifacts.map((ref) => ref.hash));
  for (const parent of artifact.lineage.parents) {
    if (!accepted.has(parent)) {
      problems.push(`lineage names ${parent}, which is not an accepted artifact of this session`);
    }
  }
  return problems;
}
function canonicalContent(content) {
  return JSON.parse(canonicalJson(content));
}
function checkSchema(stage, artifact, canonical) {
  const parsed = stage.artifactSchema.safeParse(artifact.content);
  const problems = parsed.success ? [] : parsed.error.issues.map((issue) => {
    const path = issue.path.filter((key) => typeof key !== "symbol");
    return `${path.length ? formatPath(path) : "content"}: ${issue.message}`;
  });
  if (stage.verdicts.length > 0) {
    const verdict = artifact.content?.verdict;
    if (typeof verdict !== "string" || !stage.verdicts.includes(verdict)) {
      problems.push(`verdict: expected one of ${stage.verdicts.join(" | ")}`);
    }
  }
  if (problems.length === 0) return [];
  if (canonical) problems.sort((a, b) => a < b ? -1 : a > b ? 1 : 0);
  return [
    `the \`${stage.artifact.kind}\` artifact does not match its schema: ${problems.join("; ")}`
  ];
}
function runValidator(validate, input) {
  try {
    const messages = validate(input);
    if (!Array.isArray(messages) || !messages.every((m) => typeof m === "string" && m.length > 0)) {
      return [
        "the validator returned something other than a list of messages, so the artifact is not accepted"
      ];
    }
    return messages;
  } catch (error) {
    return [
      `the validator failed (${error.message ?? String(error)}), so the artifact is not accepted`
    ];
  }
}
function withoutSchema(stage) {
  const { artifactSchema: _schema, ...rest } = stage;
  return rest;
}
function deepFreeze(value) {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const member of Object.values(value)) deepFreeze(member);
  }
  return value;
}

// src/core/kernel/decider/artifact-approval-id.ts
var ARTIFACT_APPROVAL_TOOL = "artifact";
function isArtifactApproval(callId) {
  return callId.startsWith(artifactApprovalKey(""));
}

// src/core/kernel/decider/call-fingerprint.ts
function callFingerprint(tool, args, argsRaw) {
  return sha256Hex(`${tool}
${args === null ? `raw:${argsRaw}` : canonicalJson(args)}`);
}

// src/core/kernel/features/subagents/subagent-run.ts
function startedSubagent(payload, eventId) {
  return {
    childSessionId: payload.childSessionId,
    workflowId: payload.workflowId,
    task: payload.task,
    eventId,
    status: "running",
    failure: null
  };
}
function endedSubagent(subagent, payload) {
  const child = subagent.childSessionId;
  const failure = payload.status === "cancelled" ? payload.failure ?? {
    category: "policy",
    message: `sub-session ${child} was cancelled`
  } : payload.status === "failed" ? payload.failure ?? {
    category: "validation",
    message: `sub-session ${child} failed`
  } : payload.artifact === void 0 ? {
    category: "validation",
    message: `sub-session ${child} completed without an accepted artifact`
  } : null;
  const ended = { ...subagent, status: payload.status, failure };
  if (failure !== null || payload.artifact === void 0) return { subagent: ended, answer: null };
  return {
    subagent: ended,
    answer: {
      text: canonicalJson(payload.artifact.content),
      toolCalls: [],
      finishReason: "stop",
      usage: { inputTokens: 0, outputTokens: 0 },
      modelId: `subagent:${subagent.workflowId}`,
      latencyMs: 0
    }
  };
}

// src/core/context/tool-args-hint.ts
function toolArgsHintCandidate(hint) {
  const lines = [
    `Your last call to tool "${hint.tool}" failed: ${hint.error}`,
    ...hint.argsRaw === void 0 ? [] : [`The arguments you sent were: ${hint.argsRaw}`],
    `Call it again with arguments matching this JSON Schema:`,
    JSON.stringify(hint.argsSchema, null, 2)
  ];
  return {
    id: `tool-args-hint:${hint.eventId}`,
    layer: "L1",
    kind: "tool_args_hint",
    source: { kind: "event", id: hint.eventId },
    content: lines.join("\n"),
    order: hint.sequence
  };
}

// src/core/kernel/features/canonical-output/canonical-model-output.ts
function canonicalValue(value) {
  try {
    return JSON.parse(canonicalJson(value));
  } catch {
    return value;
  }
}
function canonicalModelText(text) {
  if (answerBoundsProblem(text) !== void 0) return text;
  const content = artifactContentOf(text);
  if (typeof content !== "object" || content === null) return text;
  try {
    return canonicalJson(content);
  } catch {
    return text;
  }
}
function inCanonicalOrder(problems) {
  return [...problems].sort((a, b) => a < b ? -1 : a > b ? 1 : 0);
}

// src/core/kernel/decider/transcript.ts
function shownArgs(call, canonical) {
  return canonical && call.args !== void 0 ? canonicalJson(call.args) : call.argsRaw;
}
function transcriptEntryOf(event, canonical = false) {
  const payload = event.payload;
  const at2 = { eventId: event.eventId, sequence: event.sequence };
  switch (payload.type) {
    case "inference_completed": {
      const calls = payload.result.toolCalls.map(
        (call, index) => `Tool call ${index + 1}: ${call.name} ${shownArgs(call, canonical)}`
      );
      const text = canonical ? canonicalModelText(payload.result.text) : payload.result.text;
      const content = [text, ...calls].filter((line) => line !== "").join("\n");
      if (content === "") return null;
      const entry = { kind: "turn", role: "assistant", content, ...at2 };
      if (payload.result.toolCalls.length === 0) return entry;
      const native = {
        type: "calls",
        text,
        calls: payload.result.toolCalls.map((call, index) => ({
          callId: `${payload.requestId}.${index + 1}`,
          name: call.name,
          argsRaw: shownArgs(call, canonical)
        }))
      };
      return { ...entry, native };
    }
    case "tool_call_rejected":
      if (payload.reason === "malformed_args" && payload.argsSchema !== null) {
        const hint = toolArgsHintCandidate({
          tool: payload.tool,
          error: payload.message,
          // Sorted keys: the schema reads back from a store in canonical order, and a pack must
          // not depend on whether the event was just decided or read back.
          argsSchema: JSON.parse(canonicalJson(payload.argsSchema)),
          ...at2
        });
        return {
          kind: "tool_args_hint",
          role: "user",
          content: hint.content,
          ...at2,
          native: { type: "result", callId: payload.callId }
        };
      }
      return result(
        `Call ${payload.callId} to ${payload.tool} was refused: ${payload.message}`,
        payload.callId,
        at2
      );
    case "approval_denied":
      if (isArtifactApproval(payload.callId)) return null;
      return result(`Call ${payload.callId} was not run: ${payload.reason}`, payload.callId, at2);
    case "tool_receipt": {
      const exit = payload.exitCode === null ? "" : ` (exit code ${payload.exitCode})`;
      const lines = [
        `Result of call ${payload.callId} (${payload.tool}): ${payload.outcome}${exit}`,
        ...payload.error === null ? [] : [`Error: ${payload.error}`],
        payload.output
      ];
      const subjects = pathArguments(payload.args);
      return {
        ...result(lines.join("\n"), payload.callId, at2),
        ...subjects.length === 0 ? {} : { subjects }
      };
    }
    case "tool_call_classified":
      return payload.action === "record" ? result(
        `Call ${payload.callId} (${payload.tool}) took effect before the run was interrupted; its output was not recorded.`,
        payload.callId,
        at2
      ) : null;
    case "validation_failed":
      return {
        kind: "validation_feedback",
        role: "user",
        content: `Your ${payload.stageId} artifact was not accepted (${payload.phase} check \`${payload.validator}\`): ${payload.message}`,
        ...at2
      };
    default:
      return null;
  }
}
function result(content, callId, at2) {
  return { kind: "tool_result", role: "user", content, ...at2, native: { type: "result", callId } };
}
var PATH_KEYS = /* @__PURE__ */ new Set(["path", "paths", "source", "destination", "file", "cwd"]);
function pathArguments(args) {
  return Object.keys(args).filter((key) => PATH_KEYS.has(key)).sort().flatMap((key) => {
    const value = args[key];
    if (typeof value === "string") return [value];
    return Array.isArray(value) ? value.filter((item) => typeof item === "string") : [];
  }).filter((path) => path.length > 0);
}

// src/core/kernel/decider/stage-run.ts
function withCommand(run, receipt, sequence) {
  if (receipt.tool !== "exec") return run;
  const args = receipt.args;
  const argv = Array.isArray(args["argv"]) ? args["argv"].map(String) : null;
  const command = typeof args["command"] === "string" ? args["command"] : argv !== null ? argv.join(" ") : JSON.stringify(args);
  return {
    ...run,
    commands: [
      ...run.commands,
      {
        callId: receipt.callId,
        command,
        succeeded: receipt.outcome === "succeeded",
        exitCode: receipt.exitCode,
        output: receipt.output,
        sequence
      }
    ]
  };
}
function startedRun(stageId, attempt, canonicalOutput = false) {
  return {
    stageId,
    attempt,
    turns: 0,
    turn: null,
    transcript: [],
    failures: {},
    referenceBlocks: {},
    checks: [],
    subagent: null,
    diagnostics: null,
    commands: [],
    summary: null,
    canonicalOutput,
    providerRetries: 0,
    providerWaitedMs: 0
  };
}
function evolveRun(run, event) {
  const payload = event.payload;
  const summary = summaryAnswered(run, payload);
  if (summary !== void 0) return summary === run.summary ? run : { ...run, summary };
  const entry = transcriptEntryOf(event, run.canonicalOutput);
  const withEntry = entry === null ? run : withTranscript(run, [...run.transcript, entry]);
  switch (payload.type) {
    case "inference_requested": {
      const retried = run.turn?.status === "failed" ? run.turn.failure.transientWaitMs : null;
      return {
        ...withEntry,
        turns: run.turns + 1,
        providerRetries: retried === null ? run.providerRetries : run.providerRetries + 1,
        providerWaitedMs: retried === null ? run.providerWaitedMs : run.providerWaitedMs + retried,
        turn: {
          requestId: payload.requestId,
          requestedSequence: event.sequence,
          provider: payload.provider,
          requestDigest: payload.requestDigest,
          toolNames: payload.toolNames,
          status: "requested"
        }
      };
    }
    case "inference_completed": {
      const answered = mapTurn(withEntry, payload.requestId, (turn) => ({
        ...identityOf(turn),
        status: "answered",
        result: payload.result,
        inferenceEventId: event.eventId
      }));
      return answered.providerWaitedMs === 0 ? answered : { ...answered, providerWaitedMs: 0 };
    }
    case "inference_failed":
      return mapTurn(withEntry, payload.requestId, (turn) => ({
        ...identityOf(turn),
        status: "failed",
        failure: {
          category: stageFailureOf(payload.category),
          message: payload.message,
          transientWaitMs: TRANSIENT.has(payload.category) && (payload.retryAfterMs ?? 0) > 0 ? payload.retryAfterMs : null
        }
      }));
    case "tool_call_proposed": {
      const parsed = safeParseToolArguments(payload.argsRaw);
      const args = parsed.ok ? parsed.args : null;
      const call = {
        callId: payload.callId,
        tool: payload.tool,
        argsRaw: payload.argsRaw,
        ...payload.argsLength === void 0 ? {} : { argsLength: payload.argsLength },
        args,
        status: "proposed",
        observed: [],
        tier: null,
        writeTargets: [],
        targets: [],
        failed: false,
        referenceBlocked: false,
        hookResults: null
      };
      return mapActing(withEntry, (turn) => ({ ...turn, calls: [...turn.calls, call] }));
    }
    case "artifact_proposed":
      return mapActing(withEntry, (turn) => ({
        ...turn,
        artifact: {
          hash: payload.hash,
          status: "proposed",
          artifact: recordedArtifact(event.sessionId, payload, answerTextOf(turn.result)),
          approval: null
        }
      }));
    case "validation_failed":
      return mapArtifact(
        withEntry,
        (artifact) => artifact.hash === payload.hash ? { ...artifact, status: "rejected" } : artifact
      );
    case "artifact_accepted":
      return mapArtifact(withEntry, (artifact) => ({
        ...artifact,
        hash: payload.hash,
        status: "accepted"
      }));
    case "tool_call_rejected":
      return finishCall(withEntry, payload.callId, ["proposed"], true);
    case "world_observed":
      return payload.callId === null ? withEntry : mapCall(withEntry, payload.callId, ANY, (call) => ({
        ...call,
        observed: [...call.observed, payload.observation.path]
      }));
    case "pre_tool_use_hooks_ran":
      return mapCall(withEntry, payload.callId, ["proposed"], (call) => ({
        ...call,
        hookResults: payload.results
      }));
    case "tool_call_assessed":
      return mapCall(withEntry, payload.callId, ["proposed"], (call) => ({
        ...call,
        tier: payload.tier,
        writeTargets: payload.targets.filter((target) => target.write && target.role !== "URL").map((target) => target.resolved),
        ...egressHostsOf(payload)
      }));
    case "approval_requested":
      if (isArtifactApproval(payload.callId))
        return withArtifactApproval(withEntry, payload.callId, { status: "pending" });
      return mapCall(withEntry, payload.callId, ["proposed", "interrupted"], (call) => ({
        ...call,
        status: "awaiting_approval",
        ...payload.deadline === void 0 ? {} : { approvalDeadline: payload.deadline }
      }));
    case "approval_timed_out":
      return mapCall(withEntry, payload.callId, ["awaiting_approval"], (call) => ({
        ...call,
        approvalTimedOut: true
      }));
    case "approval_granted":
      if (isArtifactApproval(payload.callId))
        return withArtifactApproval(withEntry, payload.callId, { status: "granted" });
      return mapCall(withEntry, payload.callId, ["proposed", "awaiting_approval"], (call) => ({
        ...call,
        status: "approved"
      }));
    case "approval_denied":
      if (isArtifactApproval(payload.callId))
        return withArtifactApproval(withEntry, payload.callId, {
          status: "denied",
          by: payload.by.id,
          reason: payload.reason
        });
      return finishCall(withEntry, payload.callId, ["proposed", "awaiting_approval"], true);
    case "tool_call_started":
      return mapCall(withEntry, payload.callId, ["approved"], (call) => ({
        ...call,
        status: "started",
        targets: payload.targets
      }));
    case "tool_receipt":
      return finishCall(
        withCommand(withEntry, payload, event.sequence),
        payload.callId,
        ["started", "interrupted"],
        payload.outcome !== "succeeded"
      );
    case "tool_call_interrupted":
      return mapCall(withEntry, payload.callId, ["started"], (call) => ({
        ...call,
        status: "interrupted",
        observed: []
      }));
    case "tool_call_classified":
      if (payload.action === "record")
        return finishCall(withEntry, payload.callId, ["interrupted"], false);
      if (payload.action === "execute")
        return mapCall(withEntry, payload.callId, ["interrupted"], (call) => ({
          ...call,
          status: "approved"
        }));
      return withEntry;
    case "subagent_started":
      return payload.stageId === run.stageId && payload.attempt === run.attempt ? { ...withEntry, subagent: startedSubagent(payload, event.eventId) } : withEntry;
    case "subagent_finished": {
      if (run.subagent?.childSessionId !== payload.childSessionId) return withEntry;
      if (run.subagent.status !== "running") return withEntry;
      const ended = endedSubagent(run.subagent, payload);
      return {
        ...withEntry,
        subagent: ended.subagent,
        turn: ended.answer === null ? run.turn : {
          requestId: payload.childSessionId,
          requestedSequence: event.sequence,
          provider: "subagent",
          requestDigest: "",
          toolNames: [],
          status: "answered",
          result: ended.answer,
          inferenceEventId: event.eventId
        }
      };
    }
    case "journal_summary_requested":
      if (payload.stageId !== run.stageId || payload.attempt !== run.attempt) return withEntry;
      return {
        ...withEntry,
        summary: {
          requestId: payload.requestId,
          provider: payload.provider,
          requestDigest: payload.requestDigest,
          throughSequence: payload.throughSequence,
          answer: { status: "requested" }
        }
      };
    case "journal_compacted":
      if (payload.stageId !== run.stageId || payload.attempt !== run.attempt) return withEntry;
      return {
        ...run,
        summary: null,
        transcript: [
          // Ordered where the entries it replaces were, before the ones it kept.
          {
            kind: "summary",
            role: "user",
            content: payload.summary,
            eventId: event.eventId,
            sequence: payload.throughSequence
          },
          ...run.transcript.filter((item) => item.sequence > payload.throughSequence)
        ]
      };
    case "language_diagnostics_recorded":
      return payload.stageId === run.stageId && payload.attempt === run.attempt ? {
        ...withEntry,
        diagnostics: {
          server: payload.server,
          method: payload.method,
          files: payload.files,
          error: payload.error,
          sequence: event.sequence
        }
      } : withEntry;
    case "dod_check_ran":
      return payload.stageId === run.stageId && payload.attempt === run.attempt ? {
        ...withEntry,
        checks: [
          ...run.checks,
          {
            name: payload.name,
            outcome: payload.outcome,
            exitCode: payload.exitCode,
            output: payload.output,
            sequence: event.sequence
          }
        ]
      } : withEntry;
    // The attempt's own beginning and end, and what the session and its lifecycle track.
    case "project_checks_detected":
    case "brief_checked":
    case "brief_echo_compared":
    case "review_findings_recorded":
    case "critique_outcomes_correlated":
    case "session_created":
    case "session_configured":
    case "workflow_started":
    case "workflow_completed":
    case "workflow_failed":
    case "workflow_cancelled":
    case "orchestration_paused":
    case "orchestration_resumed":
    case "stage_started":
    case "stage_completed":
    case "stage_failed":
    case "lifecycle_rejected":
    case "transition_taken":
    case "transition_rejected":
    case "approval_grant_added":
    case "approval_grant_revoked":
    case "approval_bypassed":
    case "egress_allowlist_changed":
    case "steering_note_added":
    case "workspace_restored":
    case "retry_delay_started":
    case "retry_delay_elapsed":
    case "redirect_requested":
    case "stage_redirected":
    case "redirect_rejected":
    case "budget_exhausted":
    case "budget_raised":
    case "stage_checkpoint_recorded":
    case "stage_start_reconciled":
    case "session_retried":
      return withEntry;
    default:
      return assertNever(payload, "event folded into a stage attempt");
  }
}
function summaryAnswered(run, payload) {
  if (payload.type !== "inference_completed" && payload.type !== "inference_failed")
    return void 0;
  if (!isSummaryRequestId(payload.requestId)) return void 0;
  const pending = run.summary;
  if (pending?.answer.status !== "requested" || pending.requestId !== payload.requestId)
    return pending;
  return {
    ...pending,
    answer: payload.type === "inference_completed" ? { status: "answered", text: payload.result.text } : { status: "failed" }
  };
}
var TRANSIENT = /* @__PURE__ */ new Set([
  "provider_down",
  "timeout",
  "rate_limit"
]);
function stageFailureOf(category) {
  if (category === "malformed_response") return "inference";
  if (category === "configuration") return "configuration";
  return "provider";
}
function identityOf(turn) {
  return {
    requestId: turn.requestId,
    requestedSequence: turn.requestedSequence,
    provider: turn.provider,
    requestDigest: turn.requestDigest,
    toolNames: turn.toolNames
  };
}
function withArtifactApproval(run, callId, approval2) {
  return mapArtifact(
    run,
    (artifact) => artifact.status === "proposed" && artifactApprovalKey(artifact.hash) === callId ? { ...artifact, approval: approval2 } : artifact
  );
}
function finishCall(run, callId, from, failed) {
  const turn = run.turn;
  const call = turn?.status === "acting" ? turn.calls.find((c) => c.callId === callId) : void 0;
  if (call === void 0 || !from.includes(call.status)) return run;
  const mapped = mapCall(run, callId, from, (record) => ({ ...record, status: "done", failed }));
  if (!failed || call.referenceBlocked) return mapped;
  const fingerprint = callFingerprint(call.tool, call.args, call.argsRaw);
  return {
    ...mapped,
    failures: { ...run.failures, [fingerprint]: (run.failures[fingerprint] ?? 0) + 1 }
  };
}
var ANY = [
  "proposed",
  "awaiting_approval",
  "approved",
  "started",
  "interrupted",
  "done"
];
function mapCall(run, callId, from, change) {
  return mapActingOnly(run, (turn) => {
    let calls;
    for (let index = 0; index < turn.calls.length; index++) {
      const call = turn.calls[index];
      if (call.callId !== callId || !from.includes(call.status)) continue;
      calls ??= turn.calls.slice();
      calls[index] = change(call);
    }
    return calls === void 0 ? turn : { ...turn, calls };
  });
}
function mapTurn(run, requestId, change) {
  return run.turn?.requestId === requestId ? withTurn(run, change(run.turn)) : run;
}
function mapActing(run, change) {
  const turn = run.turn;
  if (turn === null) return run;
  if (turn.status === "acting") return { ...run, turn: change(turn) };
  if (turn.status !== "answered") return run;
  return { ...run, turn: change({ ...turn, status: "acting", calls: [], artifact: null }) };
}
function mapActingOnly(run, change) {
  return run.turn?.status === "acting" ? withTurn(run, change(run.turn)) : run;
}
function withTurn(run, turn) {
  return stageRunWith(run, turn, run.transcript);
}
function withTranscript(run, transcript) {
  return stageRunWith(run, run.turn, transcript);
}
function stageRunWith(run, turn, transcript) {
  return {
    stageId: run.stageId,
    attempt: run.attempt,
    turns: run.turns,
    turn,
    transcript,
    failures: run.failures,
    referenceBlocks: run.referenceBlocks,
    checks: run.checks,
    subagent: run.subagent,
    diagnostics: run.diagnostics,
    commands: run.commands,
    summary: run.summary,
    canonicalOutput: run.canonicalOutput,
    providerRetries: run.providerRetries,
    providerWaitedMs: run.providerWaitedMs
  };
}
function mapArtifact(run, change) {
  return mapActingOnly(
    run,
    (turn) => turn.artifact === null ? turn : { ...turn, artifact: change(turn.artifact) }
  );
}
function countReferenceBlocks(run, callId, paths) {
  if (paths.length === 0) return run;
  const referenceBlocks = { ...run.referenceBlocks };
  for (const path of paths) referenceBlocks[path] = (referenceBlocks[path] ?? 0) + 1;
  return mapCall({ ...run, referenceBlocks }, callId, ANY, (call) => ({
    ...call,
    referenceBlocked: true
  }));
}
function isTurnFinished(turn) {
  if (turn.status !== "acting") return false;
  if (turn.artifact !== null) return turn.artifact.status === "rejected";
  return turn.calls.every((call) => call.status === "done");
}
function currentCall(turn) {
  return turn?.status === "acting" ? turn.calls.find((call) => call.status !== "done") : void 0;
}
function egressHostsOf(payload) {
  if (!payload.findings.some((f) => f.code === "egress_widen" || f.code === "egress_granted"))
    return {};
  const hosts = payload.targets.filter((t) => t.role === "URL" && t.resolved !== "");
  return { egressHosts: [...new Set(hosts.map((t) => t.resolved))].sort() };
}

// src/core/kernel/decider/kernel-state.ts
var BRIEF_PROBE = "brief";
var kernelProjection = {
  name: "kernel",
  // 5: checkpoints (stage-checkpoints) and acceptsRetry (retry-failed-session).
  // 6: calls no longer carry a fingerprint (it is hashed only once a call fails).
  // 7: the path maps (the tool session's observations and reads, written files) are layered records.
  // 8: a stage attempt holds its pending model-written journal summary.
  // 9: canonicalOutput (decisions-from-canonical-output), held by the state and each stage attempt.
  // 10: a stage attempt counts its calls retried after transient failures and their waits.
  // 11: the budget and the stage checkpoints are slices of `features` (registered features).
  // 12: the critique outcomes are a slice of `features`.
  version: 12,
  initial: () => ({
    session: sessionProjection.initial(),
    tools: toolSessionProjection.initial(),
    grants: approvalGrantsProjection.initial(),
    mode: "prompt",
    taskEventId: null,
    phase: { kind: "not_started" },
    accepted: [],
    steering: [],
    written: layeredRecord(),
    retryDelay: null,
    redirect: null,
    subagents: {},
    projectChecks: null,
    deniedWrites: [],
    commandsRan: 0,
    checkRuns: [],
    lastStageFailure: null,
    brief: null,
    briefObservations: {},
    briefEcho: null,
    changes: [],
    lastTimestamp: null,
    lastInputSequence: 0,
    features: initialFeatures(),
    acceptsRetry: false,
    canonicalOutput: false
  }),
  evolve(state, event) {
    const evolved = evolveKernel(state, event);
    const payload = event.payload;
    const next = {
      session: sessionProjection.evolve(state.session, event),
      tools: toolSessionProjection.evolve(state.tools, event),
      grants: approvalGrantsProjection.evolve(state.grants, event),
      mode: evolved.mode,
      taskEventId: evolved.taskEventId,
      phase: evolved.phase,
      accepted: evolved.accepted,
      steering: evolved.steering,
      written: writtenBy(state.written, event),
      retryDelay: evolved.retryDelay,
      redirect: evolved.redirect,
      subagents: evolved.subagents,
      projectChecks: evolved.projectChecks,
      deniedWrites: evolved.deniedWrites,
      commandsRan: payload.type === "tool_call_started" && payload.tool === "exec" ? state.commandsRan + 1 : state.commandsRan,
      checkRuns: evolved.checkRuns,
      brief: evolved.brief,
      briefObservations: evolved.briefObservations,
      briefEcho: evolved.briefEcho,
      changes: payload.type === "tool_receipt" && payload.outcome === "succeeded" && isFileChangeTool(payload.tool) ? [...state.changes, { tool: payload.tool, args: payload.args, sequence: event.sequence }] : state.changes,
      lastStageFailure: evolved.lastStageFailure,
      lastTimestamp: event.timestamp,
      lastInputSequence: isInputEvent(event.payload) ? event.sequence : state.lastInputSequence,
      features: evolveFeatures(state.features, event),
      acceptsRetry: evolved.acceptsRetry,
      canonicalOutput: evolved.canonicalOutput
    };
    return next;
  }
};
function featureCoreOf(config, state) {
  return {
    config,
    mode: state.mode,
    lastTimestamp: state.lastTimestamp,
    lastSequence: state.session.lastSequence,
    features: state.features
  };
}
function runOf(state) {
  return state.phase.kind === "in_stage" ? state.phase.run : null;
}
function awaitsDecision(state) {
  return state.lastInputSequence > 0 && state.lastInputSequence === state.session.lastSequence;
}
function evolveKernel(state, event) {
  const payload = event.payload;
  switch (payload.type) {
    case "session_created":
      return { ...state, mode: payload.mode, taskEventId: event.eventId };
    case "workflow_started":
      return { ...state, phase: { kind: "between_stages" } };
    case "stage_started":
      return {
        ...state,
        phase: {
          kind: "in_stage",
          run: startedRun(payload.stageId, payload.attempt, state.canonicalOutput)
        }
      };
    case "stage_completed":
      return {
        ...state,
        phase: {
          kind: "transitioning",
          outcome: {
            kind: "completed",
            ...payload.verdict === void 0 ? {} : { verdict: payload.verdict }
          }
        }
      };
    case "stage_failed":
      return {
        ...state,
        lastStageFailure: {
          stageId: payload.stageId,
          attempt: payload.attempt,
          message: payload.message,
          eventId: event.eventId,
          sequence: event.sequence
        },
        phase: { kind: "transitioning", outcome: { kind: "failed", category: payload.category } }
      };
    case "transition_taken": {
      if (payload.end === void 0) return { ...state, phase: { kind: "between_stages" } };
      const previous = state.phase.kind === "transitioning" ? state.phase.outcome : null;
      return {
        ...state,
        phase: {
          kind: "ending",
          ending: {
            result: payload.end,
            category: previous?.kind === "failed" ? previous.category : "validation",
            message: `stage ${payload.from} ended the workflow (${payload.condition}, edge ${payload.edge})`
          }
        }
      };
    }
    case "transition_rejected":
      return { ...state, phase: { kind: "stuck", message: payload.message } };
    case "workflow_completed":
    case "workflow_failed":
    case "workflow_cancelled":
      return { ...state, phase: { kind: "final" } };
    case "inference_failed": {
      const next = withRun(state, event);
      const delayMs = payload.retryAfterMs ?? 0;
      if (delayMs <= 0 || isSummaryRequestId(payload.requestId)) return next;
      const until = new Date(Date.parse(event.timestamp) + delayMs).toISOString();
      return {
        ...next,
        retryDelay: {
          requestId: payload.requestId,
          provider: payload.provider,
          delayMs,
          until,
          started: false
        }
      };
    }
    case "tool_call_assessed": {
      const run = runOf(state);
      if (run === null) return state;
      const missing = missingReferences(payload, state.tools.observations);
      return inStage(state, countReferenceBlocks(evolveRun(run, event), payload.callId, missing));
    }
    case "redirect_requested":
      return {
        ...state,
        redirect: {
          to: payload.to,
          by: payload.by,
          ...payload.reason === void 0 ? {} : { reason: payload.reason }
        }
      };
    case "redirect_rejected":
      return { ...state, redirect: null };
    case "stage_redirected":
      return { ...state, redirect: null, phase: { kind: "between_stages" } };
    case "subagent_started":
      return {
        ...withRun(state, event),
        subagents: {
          ...state.subagents,
          [payload.stageId]: (state.subagents[payload.stageId] ?? 0) + 1
        }
      };
    case "brief_checked":
      return {
        ...state,
        brief: {
          references: payload.references,
          missing: payload.missing,
          sequence: event.sequence
        }
      };
    case "brief_echo_compared":
      return {
        ...withRun(state, event),
        briefEcho: {
          stageId: payload.stageId,
          artifactHash: payload.artifactHash,
          dropped: payload.dropped,
          invented: payload.invented,
          sequence: event.sequence
        }
      };
    case "world_observed":
      return payload.callId === BRIEF_PROBE ? {
        ...state,
        briefObservations: {
          ...state.briefObservations,
          [payload.observation.path]: {
            exists: payload.observation.kind !== "missing",
            sequence: event.sequence
          }
        }
      } : withRun(state, event);
    case "project_checks_detected":
      return { ...state, projectChecks: { checks: payload.checks, sequence: event.sequence } };
    case "dod_check_ran":
      return {
        ...withRun(state, event),
        checkRuns: [
          ...state.checkRuns,
          {
            stageId: payload.stageId,
            attempt: payload.attempt,
            name: payload.name,
            command: payload.command,
            passed: payload.outcome === "completed" && payload.exitCode === 0,
            exitCode: payload.exitCode,
            sequence: event.sequence
          }
        ]
      };
    case "approval_denied": {
      const run = runOf(state);
      const turn = run?.turn;
      const call = turn?.status === "acting" ? turn.calls.find((c) => c.callId === payload.callId) : void 0;
      const denied2 = (call?.writeTargets ?? []).map((path) => ({
        path,
        callId: payload.callId,
        sequence: event.sequence
      }));
      return denied2.length === 0 ? withRun(state, event) : { ...withRun(state, event), deniedWrites: [...state.deniedWrites, ...denied2] };
    }
    case "retry_delay_started":
      return state.retryDelay === null ? state : { ...state, retryDelay: { ...state.retryDelay, started: true } };
    case "retry_delay_elapsed":
      return { ...state, retryDelay: null };
    case "steering_note_added":
      return {
        ...state,
        steering: [
          ...state.steering,
          {
            eventId: event.eventId,
            sequence: event.sequence,
            content: payload.content,
            stageId: payload.stageId ?? null
          }
        ]
      };
    case "artifact_accepted": {
      const turn = runOf(state)?.turn;
      const accepted = {
        hash: payload.hash,
        kind: payload.kind,
        stageId: payload.stageId,
        content: turn?.status === "acting" ? artifactContentOf(answerTextOf(turn.result)) : null,
        eventId: event.eventId,
        sequence: event.sequence
      };
      return { ...withRun(state, event), accepted: [...state.accepted, accepted] };
    }
    case "session_configured":
      return {
        ...withRun(state, event),
        acceptsRetry: recordsFlag(payload.configuration.flags, RETRY_FAILED_SESSION.name),
        canonicalOutput: recordsFlag(
          payload.configuration.flags,
          DECISIONS_FROM_CANONICAL_OUTPUT.name
        )
      };
    case "session_retried":
      return { ...state, phase: { kind: "between_stages" } };
    // Folded into the running stage attempt only.
    case "orchestration_paused":
    case "orchestration_resumed":
    case "lifecycle_rejected":
    case "artifact_proposed":
    case "validation_failed":
    case "approval_requested":
    case "approval_granted":
    case "approval_timed_out":
    case "approval_grant_added":
    case "approval_grant_revoked":
    case "approval_bypassed":
    case "tool_call_proposed":
    case "tool_call_started":
    case "tool_receipt":
    case "pre_tool_use_hooks_ran":
    case "egress_allowlist_changed":
    case "workspace_restored":
    case "inference_requested":
    case "inference_completed":
    case "tool_call_rejected":
    case "tool_call_interrupted":
    case "tool_call_classified":
    case "language_diagnostics_recorded":
    case "journal_compacted":
    case "journal_summary_requested":
    case "subagent_finished":
    case "review_findings_recorded":
    // also the critique feature's (features/critique-outcomes)
    case "critique_outcomes_correlated":
      return withRun(state, event);
    case "budget_exhausted":
    case "budget_raised":
    case "stage_checkpoint_recorded":
    case "stage_start_reconciled":
      return state;
    default:
      return assertNever(payload, "event folded into the kernel state");
  }
}
function withRun(state, event) {
  const run = runOf(state);
  return run === null ? state : inStage(state, evolveRun(run, event));
}
function inStage(state, run) {
  return {
    session: state.session,
    tools: state.tools,
    grants: state.grants,
    mode: state.mode,
    taskEventId: state.taskEventId,
    phase: { kind: "in_stage", run },
    accepted: state.accepted,
    steering: state.steering,
    written: state.written,
    retryDelay: state.retryDelay,
    redirect: state.redirect,
    subagents: state.subagents,
    projectChecks: state.projectChecks,
    deniedWrites: state.deniedWrites,
    commandsRan: state.commandsRan,
    checkRuns: state.checkRuns,
    brief: state.brief,
    briefObservations: state.briefObservations,
    briefEcho: state.briefEcho,
    changes: state.changes,
    lastStageFailure: state.lastStageFailure,
    lastTimestamp: state.lastTimestamp,
    lastInputSequence: state.lastInputSequence,
    features: state.features,
    acceptsRetry: state.acceptsRetry,
    canonicalOutput: state.canonicalOutput
  };
}
function writtenBy(written, event) {
  const payload = event.payload;
  let targets;
  if (payload.type === "tool_receipt" && payload.outcome === "succeeded")
    targets = payload.files.filter((file) => file.access === "write").map((file) => file.path);
  else if (payload.type === "tool_call_classified" && payload.classification === "applied")
    targets = payload.targets.map((target) => target.path);
  else return written;
  let next = written;
  for (const path of targets) if (!layeredHas(next, path)) next = layeredSet(next, path, true);
  return next;
}
function recordsFlag(flags, flag) {
  return Array.isArray(flags) && flags.includes(flag);
}

// src/core/transitions/evaluate-transition.ts
function evaluateTransition(workflow, state, outcome2) {
  const described = describeOutcome(outcome2);
  const stage = workflow.stages.get(state.stageId);
  if (!stage) {
    return reject2(
      state.stageId,
      "unknown_stage",
      described,
      `workflow \`${workflow.id}\` has no stage \`${state.stageId}\``
    );
  }
  if (outcome2.kind === "completed") {
    const verdictProblem = checkVerdict(stage, outcome2.verdict);
    if (verdictProblem) return reject2(stage.id, "unknown_verdict", described, verdictProblem);
  }
  const retryable = outcome2.kind === "failed" && (stage.retry.retryOn.includes(outcome2.category) || outcome2.retryInPlace === true);
  const attemptsLeft = state.attempt < stage.retry.maxAttempts;
  if (retryable && attemptsLeft) {
    const attempt = state.attempt + 1;
    return {
      kind: "retry",
      stageId: stage.id,
      attempt,
      event: {
        type: "transition_taken",
        from: stage.id,
        to: stage.id,
        condition: "retry",
        edge: `${stage.id}:retry`,
        traversal: state.attempt,
        attempt
      }
    };
  }
  for (const transition of stage.transitions) {
    if (!matches(transition.when, outcome2, retryable)) continue;
    const edge = edgeName(stage.id, transition);
    const taken = state.cycles[edge] ?? 0;
    if (transition.maxTraversals !== void 0 && taken >= transition.maxTraversals) continue;
    const base = {
      type: "transition_taken",
      from: stage.id,
      condition: describeCondition(transition.when, outcome2),
      edge,
      traversal: taken + 1
    };
    if (transition.to !== void 0) {
      return {
        kind: "advance",
        to: transition.to,
        attempt: 1,
        event: { ...base, to: transition.to, attempt: 1 }
      };
    }
    const result2 = transition.end ?? "failed";
    return { kind: "end", result: result2, event: { ...base, end: result2 } };
  }
  return reject2(
    stage.id,
    "no_matching_transition",
    described,
    `stage \`${stage.id}\`: no transition allows outcome ${described} (its bounded transitions may be spent: ${JSON.stringify(state.cycles)})`
  );
}
function transitionStateOf(session) {
  const stageId = session.activeStage?.stageId ?? session.lastStageId;
  if (stageId === null) return null;
  return {
    stageId,
    attempt: session.activeStage?.attempt ?? session.attempts[stageId] ?? 1,
    cycles: session.cycles
  };
}
function matches(condition, outcome2, retryable) {
  switch (condition.on) {
    case "success":
      return outcome2.kind === "completed";
    case "verdict":
      return outcome2.kind === "completed" && outcome2.verdict === condition.verdict;
    case "failure":
      return outcome2.kind === "failed" && (condition.categories === void 0 || condition.categories.includes(outcome2.category));
    case "retries_exhausted":
      return outcome2.kind === "failed" && retryable;
  }
}
function checkVerdict(stage, verdict) {
  if (stage.verdicts.length === 0) {
    return verdict === void 0 ? void 0 : `stage \`${stage.id}\` declares no verdicts but completed with verdict \`${verdict}\``;
  }
  if (verdict === void 0) {
    return `stage \`${stage.id}\` must complete with a verdict (${stage.verdicts.join(" | ")})`;
  }
  return stage.verdicts.includes(verdict) ? void 0 : `stage \`${stage.id}\` completed with verdict \`${verdict}\`; expected one of ${stage.verdicts.join(" | ")}`;
}
function describeOutcome(outcome2) {
  if (outcome2.kind === "failed") return `failure:${outcome2.category}`;
  return outcome2.verdict === void 0 ? "success" : `verdict:${outcome2.verdict}`;
}
function describeCondition(condition, outcome2) {
  switch (condition.on) {
    case "success":
      return "success";
    case "verdict":
      return `verdict:${condition.verdict}`;
    case "failure":
      return outcome2.kind === "failed" ? `failure:${outcome2.category}` : "failure";
    case "retries_exhausted":
      return "retries_exhausted";
  }
}
function reject2(from, reason, outcome2, message) {
  return {
    kind: "rejected",
    reason,
    event: { type: "transition_rejected", from, reason, outcome: outcome2, message }
  };
}

// src/core/kernel/features/redirect/redirect.ts
function checkRedirect(config, state, to) {
  const run = runOf(state);
  if (state.session.status !== "running" || run === null)
    return {
      ok: false,
      from: null,
      message: "no stage is running, so there is nothing to redirect"
    };
  const from = run.stageId;
  const stage = config.workflow.stages.get(from);
  const targets = (stage?.transitions ?? []).flatMap((t) => t.to === void 0 ? [] : [t.to]);
  if (!config.workflow.stages.has(to))
    return { ok: false, from, message: `workflow ${config.workflow.id} has no stage ${to}` };
  const open = (stage?.transitions ?? []).find(
    (t) => t.to === to && (t.maxTraversals === void 0 || (state.session.cycles[edgeName(from, t)] ?? 0) < t.maxTraversals)
  );
  if (open === void 0) {
    const legal = [...new Set(targets)].join(", ") || "no stage";
    return {
      ok: false,
      from,
      message: targets.includes(to) ? `the transitions from ${from} to ${to} have used all their traversals` : `stage ${from} has no transition to ${to}; it may go to: ${legal}`
    };
  }
  const edge = edgeName(from, open);
  return {
    ok: true,
    from,
    attempt: run.attempt,
    edge,
    traversal: (state.session.cycles[edge] ?? 0) + 1
  };
}
function decideRedirect(config, state, redirect) {
  const checked = checkRedirect(config, state, redirect.to);
  const why = redirect.reason === void 0 ? {} : { reason: redirect.reason };
  if (!checked.ok) {
    return [
      {
        type: "redirect_rejected",
        from: checked.from,
        to: redirect.to,
        by: redirect.by,
        message: checked.message
      }
    ];
  }
  return [
    ...state.session.pendingApprovals.map((pending) => ({
      type: "approval_denied",
      callId: pending.callId,
      by: { kind: "auto", id: "redirect" },
      reason: `the session was redirected to ${redirect.to} by ${redirect.by}`
    })),
    {
      type: "stage_redirected",
      from: checked.from,
      to: redirect.to,
      attempt: checked.attempt,
      by: redirect.by,
      ...why
    },
    {
      type: "transition_taken",
      from: checked.from,
      to: redirect.to,
      condition: "redirect",
      edge: checked.edge,
      traversal: checked.traversal,
      attempt: 1
    }
  ];
}

// src/core/kernel/decider/artifact-approval.ts
function decideArtifactApproval(mode, stage, run, hash) {
  const callId = artifactApprovalKey(hash);
  const reason = `stage ${stage.id} requires approval of its ${stage.artifact.kind} artifact ${hash}`;
  switch (mode) {
    case "yolo":
      return [
        {
          type: "approval_bypassed",
          callId,
          tool: ARTIFACT_APPROVAL_TOOL,
          tier: "T3",
          mode,
          reason
        },
        {
          type: "approval_granted",
          callId,
          by: { kind: "auto", id: mode },
          reason: `operator mode yolo bypasses the approval of stage ${stage.id}'s artifact`
        }
      ];
    case "deny":
      return [
        {
          type: "approval_denied",
          callId,
          by: { kind: "auto", id: mode },
          reason: `operator mode deny refuses the approval stage ${stage.id} requires`
        },
        stageFailed(
          run,
          "policy",
          `stage ${stage.id} requires approval of its artifact and the operator mode is deny`
        )
      ];
    case "prompt":
    case "auto":
      return [
        { type: "approval_requested", callId, tool: ARTIFACT_APPROVAL_TOOL, tier: "T3", reason }
      ];
  }
}

// src/core/kernel/features/finishing-tool/finishing-tool.ts
function finishingToolName(stage) {
  return `finish_${stage.artifact.kind}`.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64);
}
function finishingToolDefinition(stage) {
  return {
    name: finishingToolName(stage),
    description: `Finish stage ${stage.id}: call this once, alone, with the ${stage.artifact.kind} artifact as the arguments. The call ends your turn; the artifact is then validated.`,
    inputSchema: stage.artifact.schema
  };
}

// src/core/approvals/decide-approval.ts
function decideApproval(input) {
  const { callId, tool } = input.subject;
  const { mode, tier } = input;
  if (input.verdict === "BLOCK") {
    return denied(callId, "policy", `blocked by policy: ${input.reason}`);
  }
  if (tier === "T0" && input.verdict === "ALLOW") {
    return granted(callId, { kind: "auto", id: mode }, "T0: read-only inside the workspace");
  }
  if (mode === "deny") return denied(callId, mode, `operator mode deny refuses ${tier}`);
  const grant = findCoveringGrant(input.grants, input.subject, input.at);
  if (grant !== void 0) {
    return granted(
      callId,
      { kind: "grant", id: grant.grantId },
      `within grant ${grant.grantId} (${grant.scope.kind}) by ${grant.by}`
    );
  }
  if (mode === "yolo") {
    if (tierRank(tier) <= tierRank("T2") && input.verdict === "ALLOW") {
      return granted(callId, { kind: "auto", id: mode }, `operator mode yolo approves ${tier}`);
    }
    return {
      outcome: "approved",
      events: [
        { type: "approval_bypassed", callId, tool, tier, mode, reason: input.reason },
        {
          type: "approval_granted",
          callId,
          by: { kind: "auto", id: mode },
          reason: `operator mode yolo bypasses ${tier}`
        }
      ]
    };
  }
  if (mode === "auto" && tierRank(tier) <= tierRank("T2")) {
    return granted(
      callId,
      { kind: "auto", id: mode },
      `operator mode auto approves up to T2 (${tier})`
    );
  }
  return {
    outcome: "pending",
    events: [{ type: "approval_requested", callId, tool, tier, reason: input.reason }]
  };
}
function granted(callId, by, reason) {
  return { outcome: "approved", events: [{ type: "approval_granted", callId, by, reason }] };
}
function denied(callId, id, reason) {
  return {
    outcome: "denied",
    events: [{ type: "approval_denied", callId, by: { kind: "auto", id }, reason }]
  };
}

// src/core/tools/malformed-command.ts
function hasControlCharacter(text) {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 32 || code === 127 || code === 8232 || code === 8233) return true;
  }
  return false;
}
function malformedCommand(tool, args) {
  for (const [key, role] of Object.entries(tool.paramRoles)) {
    if (role !== "COMMAND") continue;
    const value = args[key];
    if (typeof value === "string") {
      if (value.includes("\0")) return `\`${key}\` holds a NUL character, which no command can`;
      continue;
    }
    if (!Array.isArray(value)) continue;
    const [program] = value;
    if (typeof program !== "string") continue;
    if (program.trim() === "") return `\`${key}[0]\` (the program) is empty`;
    if (program !== program.trim())
      return `\`${key}[0]\` (the program) ${JSON.stringify(program)} starts or ends with white space`;
    if (hasControlCharacter(program))
      return `\`${key}[0]\` (the program) ${JSON.stringify(program)} holds a control character`;
    const index = value.findIndex(
      (item) => typeof item === "string" && item.includes("\0")
    );
    if (index >= 0) return `\`${key}[${index}]\` holds a NUL character, which no argument can`;
  }
  return void 0;
}

// src/core/toolintent/checked-tool-arguments.ts
var checkedByPolicy = /* @__PURE__ */ new WeakMap();
var MAX_CHECKED_PER_POLICY = 1024;
function checkToolArguments(policy, roots, call, options) {
  const key = [
    call.tool,
    roots.workspaceRoot,
    roots.homeDirectory,
    options.canonical,
    options.order,
    options.rejectMalformedCommand
  ];
  let checked = checkedByPolicy.get(policy);
  if (checked === void 0) {
    checked = /* @__PURE__ */ new Map();
    checkedByPolicy.set(policy, checked);
  }
  const text = `${call.callId}\0${call.tool.name}\0${call.argsRaw}`;
  const cached = checked.get(text);
  if (cached !== void 0 && sameKey(cached.key, key)) return cached.result;
  const result2 = check(policy, roots, call, options);
  checked.delete(text);
  checked.set(text, { key, result: result2 });
  if (checked.size > MAX_CHECKED_PER_POLICY) {
    const oldest = checked.keys().next();
    if (oldest.done !== true) checked.delete(oldest.value);
  }
  return result2;
}
function check(policy, roots, call, options) {
  const { tool } = call;
  const parsed = tool.argsSchema.safeParse(
    options.canonical === null ? call.args : options.canonical(call.args)
  );
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.map(String).join(".") || "arguments"}: ${issue.message}`
    );
    const listed = options.canonical === null ? problems : options.order(problems);
    return { ok: false, message: `the arguments do not match the schema: ${listed.join("; ")}` };
  }
  if (typeof parsed.data !== "object" || parsed.data === null)
    return { ok: true, prepared: { callId: call.callId, tool, args: parsed.data }, paths: [] };
  const args = parsed.data;
  if (options.rejectMalformedCommand) {
    const malformed = malformedCommand(tool, args);
    if (malformed !== void 0)
      return { ok: false, message: `the arguments cannot be run: ${malformed}` };
  }
  const prepared = prepareToolCall(policy, roots, { callId: call.callId, tool, args });
  const paths = [
    ...new Set(prepared.values.candidatePaths.map((path) => path.path.absolute))
  ].sort();
  return { ok: true, prepared, paths };
}
function sameKey(a, b) {
  return a.length === b.length && a.every((value, index) => value === b[index]);
}

// src/core/toolintent/hook-findings.ts
function hookFinding(result2) {
  const ruleId = `hook:${result2.hook}`;
  if (result2.outcome !== "answered")
    return finding(
      ruleId,
      "block",
      `hook_${result2.outcome}`,
      `the pre_tool_use hook ${result2.hook} ${ENDINGS[result2.outcome]}, so the call is blocked: ${result2.reason}`,
      "T3"
    );
  switch (result2.decision) {
    case "block":
      return finding(ruleId, "block", "hook_blocked", result2.reason || "blocked by a hook", "T3");
    case "raise":
      return finding(
        ruleId,
        "info",
        "hook_raised_tier",
        result2.reason || `raised to ${result2.tier ?? "T3"} by a hook`,
        result2.tier ?? "T3"
      );
    case "allow":
      return finding(ruleId, "info", "hook_allowed", result2.reason || "allowed by a hook", "T0");
  }
}
var ENDINGS = {
  crashed: "crashed",
  timed_out: "timed out",
  garbage: "answered something that is not a verdict",
  failed_to_start: "could not start"
};
function withHookFindings(assessment, tool, policy, results) {
  const findings = [...assessment.findings, ...results.map(hookFinding)];
  return { ...assessment, ...mapRisk(tool, policy, findings), findings };
}

// src/core/kernel/features/interrupted-calls/classify-interrupted-call.ts
function isReadBackOnResume(toolName) {
  return toolName === "write_file";
}
function classifyInterruptedCall(call, tool, observations, idempotentTools, sha256 = sha256Hex, flags = /* @__PURE__ */ new Set()) {
  const targets = call.targets.map((target) => ({
    path: target.path,
    recorded: target.sha256,
    observed: observedHash(layeredGet(observations, target.path))
  }));
  const base = {
    type: "tool_call_classified",
    callId: call.callId,
    tool: call.tool,
    targets
  };
  if (tool !== void 0 && hasCapability(tool, "READ_ONLY")) {
    return {
      ...base,
      classification: "not_applied",
      action: "execute",
      reason: "a read-only call has no effect to lose or repeat"
    };
  }
  const runsCode = flags.has(INTERRUPTED_EXEC_IS_UNKNOWN.name) && (tool === void 0 || hasCapability(tool, "EXECUTES"));
  if (!runsCode && targets.length > 0 && targets.every((target) => target.observed === target.recorded)) {
    return {
      ...base,
      classification: "not_applied",
      action: "execute",
      reason: "every target still has the content recorded before the call"
    };
  }
  const content = call.args?.content;
  if (isReadBackOnResume(call.tool) && typeof content === "string" && targets.length > 0) {
    const written = sha256(content);
    if (targets.every((target) => target.observed === written)) {
      return {
        ...base,
        classification: "applied",
        action: "record",
        reason: "the target already holds exactly the content the call writes"
      };
    }
  }
  if (flags.has(INTERRUPTED_WRITE_ASKS_WHEN_CHANGED.name) && isReadBackOnResume(call.tool) && targets.length > 0) {
    return {
      ...base,
      classification: "unknown",
      action: "ask",
      reason: "the target holds neither the content recorded before the call nor the content it writes: it was changed since (or a link on its path now leads elsewhere), so a person decides whether it is written again"
    };
  }
  const why = runsCode ? `${call.tool} runs a program whose effects reach beyond the targets the probe can observe` : targets.length === 0 ? `${call.tool} has effects the probe cannot observe` : "the targets changed, but not to a state the call is known to produce";
  return idempotentTools.has(call.tool) ? {
    ...base,
    classification: "unknown",
    action: "execute",
    reason: `${why}; ${call.tool} is idempotent, so it runs again`
  } : {
    ...base,
    classification: "unknown",
    action: "ask",
    reason: `${why}; ${call.tool} is not idempotent, so a person decides whether it runs again`
  };
}
function observedHash(observation) {
  return observation === void 0 || observation.kind === "missing" ? null : observation.sha256;
}

// src/core/kernel/decider/call-step.ts
function nextForCall(context, call) {
  switch (call.status) {
    case "proposed":
      return assess(context, call);
    case "approved":
      return emit({
        type: "tool_call_started",
        callId: call.callId,
        tool: call.tool,
        targets: call.writeTargets.map((path) => {
          const observation = layeredGet(context.state.tools.observations, path);
          return {
            path,
            sha256: observation === void 0 || observation.kind === "missing" ? null : observation.sha256
          };
        })
      });
    case "started":
      return awaitEffect({
        type: "execute",
        callId: call.callId,
        tool: call.tool,
        args: call.args ?? {},
        targets: call.targets,
        ...call.egressHosts === void 0 ? {} : { egressHosts: call.egressHosts }
      });
    case "interrupted":
      return classify(context, call);
    case "awaiting_approval":
      return awaitApproval(context, call);
    case "done":
      return IDLE;
  }
}
function awaitApproval(context, call) {
  if (call.approvalDeadline === void 0)
    return awaitEffect({ type: "await_approval", callId: call.callId });
  if (call.approvalTimedOut === true)
    return emit({
      type: "approval_denied",
      callId: call.callId,
      by: { kind: "timeout", id: "approvalTimeoutMs" },
      reason: `nobody decided by ${call.approvalDeadline} (the policy's approvalTimeoutMs is ${context.config.policy.policy.approvalTimeoutMs ?? "?"} ms), so it was denied`
    });
  return awaitEffect({
    type: "await_approval",
    callId: call.callId,
    deadline: call.approvalDeadline
  });
}
function withDeadline(context, events) {
  const { config, state } = context;
  const timeoutMs = config.policy.policy.approvalTimeoutMs;
  if (!config.behaviour.flags.has(APPROVAL_TIMEOUT.name) || timeoutMs === void 0 || state.lastTimestamp === null)
    return [...events];
  const deadline = new Date(Date.parse(state.lastTimestamp) + timeoutMs).toISOString();
  return events.map(
    (event) => event.type === "approval_requested" ? { ...event, deadline } : event
  );
}
function assess(context, call) {
  const { config, state, stage } = context;
  const checked = checkCall(context, call);
  if (!checked.ok) return emit(...checked.events);
  const missing = missingPaths(call, checked.paths);
  if (missing.length > 0)
    return awaitEffect({ type: "probe", callId: call.callId, paths: missing });
  const view = viewOf2(config, state, stage.id);
  const judged = assessToolCall(config.policy, view, checked.proposed);
  const hooks = config.behaviour.flags.has(PRE_TOOL_USE_HOOKS.name) ? preToolUseHooksFor(config.hooks, call.tool) : [];
  if (hooks.length > 0 && judged.verdict !== "BLOCK" && call.hookResults === null)
    return awaitEffect({
      type: "run_pre_tool_use_hooks",
      callId: call.callId,
      stageId: stage.id,
      tool: call.tool,
      args: checked.proposed.args,
      hooks: hooks.map((hook) => hook.name),
      findings: judged.findings,
      targets: judged.targets,
      tier: judged.tier
    });
  const assessment = call.hookResults === null || judged.verdict === "BLOCK" ? judged : withHookFindings(judged, checked.proposed.tool, config.policy.policy, call.hookResults);
  const args = checked.proposed.args;
  const reasons = assessment.findings.map((finding2) => `${finding2.ruleId}: ${finding2.message}`);
  const decision = decideApproval({
    mode: state.mode,
    verdict: assessment.verdict,
    tier: assessment.tier,
    subject: approvalSubjectOf(assessment, args, stage.id, view),
    grants: state.grants,
    at: state.lastTimestamp ?? "",
    reason: reasons.length > 0 ? reasons.join("; ") : `${call.tool} at ${assessment.tier}`
  });
  const blockedOnMissing = assessment.findings.some(
    (finding2) => finding2.ruleId === "reference-exists" && finding2.severity === "block"
  );
  const events = withDeadline(context, decision.events);
  if (!blockedOnMissing || !canCreateFiles(stage, config.tools)) return emit(assessment, ...events);
  return emit(
    assessment,
    ...events.map(
      (event) => event.type === "approval_denied" ? {
        ...event,
        reason: `${event.reason} (if the task needs it, this stage can create it first)`
      } : event
    )
  );
}
function checkCall(context, call) {
  const { config, state, stage, run } = context;
  const tool = config.tools.get(call.tool);
  const refuse = (reason, message) => ({
    ok: false,
    events: [rejected(config, stage, call.callId, call.tool, reason, message)]
  });
  if (tool === void 0) {
    const known = stage.allowedTools.filter((name) => config.tools.has(name)).join(", ");
    return refuse("unknown_tool", `there is no tool named ${call.tool}; this stage has: ${known}`);
  }
  if (!stage.allowedTools.includes(tool.name)) {
    return refuse("tool_not_allowed", `stage ${stage.id} does not grant ${tool.name}`);
  }
  if (repeatedFailures(run, call) >= config.limits.maxRepeatedFailures) {
    const message = `the model proposed the same failing ${call.tool} call ${config.limits.maxRepeatedFailures + 1} times; stopping the attempt instead of running it again`;
    const failed = stageFailed(run, "tool", message);
    return config.behaviour.flags.has(EVERY_PROPOSAL_HAS_AN_OUTCOME.name) ? {
      ok: false,
      events: [
        rejected(config, stage, call.callId, call.tool, "repeated_failure", message),
        ...refuseTheRest(context, call.callId, message),
        failed
      ]
    } : { ok: false, events: [failed] };
  }
  if (call.args === null) {
    const parsed = safeParseToolArguments(call.argsRaw);
    if (!config.behaviour.flags.has(MALFORMED_ARGS_SAY_WHY.name) || parsed.ok)
      return refuse("malformed_args", "the arguments are not a JSON object");
    const recorded = call.argsLength !== void 0 && config.behaviour.flags.has(BOUNDED_REFUSED_ARGUMENTS.name) ? recordedArgsError(run, call.callId) : void 0;
    if (recorded !== void 0) return refuse("malformed_args", recorded);
    return refuse(
      "malformed_args",
      call.argsLength === void 0 ? parsed.error : `the arguments (${call.argsLength} characters) could not be read (the answer records why); only their first ${call.argsRaw.length} characters were kept`
    );
  }
  const checked = checkToolArguments(
    config.policy,
    { workspaceRoot: state.session.workspace ?? "/", homeDirectory: config.homeDirectory },
    { callId: call.callId, tool, args: call.args, argsRaw: call.argsRaw },
    {
      canonical: config.behaviour.flags.has(DECISIONS_FROM_CANONICAL_OUTPUT.name) ? canonicalValue : null,
      order: inCanonicalOrder,
      rejectMalformedCommand: config.behaviour.flags.has(MALFORMED_COMMAND_REJECTED.name)
    }
  );
  if (!checked.ok) return refuse("malformed_args", checked.message);
  return { ok: true, proposed: checked.prepared, paths: checked.paths };
}
function recordedArgsError(run, callId) {
  const turn = run.turn;
  if (turn?.status !== "acting") return void 0;
  const index = Number(callId.slice(turn.requestId.length + 1)) - 1;
  return turn.result.toolCalls[index]?.argsError;
}
function repeatedFailures(run, call) {
  for (const _ in run.failures)
    return run.failures[callFingerprint(call.tool, call.args, call.argsRaw)] ?? 0;
  return 0;
}
function classify(context, call) {
  const { config, state } = context;
  const missing = missingPaths(
    call,
    call.targets.map((target) => target.path)
  );
  if (missing.length > 0)
    return awaitEffect({ type: "probe", callId: call.callId, paths: missing });
  const classified = classifyInterruptedCall(
    call,
    config.tools.get(call.tool),
    state.tools.observations,
    config.idempotentTools,
    config.sha256,
    config.behaviour.flags
  );
  if (classified.action !== "ask") return emit(classified);
  return emit(
    classified,
    ...withDeadline(context, [
      {
        type: "approval_requested",
        callId: call.callId,
        tool: call.tool,
        tier: call.tier ?? "T2",
        reason: classified.reason
      }
    ])
  );
}
function missingPaths(call, paths) {
  return paths.filter((path) => !call.observed.includes(path));
}
function viewOf2(config, state, stageId) {
  const view = toolSessionView(state.tools, {
    workspaceRoot: state.session.workspace ?? "/",
    homeDirectory: config.homeDirectory
  });
  if (stageId === void 0) return view;
  const grantedHosts = activeGrants(state.grants, state.lastTimestamp ?? "").filter((grant) => grant.lifetime === "session" || grant.stageId === stageId).flatMap((grant) => grant.scope.kind === "host" ? [grant.scope.host] : []);
  return grantedHosts.length === 0 ? view : { ...view, grantedHosts };
}
function refuseTheRest(context, except, why) {
  const { config, stage, run } = context;
  const turn = run.turn;
  if (!config.behaviour.flags.has(ENDED_ATTEMPT_REFUSES_THE_REST.name) || turn?.status !== "acting")
    return [];
  return turn.calls.filter((call) => call.status === "proposed" && call.callId !== except).map(
    (call) => rejected(
      config,
      stage,
      call.callId,
      call.tool,
      "attempt_ended",
      `not run: the attempt ended before this call (${why})`
    )
  );
}
function rejected(config, stage, callId, toolName, reason, message) {
  const tool = config.tools.get(toolName);
  return {
    type: "tool_call_rejected",
    callId,
    stageId: stage.id,
    tool: toolName,
    reason,
    message,
    argsSchema: tool === void 0 ? null : toolArgsJsonSchema(tool)
  };
}

// src/core/kernel/decider/stage-artifact.ts
function proposedArtifact(state, stage, turn, sha256) {
  const text = answerTextOf(turn.result);
  const latest = /* @__PURE__ */ new Map();
  for (const artifact of state.accepted)
    if (artifact.stageId !== stage.id) latest.set(artifact.stageId, artifact.hash);
  const draft = (content) => ({
    kind: stage.artifact.kind,
    sessionId: state.session.sessionId ?? "",
    stageId: stage.id,
    content,
    lineage: { inferenceEventId: turn.inferenceEventId, parents: [...new Set(latest.values())] }
  });
  return createArtifact(draft(artifactContentFor(text)), sha256);
}
function verdictOf(content) {
  if (typeof content !== "object" || content === null || Array.isArray(content)) return void 0;
  const verdict = content.verdict;
  return typeof verdict === "string" ? verdict : void 0;
}

// src/core/kernel/decider/stage-answer.ts
function answer(context, turn) {
  const { config, stage } = context;
  const result2 = turn.result;
  const finishName = finishingToolName(stage);
  const finishingDue = config.behaviour.flags.has(FINISHING_TOOL.name) && turn.toolNames.includes(finishName);
  if (!finishingDue) {
    return result2.toolCalls.length === 0 ? proposeArtifact(context, turn) : proposeCalls(context, turn, null);
  }
  if (result2.toolCalls.length === 0) {
    const proposal = proposeArtifact(context, turn);
    const [proposed] = proposal.events;
    if (proposed?.type !== "artifact_proposed") return proposal;
    return {
      ...proposal,
      events: [
        proposed,
        {
          type: "validation_failed",
          hash: proposed.hash,
          stageId: stage.id,
          phase: "schema",
          validator: "finishing_tool",
          message: `a plain-text answer is not accepted: call the tool \`${finishName}\` with the \`${stage.artifact.kind}\` artifact as its arguments`
        }
      ]
    };
  }
  const only = result2.toolCalls.length === 1 ? result2.toolCalls[0] : void 0;
  if (only?.name === finishName) return proposeArtifact(context, turn);
  return proposeCalls(context, turn, finishName);
}
function proposeArtifact(context, turn) {
  const { config, state, run, stage } = context;
  const artifact = proposedArtifact(state, stage, turn, config.sha256);
  const tooDeep = answerBoundsProblem(answerTextOf(turn.result));
  return {
    kind: "emit",
    events: [
      {
        type: "artifact_proposed",
        hash: artifact.hash,
        kind: artifact.kind,
        stageId: stage.id,
        attempt: run.attempt,
        inferenceEventId: artifact.lineage.inferenceEventId,
        parents: artifact.lineage.parents
      },
      ...tooDeep === void 0 ? [] : [
        {
          type: "validation_failed",
          hash: artifact.hash,
          stageId: stage.id,
          phase: "schema",
          validator: "answer_bounds",
          message: `${tooDeep}: answer with the \`${stage.artifact.kind}\` artifact itself`
        }
      ]
    ],
    artifacts: [artifact]
  };
}
function proposeCalls(context, turn, finishName) {
  const { config, stage } = context;
  const result2 = turn.result;
  const callId = (index) => `${turn.requestId}.${index + 1}`;
  return emit(
    ...result2.toolCalls.map((call, index) => ({
      type: "tool_call_proposed",
      callId: callId(index),
      stageId: stage.id,
      tool: call.name,
      argsRaw: call.argsRaw,
      // Present only on answers recorded with a kept head, so older sessions derive the same bytes.
      ...call.argsLength === void 0 ? {} : { argsLength: call.argsLength }
    })),
    ...result2.toolCalls.flatMap(
      (call, index) => finishName !== null && call.name === finishName ? [
        rejected(
          config,
          stage,
          callId(index),
          call.name,
          "tool_not_allowed",
          `call ${finishName} alone, in a turn of its own, once the results of your other calls are back`
        )
      ] : index < config.limits.maxCallsPerTurn ? [] : [
        rejected(
          config,
          stage,
          callId(index),
          call.name,
          "call_limit",
          `only ${config.limits.maxCallsPerTurn} tool calls run per turn; propose the rest next turn`
        )
      ]
    )
  );
}

// src/core/kernel/features/journal/compact-journal.ts
var LINE_LIMIT = 200;
function entryLine(entry) {
  const first = entry.content.split("\n", 1)[0] ?? "";
  const cut = first.length > LINE_LIMIT ? `${first.slice(0, LINE_LIMIT)}\u2026` : first;
  return `- ${entry.role === "assistant" ? "you" : "correx"} (${entry.kind}): ${cut}`;
}
function boundedSummary(older, maxTokens) {
  const lines = older.flatMap(
    (entry) => entry.kind === "summary" ? entry.content.split("\n").slice(1) : [entryLine(entry)]
  );
  const heading = (omitted) => `Summary of earlier turns in this stage (${older.length} entries${omitted === 0 ? "" : `; the ${omitted} oldest lines left out`}):`;
  let budget = maxTokens - estimateTokens(heading(lines.length));
  let first = lines.length;
  while (first > 0) {
    const cost = estimateTokens(lines[first - 1]) + 1;
    if (cost > budget) break;
    budget -= cost;
    first -= 1;
  }
  return [heading(first), ...lines.slice(first)].join("\n");
}
function dueForCompaction(config, run) {
  const { compactJournalAfter, compactJournalKeep } = config.limits;
  if (run.transcript.length <= compactJournalAfter) return null;
  const older = run.transcript.slice(0, run.transcript.length - compactJournalKeep);
  return older.length === 0 ? null : older;
}
function linesCompaction(config, run, older) {
  const summary = config.behaviour.flags.has(BOUNDED_JOURNAL_SUMMARY.name) ? boundedSummary(older, config.limits.compactJournalMaxTokens) : [
    `Summary of earlier turns in this stage (${older.length} entries):`,
    ...older.map((entry) => entry.kind === "summary" ? entry.content : entryLine(entry))
  ].join("\n");
  return {
    type: "journal_compacted",
    stageId: run.stageId,
    attempt: run.attempt,
    throughSequence: older.at(-1).sequence,
    entries: older.length,
    summary
  };
}
function modelCompaction(config, run, older, requestId, text) {
  const written = text.trim();
  if (written === "") return null;
  const heading = `Summary of earlier turns in this stage (${older.length} entries, written by the model):`;
  return {
    ...linesCompaction(config, run, older),
    summary: cutToTokens(
      `${heading}
${written}`,
      config.limits.compactJournalMaxTokens,
      config.tokenizer.count
    ),
    requestId
  };
}
function cutToTokens(text, maxTokens, count2) {
  if (count2(text) <= maxTokens) return text;
  let fits = 0;
  let over = text.length;
  while (over - fits > 1) {
    const middle = Math.floor((fits + over) / 2);
    if (count2(`${text.slice(0, middle)}\u2026`) <= maxTokens) fits = middle;
    else over = middle;
  }
  return `${text.slice(0, fits)}\u2026`;
}

// src/core/inference/request-digest.ts
function inferenceRequestDigest(request, hash = sha256Hex) {
  return hash(canonicalJson(request));
}

// src/core/context/compress-head-tail.ts
function omissionMarker(omittedCharacters) {
  return `
[... ${omittedCharacters} characters omitted by correx ...]
`;
}
function compressHeadTail(content, maxTokens, tokenizer) {
  const whole = tokenizer.count(content);
  if (whole <= maxTokens) return { content, tokens: whole };
  const render = (keep) => {
    const headEnd = safeCut(content, Math.ceil(keep / 2));
    const tailStart = safeCut(content, content.length - Math.floor(keep / 2));
    return content.slice(0, headEnd) + omissionMarker(tailStart - headEnd) + content.slice(tailStart);
  };
  let best;
  let low = 0;
  let high = content.length - 1;
  while (low <= high) {
    const keep = low + high >>> 1;
    const text = render(keep);
    const tokens = tokenizer.count(text);
    if (tokens <= maxTokens) {
      best = { content: text, tokens };
      low = keep + 1;
    } else {
      high = keep - 1;
    }
  }
  return best;
}
function safeCut(text, index) {
  const code = text.charCodeAt(index - 1);
  return code >= 55296 && code <= 56319 ? index - 1 : index;
}

// src/core/context/context-candidate.ts
var PINNED_KINDS = /* @__PURE__ */ new Set([
  "guidance",
  "task",
  "steering",
  "tool_args_hint"
]);
function isPinned(candidate) {
  return candidate.pinned === true || candidate.layer === "L0" || PINNED_KINDS.has(candidate.kind);
}
var COMPRESSIBLE_KINDS = /* @__PURE__ */ new Set([
  "tool_result",
  "knowledge",
  "validation_feedback"
]);
function isCompressible(candidate) {
  return !isPinned(candidate) && COMPRESSIBLE_KINDS.has(candidate.kind);
}

// src/core/context/context-pack.ts
import { z as z14 } from "zod";
var TokenBudgetSchema = z14.strictObject({
  maxTokens: z14.number().int().positive(),
  reserveForOutput: z14.number().int().nonnegative().default(0)
});

// src/core/context/context-pack-settings.ts
var ContextInputError = class extends CorrexError {
  constructor(message) {
    super("context_input_invalid", message);
  }
};
var MIN_COMPRESS_TARGET = 32;
function resolveContextPackSettings(budget, options) {
  const parsed = TokenBudgetSchema.safeParse(budget);
  if (!parsed.success) {
    throw new ContextInputError(
      `invalid token budget: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`
    );
  }
  const available = parsed.data.maxTokens - parsed.data.reserveForOutput;
  if (available <= 0) {
    throw new ContextInputError(
      `reserveForOutput (${parsed.data.reserveForOutput}) leaves no room in maxTokens (${parsed.data.maxTokens})`
    );
  }
  const overhead = options.entryOverheadTokens ?? 4;
  const maxEntryTokens = options.maxEntryTokens ?? 2e3;
  const compressTarget = options.compressTargetTokens ?? 256;
  if (!Number.isInteger(overhead) || overhead < 0)
    throw new ContextInputError("entryOverheadTokens must be a non-negative integer");
  if (!Number.isInteger(compressTarget) || compressTarget < MIN_COMPRESS_TARGET) {
    throw new ContextInputError(
      `compressTargetTokens must be an integer of at least ${MIN_COMPRESS_TARGET}`
    );
  }
  if (!Number.isInteger(maxEntryTokens) || maxEntryTokens < compressTarget) {
    throw new ContextInputError(
      "maxEntryTokens must be an integer no smaller than compressTargetTokens"
    );
  }
  return { available, overhead, maxEntryTokens, compressTarget, hash: options.hash ?? sha256Hex };
}

// src/core/context/operating-guidance.ts
var OPERATING_GUIDANCE = [
  "Operating guidance:",
  "- Verify observed state before acting on it: read a file or run a check instead of assuming its content.",
  "- Create the project setup the task requires (directories, manifests, configuration) when it is missing.",
  "- Resolve small scope edges the task needs and move on; do not re-deliberate decisions already made."
].join("\n");
function operatingGuidanceCandidate() {
  return {
    id: "operating-guidance",
    layer: "L0",
    kind: "guidance",
    source: { kind: "builtin", id: "operating-guidance-v1" },
    content: OPERATING_GUIDANCE,
    order: 0
  };
}

// src/core/context/build-context-pack.ts
var PinnedContextOverBudgetError = class extends CorrexError {
  pinnedTokens;
  budgetTokens;
  constructor(pinnedTokens, budgetTokens) {
    super(
      "pinned_context_over_budget",
      `pinned context (L0, task, steering notes, guidance) needs ${pinnedTokens} tokens but the budget allows ${budgetTokens}; raise the budget or shorten the pinned entries`
    );
    this.pinnedTokens = pinnedTokens;
    this.budgetTokens = budgetTokens;
  }
};
var EVICTION_RANK = { L3: 0, L2: 1, L1: 2, L0: 3 };
var RENDER_RANK = { L0: 0, L3: 1, L2: 2, L1: 3 };
var NON_SPACE = /\S/;
function safeBuildContextPack(input, budget, tokenizer, options = {}) {
  const { available, overhead, maxEntryTokens, compressTarget, hash } = resolveContextPackSettings(
    budget,
    options
  );
  const candidates = [operatingGuidanceCandidate(), ...input.candidates];
  const excluded = [];
  const exclude = (c, index, tokens, reason, duplicateOf) => excluded.push({
    index,
    record: {
      id: c.id,
      layer: c.layer,
      kind: c.kind,
      source: c.source,
      tokens,
      reason,
      ...duplicateOf === void 0 ? {} : { duplicateOf }
    }
  });
  const ids = /* @__PURE__ */ new Set();
  const eligible = [];
  candidates.forEach((candidate, index) => {
    if (ids.has(candidate.id))
      throw new ContextInputError(`duplicate candidate id "${candidate.id}"`);
    ids.add(candidate.id);
    if (candidate.stageId !== void 0 && candidate.stageId !== input.stageId) {
      exclude(candidate, index, 0, "other_stage");
    } else if (!NON_SPACE.test(candidate.content)) {
      exclude(candidate, index, 0, "empty");
    } else {
      eligible.push({ candidate, index, pinned: isPinned(candidate) });
    }
  });
  const keepOrder = [...eligible].sort(
    (a, b) => Number(b.pinned) - Number(a.pinned) || EVICTION_RANK[b.candidate.layer] - EVICTION_RANK[a.candidate.layer] || b.candidate.order - a.candidate.order || a.index - b.index
  );
  const byContent = /* @__PURE__ */ new Map();
  const working = [];
  for (const { candidate, index, pinned } of keepOrder) {
    const keptId = byContent.get(candidate.content);
    if (keptId !== void 0) {
      exclude(candidate, index, 0, "duplicate", keptId);
      continue;
    }
    byContent.set(candidate.content, candidate.id);
    const tokens = tokenizer.count(candidate.content);
    const capped = !pinned && tokens > maxEntryTokens;
    working.push({
      candidate,
      index,
      pinned,
      originalTokens: tokens,
      planned: capped ? maxEntryTokens : tokens,
      compressedBecause: capped ? "entry_cap" : void 0,
      dropped: false
    });
  }
  const pinnedTokens = working.filter((w) => w.pinned).reduce((sum, w) => sum + w.planned + overhead, 0);
  if (pinnedTokens > available) {
    return { ok: false, error: new PinnedContextOverBudgetError(pinnedTokens, available) };
  }
  let total = working.reduce((sum, w) => sum + w.planned + overhead, 0);
  const evictionOrder = working.filter((w) => !w.pinned).sort(
    (a, b) => EVICTION_RANK[a.candidate.layer] - EVICTION_RANK[b.candidate.layer] || (a.candidate.relevance ?? 0.5) - (b.candidate.relevance ?? 0.5) || a.candidate.order - b.candidate.order || a.index - b.index
  );
  for (const w of evictionOrder) {
    if (total <= available) break;
    if (isCompressible(w.candidate) && w.planned > compressTarget) {
      total -= w.planned - compressTarget;
      w.planned = compressTarget;
      w.compressedBecause = "over_budget";
    }
  }
  for (const w of evictionOrder) {
    if (total <= available) break;
    w.dropped = true;
    total -= w.planned + overhead;
  }
  const entries = [];
  for (const w of working) {
    if (w.dropped) {
      exclude(w.candidate, w.index, w.originalTokens, "over_budget");
      continue;
    }
    let content = w.candidate.content;
    let tokens = w.originalTokens;
    if (w.compressedBecause !== void 0) {
      const compressed = compressHeadTail(content, w.planned, tokenizer);
      if (compressed === void 0) {
        exclude(w.candidate, w.index, w.originalTokens, "over_budget");
        continue;
      }
      content = compressed.content;
      tokens = compressed.tokens;
    }
    entries.push({
      id: w.candidate.id,
      layer: w.candidate.layer,
      kind: w.candidate.kind,
      role: w.candidate.role ?? "user",
      source: w.candidate.source,
      content,
      tokens,
      originalTokens: w.originalTokens,
      compression: w.compressedBecause === void 0 ? "none" : "head_tail",
      contentSha256: hash(content)
    });
  }
  const compressedBecause = new Map(working.map((w) => [w.candidate.id, w.compressedBecause]));
  const indexOf = new Map(working.map((w) => [w.candidate.id, w.index]));
  const orderOf = new Map(working.map((w) => [w.candidate.id, w.candidate.order]));
  entries.sort(
    (a, b) => RENDER_RANK[a.layer] - RENDER_RANK[b.layer] || (a.layer === "L0" ? 0 : orderOf.get(a.id) - orderOf.get(b.id)) || indexOf.get(a.id) - indexOf.get(b.id)
  );
  excluded.sort((a, b) => a.index - b.index);
  const totalTokens = entries.reduce((sum, entry) => sum + entry.tokens + overhead, 0);
  const included = entries.map((entry) => {
    const because = compressedBecause.get(entry.id);
    return {
      id: entry.id,
      layer: entry.layer,
      kind: entry.kind,
      source: entry.source,
      tokens: entry.tokens,
      originalTokens: entry.originalTokens,
      compression: entry.compression,
      ...because === void 0 ? {} : { compressedBecause: because },
      contentSha256: entry.contentSha256
    };
  });
  return {
    ok: true,
    pack: {
      stageId: input.stageId,
      entries,
      totalTokens,
      manifest: {
        budgetTokens: available,
        totalTokens,
        tokenizer: tokenizer.name,
        included,
        excluded: excluded.map((e) => e.record)
      }
    }
  };
}

// src/core/context/render-context-pack.ts
function renderContextPack(pack) {
  const system = pack.entries.filter((entry) => entry.layer === "L0").map((entry) => entry.content);
  const messages = [];
  if (system.length > 0) messages.push({ role: "system", content: system.join("\n\n") });
  for (const entry of pack.entries) {
    if (entry.layer !== "L0") messages.push({ role: entry.role, content: entry.content });
  }
  return messages;
}
function contextPackDigest(messages, hash = sha256Hex) {
  return hash(canonicalJson(messages));
}

// src/core/context/steering-note.ts
var SteeringNoteSchema = steeringNoteAdded.schema.omit({ type: true });
function steeringNotePayload(note) {
  return {
    type: "steering_note_added",
    sessionId: note.sessionId,
    content: note.content,
    ...note.stageId === void 0 ? {} : { stageId: note.stageId }
  };
}
function steeringNoteCandidate(note, eventId, sequence) {
  return {
    id: `steering:${eventId}`,
    layer: "L0",
    kind: "steering",
    source: { kind: "event", id: eventId },
    content: `Steering note from the operator:
${note.content}`,
    order: sequence,
    ...note.stageId === void 0 ? {} : { stageId: note.stageId }
  };
}

// src/core/context/context-feedback.ts
var BASE = 0.5;
var USE_GAIN = 0.15;
var IDLE_LOSS = 0.1;
var FLOOR = 0.05;
var CEILING = 0.95;
function feedbackRelevance(entries, turns) {
  const ordered = [...turns].sort((a, b) => a.sequence - b.sequence);
  const relevance = /* @__PURE__ */ new Map();
  for (const entry of entries) {
    if (entry.subjects.length === 0) continue;
    let uses = 0;
    let idle = 0;
    for (const turn of ordered) {
      if (turn.sequence <= entry.sequence) continue;
      if (entry.subjects.some((subject) => mentions(turn.calls, subject))) {
        uses += 1;
        idle = 0;
      } else idle += 1;
    }
    const score = BASE + USE_GAIN * uses - IDLE_LOSS * idle;
    relevance.set(entry.id, Math.round(Math.min(CEILING, Math.max(FLOOR, score)) * 100) / 100);
  }
  return relevance;
}
function mentions(text, subject) {
  let from = 0;
  for (; ; ) {
    const at2 = text.indexOf(subject, from);
    if (at2 < 0) return false;
    const before = text[at2 - 1];
    const after = text[at2 + subject.length];
    if ((before === void 0 || !/[\w.-]/.test(before)) && (after === void 0 || !/[\w.-]/.test(after)))
      return true;
    from = at2 + 1;
  }
}

// src/core/context/brief-echo-diff.ts
function briefEchoDiff(brief, content) {
  const text = textOf(content);
  const dropped = brief.filter((reference) => !text.includes(reference.value));
  const named = new Set(brief.map((reference) => `${reference.kind}:${reference.value}`));
  const invented = extractBriefReferences(text).filter(
    (reference) => (reference.kind === "path" || reference.kind === "issue") && !named.has(`${reference.kind}:${reference.value}`)
  );
  return { dropped, invented };
}
function textOf(content) {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map(textOf).join("\n");
  if (content !== null && typeof content === "object")
    return Object.values(content).map((value) => textOf(value)).join("\n");
  return content === null ? "" : canonicalJson(content);
}

// src/core/kernel/features/brief-references/brief-step.ts
function nextForBrief(config, state) {
  if (!config.behaviour.flags.has(BRIEF_REFERENCES.name) || state.brief !== null) return null;
  const workspace = state.session.workspace;
  if (workspace === null) return null;
  const references = extractBriefReferences(state.session.task ?? "");
  const paths = [
    ...new Set(
      references.filter((reference) => reference.kind === "path").map(
        (reference) => normalizeAbsolute(
          reference.value.startsWith("/") ? reference.value : `${workspace}/${reference.value}`
        )
      ).filter((path) => isPathInside(path, workspace) && path !== workspace)
    )
  ];
  const unobserved = paths.filter((path) => state.briefObservations[path] === void 0);
  if (unobserved.length > 0)
    return awaitEffect({ type: "probe", callId: BRIEF_PROBE, paths: unobserved });
  return emit({
    type: "brief_checked",
    references,
    missing: paths.flatMap((path) => {
      const observed = state.briefObservations[path];
      return observed.exists ? [] : [{ path, observedSequence: observed.sequence }];
    })
  });
}
function briefEchoEvent(config, state, stage, artifactHash, content) {
  if (!config.behaviour.flags.has(BRIEF_REFERENCES.name) || stage.role !== "planner") return null;
  if (state.brief === null || state.briefEcho?.artifactHash === artifactHash) return null;
  const echo = briefEchoDiff(state.brief.references, content);
  return {
    type: "brief_echo_compared",
    stageId: stage.id,
    artifactHash,
    dropped: [...echo.dropped],
    invented: [...echo.invented]
  };
}
function briefCandidates(config, state, beforeSequence) {
  if (!config.behaviour.flags.has(BRIEF_REFERENCES.name)) return [];
  const candidates = [];
  const brief = state.brief;
  const workspace = state.session.workspace ?? "/";
  if (brief !== null && brief.missing.length > 0 && brief.sequence < beforeSequence)
    candidates.push({
      id: "brief:missing",
      layer: "L1",
      kind: "validation_feedback",
      source: { kind: "config", id: "brief" },
      content: `The task names paths the workspace does not have: ${brief.missing.map((m) => `${m.path.slice(workspace.length + 1)} (event #${m.observedSequence})`).join(
        ", "
      )}. Create them only if the task asks for new files; otherwise the task may name the wrong file: say so.`,
      order: brief.sequence,
      pinned: true
    });
  const echo = state.briefEcho;
  if (echo !== null && echo.sequence < beforeSequence && echo.dropped.length + echo.invented.length > 0) {
    const list = (refs) => refs.map((r) => `${r.kind} ${r.value}`).join(", ");
    candidates.push({
      id: "brief:echo",
      layer: "L1",
      kind: "validation_feedback",
      source: { kind: "config", id: "brief-echo" },
      content: [
        `The ${echo.stageId} artifact compared with the task (event #${echo.sequence}):`,
        ...echo.dropped.length > 0 ? [`- the task names, the plan does not: ${list(echo.dropped)}`] : [],
        ...echo.invented.length > 0 ? [`- the plan names, the task does not: ${list(echo.invented)}`] : []
      ].join("\n"),
      order: echo.sequence,
      pinned: true
    });
  }
  return candidates;
}

// src/core/kernel/features/project-checks/check-summary.ts
function latestCheckRuns(runs) {
  const latest = /* @__PURE__ */ new Map();
  for (const run of runs) latest.set(run.name, run);
  return [...latest.values()];
}
function checkSummary(runs) {
  const latest = latestCheckRuns(runs);
  if (latest.length === 0) return null;
  const parts = latest.map(
    (run) => `${run.name} ${run.passed ? "passed" : `failed (exit ${run.exitCode ?? "none"})`} (event #${run.sequence})`
  );
  const failed = latest.filter((run) => !run.passed).length;
  return `checks: ${parts.join("; ")}${failed > 0 ? `; ${failed} not passing, not required` : ""}`;
}

// src/core/kernel/features/project-checks/evidence-candidates.ts
function evidenceCandidates(config, state, stage, run, beforeSequence) {
  const candidates = [];
  if (config.behaviour.flags.has(REVIEW_SEES_CHANGES.name) && stage.role === "reviewer") {
    const changes = state.changes.filter((change) => change.sequence < beforeSequence);
    const diff = recordedChangeDiff(changes);
    candidates.push({
      id: "evidence:changes",
      layer: "L1",
      kind: "tool_result",
      source: { kind: "config", id: "evidence-changes" },
      content: diff.length === 0 ? "The session recorded no file changes by write_file or edit_file." : `The session's file changes, from the recorded calls:
${diff.join("\n")}`,
      order: changes.at(-1)?.sequence ?? 0
    });
  }
  if (!config.behaviour.flags.has(CHECKS_BY_DEFAULT.name)) return candidates;
  const failure = state.lastStageFailure;
  const ownAttempt = failure?.stageId === run.stageId && failure.attempt === run.attempt;
  if (failure !== null && !ownAttempt && failure.sequence < beforeSequence)
    candidates.push({
      id: `failure:${failure.eventId}`,
      layer: "L1",
      kind: "validation_feedback",
      source: { kind: "event", id: failure.eventId },
      content: `Stage ${failure.stageId} (attempt ${failure.attempt}) failed (event #${failure.sequence}); fix what it names:
${failure.message}`,
      order: failure.sequence,
      pinned: true
    });
  if (stage.role === "reviewer") {
    const runs = latestCheckRuns(state.checkRuns.filter((r) => r.sequence < beforeSequence));
    const workspace = state.session.workspace ?? "/";
    const written = Object.keys(layeredEntries(state.written)).map(
      (path) => relativeInside(path, workspace) ?? path
    );
    const lines = [
      "Evidence recorded in this session (the log, not a claim):",
      runs.length === 0 ? "- no checks have run" : runs.map(
        (r) => `- check \`${r.name}\` (${r.command}) in stage ${r.stageId}: ${r.passed ? "passed" : `failed, exit ${r.exitCode ?? "none"}`} (event #${r.sequence})`
      ).join("\n"),
      written.length === 0 ? "- no file writes were recorded" : `- files written: ${written.join(", ")}`
    ];
    candidates.push({
      id: "evidence:checks",
      layer: "L1",
      kind: "validation_feedback",
      source: { kind: "config", id: "evidence" },
      content: lines.join("\n"),
      order: state.checkRuns.at(-1)?.sequence ?? 0,
      pinned: true
    });
  }
  return candidates;
}

// src/core/kernel/features/native-transcript/native-transcript.ts
var MISSING_RESULT = "No result of this call is in this context (it was not run, or its result was left out to fit the context).";
function renderNativeTranscript(pack, nativeOf) {
  const system = pack.entries.filter((entry) => entry.layer === "L0").map((entry) => entry.content);
  const messages = [];
  if (system.length > 0) messages.push({ role: "system", content: system.join("\n\n") });
  const entries = pack.entries.filter((entry) => entry.layer !== "L0");
  const resultsOf = /* @__PURE__ */ new Map();
  for (const entry of entries) {
    const native = nativeOf(entry.id);
    if (native?.type !== "result") continue;
    resultsOf.set(native.callId, [...resultsOf.get(native.callId) ?? [], entry]);
  }
  const placed = /* @__PURE__ */ new Set();
  entries.forEach((entry, index) => {
    if (placed.has(entry.id)) return;
    const native = nativeOf(entry.id);
    if (native?.type !== "calls") {
      messages.push({ role: entry.role, content: entry.content });
      return;
    }
    messages.push({
      role: "assistant",
      content: native.text,
      toolCalls: native.calls.map((call) => ({ ...call }))
    });
    for (const call of native.calls) {
      let results = resultsOf.get(call.callId) ?? [];
      if (results.length === 0) {
        const feedback = entries.slice(index + 1).find((later) => later.kind === "validation_feedback" && !placed.has(later.id));
        results = feedback === void 0 || !isFinishing(call.name) ? [] : [feedback];
      }
      for (const result2 of results) placed.add(result2.id);
      messages.push({
        role: "tool",
        callId: call.callId,
        toolName: call.name,
        content: results.length === 0 ? MISSING_RESULT : results.map((r) => r.content).join("\n\n")
      });
    }
  });
  return messages;
}
function isFinishing(toolName) {
  return toolName.startsWith("finish_");
}

// src/core/kernel/decider/stage-request.ts
function buildStageRequest(config, state, stage, run, requestId, beforeSequence = Number.POSITIVE_INFINITY) {
  const routed = routeStage(config, stage);
  if (!routed.ok) return { ok: false, category: "provider", message: routed.message };
  const { profile, tools } = routed;
  const flags = config.behaviour.flags;
  const finishing = flags.has(FINISHING_TOOL.name) && profile.capabilities.includes("tool_calling");
  const definitions = [
    ...tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: toolArgsJsonSchema(tool)
    })),
    ...finishing ? [finishingToolDefinition(stage)] : []
  ];
  const responseSchema = finishing ? void 0 : stage.artifact.schema;
  const definitionTokens = flags.has(BUDGET_REQUEST_DEFINITIONS.name) ? config.tokenizer.count(
    canonicalJson({ tools: definitions, responseSchema: responseSchema ?? null })
  ) : 0;
  const built = safeBuildContextPack(
    {
      stageId: stage.id,
      candidates: [
        ...candidatesFor(config, state, stage, run, beforeSequence, finishing),
        ...projectInstructionCandidates(config, state),
        ...config.knowledge !== void 0 && flags.has(REPOSITORY_KNOWLEDGE.name) ? [repositoryKnowledgeCandidate(config.knowledge)] : []
      ]
    },
    {
      maxTokens: profile.contextWindow,
      reserveForOutput: profile.maxOutputTokens + definitionTokens
    },
    config.tokenizer,
    { hash: config.sha256 }
  );
  if (!built.ok) return { ok: false, category: "inference", message: built.error.message };
  const messages = flags.has(NATIVE_TOOL_TRANSCRIPT.name) ? renderNativeTranscript(built.pack, nativeTurns(run)) : renderContextPack(built.pack);
  const request = {
    model: profile.model,
    messages,
    tools: definitions,
    ...responseSchema === void 0 ? {} : { responseSchema },
    limits: {
      maxOutputTokens: profile.maxOutputTokens,
      timeoutMs: config.limits.inferenceTimeoutMs
    }
  };
  return {
    ok: true,
    provider: profile.provider,
    request,
    requested: {
      type: "inference_requested",
      requestId,
      stageId: stage.id,
      provider: profile.provider,
      model: profile.model,
      profileId: profile.id,
      packDigest: contextPackDigest(messages, config.sha256),
      requestDigest: inferenceRequestDigest(request, config.sha256),
      tokenEstimate: built.pack.totalTokens + definitionTokens,
      toolNames: request.tools.map((tool) => tool.name),
      manifest: built.pack.manifest
    }
  };
}
function routeStage(config, stage) {
  const tools = stage.allowedTools.flatMap((name) => {
    const tool = config.tools.get(name);
    return tool === void 0 ? [] : [tool];
  });
  const route = config.router.route({
    stageId: stage.id,
    requiredCapabilities: stage.capabilities.filter(isCapability),
    allowedTools: tools.map((tool) => tool.name)
  });
  if (route.ok) return { ok: true, profile: route.profile, tools };
  const why = route.rejections.map((r) => `${r.profileId}: missing ${r.missingCapabilities.join(", ") || "nothing"}`).join("; ");
  return {
    ok: false,
    message: `no model profile can serve stage ${stage.id} (needs ${route.requiredCapabilities.join(", ")}): ${why || "no profiles configured"}`
  };
}
function candidatesFor(config, state, stage, run, beforeSequence, finishing) {
  const candidates = [
    {
      id: `stage:${stage.id}`,
      layer: "L0",
      kind: "system",
      source: { kind: "config", id: `stage:${stage.id}` },
      content: [
        `You are the ${stage.role} of stage \`${stage.id}\` (attempt ${run.attempt}).`,
        stage.instructions,
        finishing ? `Use the tools to inspect and change the workspace. When the stage is done, call the tool \`${finishingToolName(stage)}\` alone, with the \`${stage.artifact.kind}\` artifact as its arguments.` : `Use the tools to inspect and change the workspace. When the stage is done, answer with no tool calls and only the \`${stage.artifact.kind}\` artifact as JSON matching the response schema.`
      ].join("\n"),
      order: 0
    }
  ];
  if (state.session.task !== null) {
    candidates.push({
      id: "task",
      layer: "L1",
      kind: "task",
      source: { kind: "event", id: state.taskEventId ?? "session_created" },
      content: `Task: ${state.session.task}
Workspace: ${state.session.workspace ?? ""}`,
      order: 0
    });
  }
  for (const note of state.steering.filter((n) => n.sequence < beforeSequence)) {
    candidates.push(
      steeringNoteCandidate(
        {
          sessionId: state.session.sessionId ?? "",
          content: note.content,
          ...note.stageId === null ? {} : { stageId: note.stageId }
        },
        note.eventId,
        note.sequence
      )
    );
  }
  for (const artifact of state.accepted.filter((a) => a.sequence < beforeSequence)) {
    candidates.push({
      id: `artifact:${artifact.eventId}`,
      layer: "L2",
      kind: "brief",
      source: { kind: "artifact", id: artifact.hash },
      content: `Accepted ${artifact.kind} artifact ${artifact.hash} from stage ${artifact.stageId}:
${canonicalJson(artifact.content)}`,
      order: artifact.sequence
    });
  }
  const transcript = run.transcript.filter((e) => e.sequence < beforeSequence);
  const relevance = config.behaviour.flags.has(CONTEXT_FEEDBACK.name) ? feedbackRelevance(
    transcript.map((entry) => ({
      id: entry.eventId,
      subjects: entry.subjects ?? [],
      sequence: entry.sequence
    })),
    transcript.filter((entry) => entry.kind === "turn").map((entry) => ({ sequence: entry.sequence, calls: entry.content }))
  ) : /* @__PURE__ */ new Map();
  for (const entry of transcript) {
    const ranked = relevance.get(entry.eventId);
    candidates.push({
      ...ranked === void 0 ? {} : { relevance: ranked },
      id: candidateId(entry),
      layer: "L1",
      kind: entry.kind,
      source: { kind: "event", id: entry.eventId },
      content: entry.content,
      order: entry.sequence,
      role: entry.role
    });
  }
  candidates.push(...evidenceCandidates(config, state, stage, run, beforeSequence));
  candidates.push(...briefCandidates(config, state, beforeSequence));
  return candidates;
}
function nativeTurns(run) {
  const byId = /* @__PURE__ */ new Map();
  for (const entry of run.transcript)
    if (entry.native !== void 0) byId.set(candidateId(entry), entry.native);
  return (entryId) => byId.get(entryId);
}
function candidateId(entry) {
  return `${entry.kind}:${entry.eventId}`;
}
function projectInstructionCandidates(config, state) {
  if (!config.behaviour.flags.has(PROJECT_INSTRUCTIONS.name) || config.instructions === void 0)
    return [];
  const workspace = state.session.workspace ?? "";
  const touched = Object.keys(layeredEntries(state.tools.observations)).flatMap((path) => {
    const relative = relativeInside(path, workspace);
    return relative === void 0 ? [] : [relative];
  });
  return instructionCandidates(config.instructions, touched);
}
function isCapability(value) {
  return ModelCapabilitySchema.safeParse(value).success;
}

// src/core/kernel/features/journal/journal-summary-request.ts
var ENTRY_CHARS = 2e3;
function buildSummaryRequest(config, stage, run, older) {
  const routed = routeStage(config, stage);
  if (!routed.ok) return routed;
  const { profile } = routed;
  const maxOutputTokens = Math.min(profile.maxOutputTokens, config.limits.compactJournalMaxTokens);
  const instructions = [
    "You keep the working memory of a coding agent. Below is the older part of its journal in one",
    `stage (\`${stage.id}\`, the ${stage.role}): its own turns and what correx answered them.`,
    "Summarise it for the agent to read instead: what was done, what was learned about the code,",
    "what was decided and why, and what is still open. Keep file paths, commands, error messages",
    `and numbers exactly. Write at most about ${maxOutputTokens} tokens. Answer with the summary`,
    "only."
  ].join(" ");
  const budget = profile.contextWindow - maxOutputTokens - config.tokenizer.count(instructions);
  const lines = [];
  let used = 0;
  for (let index = older.length - 1; index >= 0; index--) {
    const line = journalLine(older[index]);
    const cost = config.tokenizer.count(line) + 1;
    if (used + cost > budget) break;
    used += cost;
    lines.unshift(line);
  }
  const left = older.length - lines.length;
  const journal = [
    `The journal, oldest first (${older.length} entries${left === 0 ? "" : `; the ${left} oldest did not fit and are left out`}):`,
    ...lines
  ].join("\n");
  const request = {
    model: profile.model,
    messages: [
      { role: "system", content: instructions },
      { role: "user", content: journal }
    ],
    tools: [],
    limits: { maxOutputTokens, timeoutMs: config.limits.inferenceTimeoutMs }
  };
  const throughSequence = older.at(-1).sequence;
  return {
    ok: true,
    provider: profile.provider,
    request,
    requested: {
      type: "journal_summary_requested",
      requestId: summaryRequestId(run, throughSequence),
      stageId: run.stageId,
      attempt: run.attempt,
      throughSequence,
      entries: older.length,
      provider: profile.provider,
      model: profile.model,
      profileId: profile.id,
      requestDigest: inferenceRequestDigest(request, config.sha256),
      tokenEstimate: config.tokenizer.count(instructions) + used
    }
  };
}
function journalLine(entry) {
  const who = entry.kind === "summary" ? "earlier summary" : entry.role === "assistant" ? "agent" : "correx";
  const content = entry.content.length > ENTRY_CHARS ? `${entry.content.slice(0, ENTRY_CHARS)}\u2026 (${entry.content.length - ENTRY_CHARS} more characters)` : entry.content;
  return `[${who}, ${entry.kind}] ${content}`;
}

// src/core/kernel/decider/recorded-infer-effect.ts
function recordedInferEffect(built, recorded, rebuild) {
  let request = built.get(recorded.requestId);
  if (request === void 0) {
    const rebuilt = rebuild();
    if (rebuilt === null || rebuilt.requestDigest !== recorded.requestDigest)
      throw new KernelInvariantError(
        `the pending request ${recorded.requestId} cannot be rebuilt as recorded (digest ${recorded.requestDigest}); was the kernel configuration changed?`
      );
    request = rebuilt.request;
  }
  return {
    type: "infer",
    requestId: recorded.requestId,
    provider: recorded.provider,
    request,
    requestDigest: recorded.requestDigest
  };
}

// src/core/kernel/features/journal/journal-step.ts
function journalStep(context) {
  const { config, run } = context;
  const pending = run.summary;
  if (pending !== null) {
    const older2 = run.transcript.filter((entry) => entry.sequence <= pending.throughSequence);
    switch (pending.answer.status) {
      case "requested":
        return awaitEffect(summaryEffect(context, pending, older2));
      case "answered":
        return emit(
          modelCompaction(config, run, older2, pending.requestId, pending.answer.text) ?? linesCompaction(config, run, older2)
        );
      case "failed":
        return emit(linesCompaction(config, run, older2));
    }
  }
  const older = dueForCompaction(config, run);
  if (older === null) return null;
  if (config.journalSummary !== "model") return emit(linesCompaction(config, run, older));
  const built = buildSummaryRequest(config, context.stage, run, older);
  if (!built.ok) return emit(linesCompaction(config, run, older));
  context.built.set(built.requested.requestId, built.request);
  return emit(built.requested);
}
function summaryEffect(context, pending, older) {
  const { config, run, stage } = context;
  return recordedInferEffect(context.built, pending, () => {
    const rebuilt = buildSummaryRequest(config, stage, run, older);
    return rebuilt.ok ? { request: rebuilt.request, requestDigest: rebuilt.requested.requestDigest } : null;
  });
}

// src/core/kernel/features/claims-against-log/claims-against-log.ts
function filesChangedFailure(config, state, content) {
  if (!config.behaviour.flags.has(CLAIMS_AGAINST_LOG.name)) return null;
  if (typeof content !== "object" || content === null || Array.isArray(content)) return null;
  const claimed = content.filesChanged;
  if (!Array.isArray(claimed)) return null;
  const workspace = state.session.workspace ?? "/";
  const problems = [];
  for (const entry of claimed) {
    if (typeof entry !== "string") continue;
    const path = normalizeAbsolute(entry.startsWith("/") ? entry : `${workspace}/${entry}`);
    if (layeredHas(state.written, path)) continue;
    const denied2 = state.deniedWrites.find((write) => write.path === path);
    if (denied2 !== void 0)
      problems.push(
        `\`${entry}\`: its write was denied (call ${denied2.callId}, event #${denied2.sequence}) and nothing else wrote it`
      );
    else if (state.commandsRan === 0)
      problems.push(`\`${entry}\`: no recorded write changed it and no command ran`);
  }
  if (problems.length === 0) return null;
  return `filesChanged does not match the log; list only files that were changed:
${problems.map((p) => `- ${p}`).join("\n")}`;
}

// src/core/kernel/features/project-checks/dod-checks.ts
var DIAGNOSTIC = /^(?<path>[^\s:()][^:()]*?)(?::(?<line1>\d+)(?::\d+)?|\((?<line2>\d+)(?:,\d+)?\))\s*(?::|-)\s*(?<message>\S.*)$/;
function parseDiagnostics(output, workspaceRoot) {
  const diagnostics = [];
  for (const raw of output.split("\n")) {
    const match = DIAGNOSTIC.exec(raw.trim());
    if (match?.groups === void 0) continue;
    const { path, line1, line2, message } = match.groups;
    const absolute = normalizeAbsolute(path.startsWith("/") ? path : `${workspaceRoot}/${path}`);
    if (!isPathInside(absolute, workspaceRoot)) continue;
    const line = line1 ?? line2;
    diagnostics.push({
      path: absolute,
      line: line === void 0 ? null : Number(line),
      message
    });
  }
  return diagnostics;
}
function definitionOfDoneChecks(stage) {
  return (stage.definitionOfDone?.checks ?? []).map((check2) => ({
    name: check2.name,
    command: check2.command,
    advisory: false,
    forgivesUnwritten: true
  }));
}
function evaluateChecks(checks, results, written, workspaceRoot, citeEvidence = false) {
  const failures = [];
  const advisoryFailures = [];
  for (const check2 of checks) {
    const result2 = results.find((candidate) => candidate.name === check2.name);
    if (result2 === void 0)
      return { done: false, next: { name: check2.name, command: check2.command } };
    if (result2.outcome === "completed" && result2.exitCode === 0) continue;
    const diagnostics = parseDiagnostics(result2.output, workspaceRoot);
    const counted = diagnostics.filter((diagnostic) => written.includes(diagnostic.path));
    if (check2.forgivesUnwritten && result2.outcome === "completed" && diagnostics.length > 0 && counted.length === 0)
      continue;
    const why = counted.length > 0 ? counted.slice(0, 20).map(
      (d) => `${d.path.slice(workspaceRoot.length + 1)}${d.line === null ? "" : `:${d.line}`}: ${d.message}`
    ).join("\n") : `${result2.outcome}, exit code ${result2.exitCode ?? "none"}:
${result2.output.slice(-2e3)}`;
    const kind = check2.forgivesUnwritten ? "definition-of-done check" : "check";
    const line = `${kind} \`${check2.name}\` (${check2.command}) failed${citeEvidence ? ` (event #${result2.sequence})` : ""}:
${why}`;
    (check2.advisory ? advisoryFailures : failures).push(line);
  }
  return { done: true, failures, advisoryFailures };
}

// src/core/kernel/features/project-checks/stage-checks.ts
var CHECKED_ROLES = /* @__PURE__ */ new Set(["verifier", "reviewer"]);
function checksForStage(config, state, stage) {
  const own = definitionOfDoneChecks(stage);
  if (!config.behaviour.flags.has(CHECKS_BY_DEFAULT.name) || !CHECKED_ROLES.has(stage.role))
    return own;
  const named = new Set(own.map((check2) => check2.name));
  const project = effectiveProjectChecks(state.projectChecks?.checks ?? [], config.checks).filter((check2) => !named.has(check2.name)).map((check2) => ({ ...check2, forgivesUnwritten: false }));
  return [...own, ...project];
}
function needsCheckDetection(config, state) {
  return config.behaviour.flags.has(CHECKS_BY_DEFAULT.name) && state.projectChecks === null && state.session.workspace !== null;
}

// src/core/kernel/features/language-diagnostics/language-diagnostics-step.ts
var CHECKED_ROLES2 = /* @__PURE__ */ new Set(["verifier", "reviewer"]);
var SOURCE = /\.(?:[cm]?[jt]s|[jt]sx)$/;
function diagnosticsVerdict(config, state, stage, run) {
  if (!config.behaviour.flags.has(LSP_DIAGNOSTICS.name) || !CHECKED_ROLES2.has(stage.role))
    return { kind: "none" };
  const files = Object.keys(layeredEntries(state.written)).filter((path) => SOURCE.test(path));
  if (files.length === 0) return { kind: "none" };
  const recorded = run.diagnostics;
  if (recorded === null)
    return {
      kind: "await",
      effect: { type: "run_diagnostics", stageId: run.stageId, attempt: run.attempt, files }
    };
  const workspace = state.session.workspace ?? "/";
  const errors = recorded.files.flatMap(
    (file) => file.diagnostics.filter((d) => d.severity === "error").map(
      (d) => `${file.path.startsWith(`${workspace}/`) ? file.path.slice(workspace.length + 1) : file.path}:${d.line}:${d.column}: error${d.code === null ? "" : ` TS${d.code}`}: ${d.message}`
    )
  );
  if (errors.length === 0) return { kind: "none" };
  return {
    kind: "failed",
    message: `${recorded.server} reports errors in files this session wrote (event #${recorded.sequence}):
${errors.slice(0, 30).join("\n")}`
  };
}

// src/core/kernel/features/verdict-from-evidence/verdict-from-evidence.ts
function verdictFailure(config, stage, run, content) {
  if (!config.behaviour.flags.has(VERDICT_FROM_EVIDENCE.name) || stage.role !== "verifier")
    return null;
  const claim = typeof content === "object" && content !== null && !Array.isArray(content) ? content : {};
  const summary = typeof claim.summary === "string" ? claim.summary : "";
  if (claim.passed === false)
    return `stage ${stage.id} reported that the change does not pass: ${summary || "no summary"}`;
  const failing = unresolvedFailures(run.commands);
  if (failing.length === 0) return null;
  const lines = failing.map(
    (command) => `- \`${command.command}\` exited ${command.exitCode ?? "without an exit code"} (event #${command.sequence}):
${command.output.slice(-1500)}`
  );
  return `stage ${stage.id} claims passed, but the recorded evidence says otherwise; these commands failed and were not run again successfully:
${lines.join("\n")}`;
}
function unresolvedFailures(commands) {
  const last = /* @__PURE__ */ new Map();
  for (const command of commands) last.set(command.command, command);
  return [...last.values()].filter((command) => !command.succeeded);
}

// src/core/kernel/features/subagents/subagent-step.ts
function nextForSubagent(context, subagentStage) {
  const { state, run, stage } = context;
  const subagent = run.subagent;
  if (subagent === null) {
    const started = (state.subagents[stage.id] ?? 0) + 1;
    return emit({
      type: "subagent_started",
      stageId: stage.id,
      attempt: run.attempt,
      childSessionId: childSessionIdOf(state.session.sessionId ?? "", stage.id, started),
      workflowId: subagentStage.workflow,
      task: subagentTask(subagentStage.task, state.session.task ?? "")
    });
  }
  const turn = run.turn;
  if (subagent.status === "running") {
    const delay = state.retryDelay;
    if (delay?.started === true && (turn === null || isTurnFinished(turn)))
      return awaitEffect({ type: "wait", until: delay.until, delayMs: delay.delayMs });
    return awaitEffect({
      type: "run_subagent",
      childSessionId: subagent.childSessionId,
      workflowId: subagent.workflowId,
      task: subagent.task,
      stageId: run.stageId,
      attempt: run.attempt,
      startedEventId: subagent.eventId
    });
  }
  if (subagent.failure !== null)
    return emit(stageFailed(run, subagent.failure.category, subagent.failure.message));
  if (turn === null || isTurnFinished(turn)) {
    const feedback = run.transcript.filter((entry) => entry.kind === "validation_feedback").map((entry) => entry.content);
    return emit(
      stageFailed(
        run,
        "validation",
        [
          `the artifact of sub-session ${subagent.childSessionId} was not accepted`,
          ...feedback
        ].join("\n")
      )
    );
  }
  return null;
}
function childSessionIdOf(parentSessionId, stageId, ordinal) {
  return `${parentSessionId}.${stageId}.${ordinal}`;
}
function subagentTask(template, parentTask) {
  return template.replaceAll("{{task}}", parentTask);
}

// src/core/kernel/decider/stage-step.ts
function nextInStage(config, state, run, built) {
  const stage = config.workflow.stages.get(run.stageId);
  if (stage === void 0)
    return emit(
      stageFailed(run, "transition", `workflow ${config.workflow.id} has no stage ${run.stageId}`)
    );
  const context = { config, state, run, stage, built };
  if (stage.subagent !== void 0) {
    const delegated = nextForSubagent(context, stage.subagent);
    if (delegated !== null) return delegated;
  }
  const strike = referenceStrikeFailure(run);
  if (strike !== null)
    return emit(
      ...refuseTheRest(context, null, strike.type === "stage_failed" ? strike.message : ""),
      strike
    );
  const turn = run.turn;
  if (turn === null || isTurnFinished(turn)) return nextTurn(context);
  switch (turn.status) {
    case "requested":
      return awaitEffect(inferEffect(context, turn));
    case "failed":
      return afterFailedCall(context, turn);
    case "answered":
      return answer(context, turn);
    case "acting":
      return act(context, turn);
  }
}
var TRANSIENT_WAIT_BOUND_MS = 3e5;
function afterFailedCall(context, turn) {
  const { config, run, stage } = context;
  const wait = turn.failure.transientWaitMs;
  if (config.behaviour.flags.has(TRANSIENT_PROVIDER_WAITS.name) && wait !== null) {
    const bound = stage.retry.providerWaitMs ?? TRANSIENT_WAIT_BOUND_MS;
    if (run.providerWaitedMs + wait <= bound) return nextTurn(context);
    return emit(
      stageFailed(
        run,
        turn.failure.category,
        `still failing after ${run.providerRetries} ${run.providerRetries === 1 ? "retry" : "retries"} over ${Math.round(run.providerWaitedMs / 1e3)} s of waits: ${turn.failure.message}`
      )
    );
  }
  return emit(stageFailed(run, turn.failure.category, turn.failure.message));
}
function nextTurn(context) {
  const { config, state, run, stage } = context;
  if (run.turns - run.providerRetries >= config.limits.maxTurnsPerStage) {
    return emit(
      stageFailed(
        run,
        "inference",
        `stage ${run.stageId} used its ${config.limits.maxTurnsPerStage} turns without an accepted artifact`
      )
    );
  }
  const delay = state.retryDelay;
  if (delay !== null) {
    return delay.started ? awaitEffect({ type: "wait", until: delay.until, delayMs: delay.delayMs }) : emit({
      type: "retry_delay_started",
      requestId: delay.requestId,
      provider: delay.provider,
      delayMs: delay.delayMs,
      until: delay.until
    });
  }
  const spent = beforeModelCall(featureCoreOf(config, state), run);
  if (spent !== null) return spent;
  const compaction = journalStep(context);
  if (compaction !== null) return compaction;
  const requestId = `${run.stageId}.${run.attempt}.${run.turns + 1}`;
  const request = buildStageRequest(config, state, stage, run, requestId);
  if (!request.ok) return emit(stageFailed(run, request.category, request.message));
  context.built.set(requestId, request.request);
  return emit(request.requested);
}
function inferEffect(context, turn) {
  const { config, state, run, stage } = context;
  return recordedInferEffect(context.built, turn, () => {
    const rebuilt = buildStageRequest(
      config,
      state,
      stage,
      run,
      turn.requestId,
      turn.requestedSequence
    );
    return rebuilt.ok ? { request: rebuilt.request, requestDigest: rebuilt.requested.requestDigest } : null;
  });
}
function act(context, turn) {
  const { config, state, run, stage } = context;
  const proposed = turn.artifact;
  if (proposed === null) {
    const call = currentCall(turn);
    return call === void 0 ? IDLE : nextForCall(context, call);
  }
  if (proposed.status === "accepted") {
    const stageChecks = checksForStage(config, state, stage);
    if (stageChecks.length > 0) {
      const checks = evaluateChecks(
        stageChecks,
        run.checks,
        Object.keys(layeredEntries(state.written)),
        state.session.workspace ?? "/",
        config.behaviour.flags.has(CHECKS_BY_DEFAULT.name)
      );
      if (!checks.done)
        return awaitEffect({
          type: "run_analysis",
          stageId: run.stageId,
          attempt: run.attempt,
          ...checks.next
        });
      if (checks.failures.length > 0)
        return emit(stageFailed(run, "validation", checks.failures.join("\n\n")));
    }
    const language = diagnosticsVerdict(config, state, stage, run);
    if (language.kind === "await") return awaitEffect(language.effect);
    if (language.kind === "failed") return emit(stageFailed(run, "validation", language.message));
    const content = answerContent(config, turn.result);
    const unproven = verdictFailure(config, stage, run, content);
    if (unproven !== null) return emit(stageFailed(run, "validation", unproven));
    const echo = briefEchoEvent(config, state, stage, proposed.hash, content);
    if (echo !== null) return emit(echo);
    const reviewed = afterAcceptedArtifact(featureCoreOf(config, state), {
      stage,
      run,
      artifactHash: proposed.hash,
      content,
      workspace: state.session.workspace,
      checkRuns: state.checkRuns
    });
    if (reviewed !== null) return reviewed;
    const verdict = stage.verdicts.length > 0 ? verdictOf(content) : void 0;
    return emit({
      type: "stage_completed",
      stageId: stage.id,
      attempt: run.attempt,
      artifactHash: proposed.hash,
      ...verdict === void 0 ? {} : { verdict }
    });
  }
  const approval2 = proposed.approval;
  if (approval2?.status === "pending")
    return awaitEffect({ type: "await_approval", callId: artifactApprovalKey(proposed.hash) });
  if (approval2?.status === "denied") {
    return emit({
      type: "validation_failed",
      hash: proposed.hash,
      stageId: stage.id,
      phase: "approval",
      validator: "approval",
      message: `${approval2.by} did not approve this artifact: ${approval2.reason}`
    });
  }
  if (proposed.status === "proposed" && stage.subagent === void 0) {
    const falseClaim = filesChangedFailure(config, state, answerContent(config, turn.result));
    if (falseClaim !== null)
      return emit({
        type: "validation_failed",
        hash: proposed.hash,
        stageId: stage.id,
        phase: "semantic",
        validator: "claims-against-log",
        message: falseClaim
      });
  }
  const workspace = state.session.workspace ?? "/";
  const result2 = validateArtifact({
    canonical: config.behaviour.flags.has(DECISIONS_FROM_CANONICAL_OUTPUT.name),
    workflow: config.workflow,
    registry: config.validators,
    artifact: proposed.artifact,
    context: {
      sessionId: state.session.sessionId ?? "",
      activeStage: { stageId: run.stageId, attempt: run.attempt },
      acceptedArtifacts: state.accepted.map(({ hash, kind, stageId }) => ({ hash, kind, stageId })),
      grantedApprovals: state.session.grantedApprovals,
      observations: Object.values(layeredEntries(state.tools.observations)).flatMap(
        (observation) => {
          const path = relativeInside(observation.path, workspace);
          return path === void 0 || path === "" ? [] : [{ path, exists: observation.kind !== "missing" }];
        }
      )
    }
  });
  if (!result2.accepted && result2.phase === "approval")
    return emit(...decideArtifactApproval(state.mode, stage, run, proposed.hash));
  return emit(...result2.events);
}
function answerContent(config, result2) {
  const content = artifactContentOf(answerTextOf(result2));
  return config.behaviour.flags.has(DECISIONS_FROM_CANONICAL_OUTPUT.name) ? canonicalValue(content) : content;
}

// src/core/kernel/decider/next-step.ts
function nextStep(config, state, built) {
  const session = state.session;
  if (session.status === "created") {
    if (session.workflowId !== config.workflow.id) {
      return emit({
        type: "workflow_failed",
        category: "transition",
        message: `session asks for workflow ${session.workflowId ?? "?"} but the kernel runs ${config.workflow.id}`
      });
    }
    return emit({
      type: "workflow_started",
      workflowId: config.workflow.id,
      firstStageId: config.workflow.initialStage
    });
  }
  if (session.status !== "running") return IDLE;
  const phase = state.phase;
  switch (phase.kind) {
    case "ending": {
      const finalStageId = session.lastStageId ?? config.workflow.initialStage;
      const cite = config.behaviour.flags.has(CLAIMS_AGAINST_LOG.name);
      if (phase.ending.result === "completed") {
        const summary = cite ? checkSummary(state.checkRuns) : null;
        return emit({
          type: "workflow_completed",
          finalStageId,
          ...summary === null ? {} : { summary }
        });
      }
      const cause = cite ? state.lastStageFailure : null;
      return emit({
        type: "workflow_failed",
        category: phase.ending.category,
        message: cause === null ? phase.ending.message : `${phase.ending.message}: stage ${cause.stageId} attempt ${cause.attempt} failed (event #${cause.sequence}): ${cause.message}`,
        stageId: finalStageId
      });
    }
    case "stuck":
      return emit({
        type: "workflow_failed",
        category: "transition",
        message: phase.message,
        ...session.lastStageId === null ? {} : { stageId: session.lastStageId }
      });
    case "not_started":
    case "final":
      return IDLE;
    case "between_stages":
    case "transitioning":
    case "in_stage":
      break;
    default:
      return assertNever(phase, "kernel phase");
  }
  if (state.redirect !== null) return emit(...decideRedirect(config, state, state.redirect));
  switch (phase.kind) {
    case "transitioning": {
      const at2 = transitionStateOf(session);
      if (at2 === null)
        return emit({
          type: "workflow_failed",
          category: "transition",
          message: "a stage outcome with no stage"
        });
      return emit(
        evaluateTransition(config.workflow, at2, inPlace(config, at2.stageId, phase.outcome)).event
      );
    }
    case "in_stage":
      return nextInStage(config, state, phase.run, built);
    case "between_stages": {
      if (session.nextStage === null) return IDLE;
      if (needsCheckDetection(config, state)) return awaitEffect({ type: "detect_checks" });
      const brief = nextForBrief(config, state);
      if (brief !== null) return brief;
      return emit(...eventsBeforeStage(featureCoreOf(config, state), session.nextStage), {
        type: "stage_started",
        stageId: session.nextStage.stageId,
        attempt: session.nextStage.attempt
      });
    }
  }
}
function inPlace(config, stageId, outcome2) {
  if (outcome2.kind !== "failed" || outcome2.category !== "workspace_precondition") return outcome2;
  const stage = config.workflow.stages.get(stageId);
  return stage !== void 0 && canCreateFiles(stage, config.tools) ? { ...outcome2, retryInPlace: true } : outcome2;
}

// src/core/kernel/decider/decide.ts
var MAX_EVENTS_PER_DECISION = 1e4;
function decide(config, state, input) {
  const events = [];
  const artifacts = [];
  const built = /* @__PURE__ */ new Map();
  let current = state;
  for (; ; ) {
    const step = nextStep(config, current, built);
    if (step.kind !== "emit")
      return {
        events,
        effect: step.kind === "await" ? step.effect : null,
        artifacts,
        state: current,
        built
      };
    artifacts.push(...step.artifacts ?? []);
    for (const payload of step.events) {
      if (events.length >= MAX_EVENTS_PER_DECISION) {
        throw new KernelInvariantError(
          `decide did not settle after ${MAX_EVENTS_PER_DECISION} events for input ${input.eventId}`
        );
      }
      const run = runOf(current);
      const decided = {
        eventId: derivedEventId(input.sessionId, input.eventId, events.length, config.sha256),
        sessionId: input.sessionId,
        causationId: input.eventId,
        correlationId: run === null ? null : `${run.stageId}.${run.attempt}`,
        payload
      };
      events.push(decided);
      current = kernelProjection.evolve(current, {
        eventId: decided.eventId,
        sessionId: decided.sessionId,
        causationId: decided.causationId,
        correlationId: decided.correlationId,
        payload,
        sequence: current.session.lastSequence + 1,
        timestamp: input.timestamp,
        version: 1,
        position: 0,
        hash: ""
      });
    }
  }
}
function pendingEffect(config, state, built = /* @__PURE__ */ new Map()) {
  const step = nextStep(config, state, built);
  if (step.kind === "emit") return { settled: false };
  return { settled: true, effect: step.kind === "await" ? step.effect : null };
}
function derivedEventId(sessionId, causationId, index, sha256 = sha256Hex) {
  return `ev-${sha256(`${sessionId}
${causationId}
${index}`).slice(0, 40)}`;
}

// src/core/kernel/decider/effect.ts
var effectResults = {
  infer: {
    results: ["inference_completed", "inference_failed"],
    answers: (effect, payload) => (payload.type === "inference_completed" || payload.type === "inference_failed") && effect.requestId === payload.requestId
  },
  probe: {
    results: ["world_observed"],
    answers: (effect, payload) => payload.type === "world_observed" && effect.callId === payload.callId && effect.paths.includes(payload.observation.path)
  },
  execute: {
    results: ["tool_receipt"],
    answers: (effect, payload) => payload.type === "tool_receipt" && effect.callId === payload.callId
  },
  run_analysis: {
    results: ["dod_check_ran"],
    answers: (effect, payload) => payload.type === "dod_check_ran" && effect.name === payload.name
  },
  run_diagnostics: {
    results: ["language_diagnostics_recorded"],
    answers: (effect, payload) => payload.type === "language_diagnostics_recorded" && effect.stageId === payload.stageId && effect.attempt === payload.attempt
  },
  detect_checks: {
    results: ["project_checks_detected"],
    answers: (_effect, payload) => payload.type === "project_checks_detected"
  },
  wait: {
    results: ["retry_delay_elapsed"],
    answers: (effect, payload) => payload.type === "retry_delay_elapsed" && effect.until === payload.until
  },
  run_subagent: {
    results: ["subagent_finished"],
    answers: (effect, payload) => payload.type === "subagent_finished" && effect.childSessionId === payload.childSessionId
  },
  run_pre_tool_use_hooks: {
    results: ["pre_tool_use_hooks_ran"],
    answers: (effect, payload) => payload.type === "pre_tool_use_hooks_ran" && effect.callId === payload.callId
  },
  // Answered by a person's `approval_granted` / `approval_denied` (a command, not a result), or
  // past its deadline by `approval_timed_out`.
  await_approval: {
    results: ["approval_timed_out"],
    answers: (effect, payload) => payload.type === "approval_timed_out" && effect.callId === payload.callId && effect.deadline === payload.deadline
  }
};
var effectResultTypes = new Set(
  Object.values(effectResults).flatMap((entry) => entry.results)
);
function answersEffect(effect, payload) {
  if (effect === void 0) return false;
  const entry = effectResults[effect.type];
  return entry.answers(effect, payload);
}

// src/core/kernel/runner/replay-session.ts
async function replaySession(store, sessionId, config, options = {}) {
  const kernelConfig = config ?? await recordedKernelConfig(store, sessionId, options.sha256);
  const from = options.fromSequence ?? 0;
  let state = kernelProjection.initial();
  let expected = [];
  let nextExpected = 0;
  let pending = null;
  let built = /* @__PURE__ */ new Map();
  let inputs = 0;
  let decided = 0;
  let events = 0;
  let batchMatched = 0;
  const fail = (divergence) => ({ ok: false, divergence, state });
  const stream = store.stream(sessionId)[Symbol.asyncIterator]();
  let next = await stream.next();
  while (next.done !== true) {
    const event = next.value;
    next = await stream.next();
    events += 1;
    if (event.sequence <= from || inputs === 0 && from > 0 && !isInputEvent(event.payload)) {
      state = kernelProjection.evolve(state, event);
      continue;
    }
    const wanted = expected[nextExpected];
    if (wanted !== void 0) {
      nextExpected += 1;
      if (!sameIdentity(wanted, event))
        return fail({
          sequence: event.sequence,
          reason: "the recorded event differs from the one decide derives",
          expected: identity(wanted),
          actual: identity(event)
        });
      state = kernelProjection.evolve(state, event);
      decided += 1;
      batchMatched += 1;
      continue;
    }
    if (!isInputEvent(event.payload)) {
      return fail({
        sequence: event.sequence,
        reason: `a ${event.payload.type} event that no input explains`,
        expected: null,
        actual: identity(event)
      });
    }
    let awaited = pending;
    if (effectResultTypes.has(event.payload.type)) {
      try {
        const now = pendingEffect(kernelConfig, state, built);
        if (now.settled) awaited = now.effect;
      } catch (error) {
        if (!CorrexError.isInstance(error)) throw error;
        return fail({
          sequence: event.sequence,
          reason: `the pending effect cannot be rebuilt: ${error.message}`,
          expected: null,
          actual: identity(event)
        });
      }
    }
    const unanswered = checkAnswersEffect(state, awaited, event);
    if (unanswered !== null)
      return fail({
        sequence: event.sequence,
        reason: unanswered,
        expected: null,
        actual: identity(event)
      });
    state = kernelProjection.evolve(state, event);
    inputs += 1;
    if (next.done !== true && isInputEvent(next.value.payload)) continue;
    try {
      const decision = decide(kernelConfig, state, event);
      expected = decision.events;
      nextExpected = 0;
      pending = decision.effect;
      built = decision.built;
      batchMatched = 0;
    } catch (error) {
      if (!CorrexError.isInstance(error)) throw error;
      return fail({
        sequence: event.sequence,
        reason: `decide failed: ${error.message}`,
        expected: null,
        actual: identity(event)
      });
    }
  }
  const missing = expected[nextExpected];
  if (missing !== void 0 && batchMatched > 0) {
    return fail({
      sequence: state.session.lastSequence + 1,
      reason: "the log ends inside a decided batch",
      expected: identity(missing),
      actual: null
    });
  }
  return { ok: true, events, inputs, decided, undecidedInput: missing !== void 0, state };
}
var ConfigurationNotRecordedError = class extends CorrexError {
  constructor(sessionId) {
    super(
      "configuration_not_recorded",
      `session ${sessionId} has no session_configured event; replay it with the configuration it ran under`
    );
  }
};
async function recordedKernelConfig(store, sessionId, sha256) {
  const [first] = await store.read(sessionId, { limit: 1 });
  if (first?.payload.type !== "session_configured")
    throw new ConfigurationNotRecordedError(sessionId);
  return kernelConfigFromConfiguration(
    first.payload.configuration,
    sha256 === void 0 ? {} : { sha256 }
  );
}
function sameIdentity(decided, recorded) {
  return decided.eventId === recorded.eventId && (decided.causationId ?? null) === (recorded.causationId ?? null) && (decided.correlationId ?? null) === (recorded.correlationId ?? null) && canonicallyEqual(decided.payload, recorded.payload);
}
function identity(event) {
  return canonicalJson({
    eventId: event.eventId,
    causationId: event.causationId ?? null,
    correlationId: event.correlationId ?? null,
    payload: event.payload
  });
}
function checkAnswersEffect(state, pending, event) {
  const payload = event.payload;
  if (!effectResultTypes.has(payload.type) || state.session.status !== "running") return null;
  return answersEffect(pending ?? void 0, payload) ? null : `a recorded ${payload.type} answers no pending effect (pending: ${pending?.type ?? "none"})`;
}

// src/core/sessions/session-lifecycle.ts
var LEGAL_FROM = {
  create: ["new"],
  start: ["created"],
  pause: ["running"],
  resume: ["paused"],
  complete: ["running"],
  fail: ["created", "running", "paused"],
  cancel: ["created", "running", "paused"]
};
function canApplyLifecycle(status, command) {
  return LEGAL_FROM[command].includes(status);
}
function decideLifecycle(state, command) {
  if (!canApplyLifecycle(state.status, command.type)) {
    return [
      {
        type: "lifecycle_rejected",
        command: command.type,
        status: state.status,
        message: rejectionMessage(state.status, command.type)
      }
    ];
  }
  switch (command.type) {
    case "create":
      return [
        {
          type: "session_created",
          task: command.task,
          workspace: command.workspace,
          workflowId: command.workflowId,
          mode: command.mode,
          ...command.modelProfile === void 0 ? {} : { modelProfile: command.modelProfile },
          ...command.parent === void 0 ? {} : { parent: { ...command.parent } },
          ...command.worktree === void 0 ? {} : { worktree: { ...command.worktree } }
        }
      ];
    case "start":
      return [
        {
          type: "workflow_started",
          workflowId: state.workflowId ?? "",
          firstStageId: command.firstStageId
        }
      ];
    case "pause":
      return [
        { type: "orchestration_paused", by: command.by, ...optional("reason", command.reason) }
      ];
    case "resume":
      return [{ type: "orchestration_resumed", by: command.by }];
    case "complete":
      return [
        {
          type: "workflow_completed",
          finalStageId: command.finalStageId,
          ...optional("summary", command.summary)
        }
      ];
    case "fail":
      return [
        {
          type: "workflow_failed",
          category: command.category,
          message: command.message,
          ...optional("stageId", command.stageId)
        }
      ];
    case "cancel":
      return [
        { type: "workflow_cancelled", by: command.by, ...optional("reason", command.reason) }
      ];
  }
}
function optional(key, value) {
  return value === void 0 ? {} : { [key]: value };
}
function rejectionMessage(status, command) {
  const legal = LEGAL_FROM[command].join(" or ");
  return `cannot ${command} a session that is ${status}: ${command} is legal only when it is ${legal}`;
}

// src/core/kernel/decider/decide-command.ts
function decideCommand(state, sessionId, command) {
  const session = state.session;
  switch (command.type) {
    case "start":
      if (!command.workspace.startsWith("/") || normalizeAbsolute(command.workspace) !== command.workspace) {
        throw new KernelCommandError(
          "invalid_command",
          `the workspace must be an absolute normalized path, got ${JSON.stringify(command.workspace)}`
        );
      }
      return decideLifecycle(session, {
        type: "create",
        task: command.task,
        workspace: command.workspace,
        workflowId: command.workflowId,
        mode: command.mode,
        ...command.modelProfile === void 0 ? {} : { modelProfile: command.modelProfile },
        ...command.parent === void 0 ? {} : { parent: command.parent },
        ...command.worktree === void 0 ? {} : { worktree: command.worktree }
      });
    case "pause":
    case "cancel":
      return decideLifecycle(session, command);
    case "resume":
      return session.status === "running" ? [] : decideLifecycle(session, command);
    case "approve":
    case "deny": {
      if (!session.pendingApprovals.some((pending) => pending.callId === command.callId)) {
        const pending = session.pendingApprovals.map((p) => p.callId).join(", ") || "none";
        throw new KernelCommandError(
          "approval_not_pending",
          `call ${command.callId} is not awaiting approval in session ${sessionId} (pending: ${pending})`
        );
      }
      const by = { kind: "human", id: command.by };
      return command.type === "approve" ? [
        {
          type: "approval_granted",
          callId: command.callId,
          by,
          ...command.reason === void 0 ? {} : { reason: command.reason }
        }
      ] : [{ type: "approval_denied", callId: command.callId, by, reason: command.reason }];
    }
    case "redirect":
      if (session.status !== "running") {
        throw new KernelCommandError(
          "invalid_command",
          `session ${sessionId} is ${session.status}; only a running session can be redirected`
        );
      }
      return [
        {
          type: "redirect_requested",
          to: command.to,
          by: command.by,
          ...command.reason === void 0 ? {} : { reason: command.reason }
        }
      ];
    case "raise_budget":
      if (!Number.isFinite(command.limit) || command.limit <= 0) {
        throw new KernelCommandError("invalid_command", "a budget must be a positive number");
      }
      if (isFinalStatus(session.status)) {
        throw new KernelCommandError(
          "invalid_command",
          `session ${sessionId} is ${session.status}; its budgets no longer matter`
        );
      }
      return [
        { type: "budget_raised", budget: command.budget, limit: command.limit, by: command.by }
      ];
    case "retry": {
      if (session.status !== "failed") {
        throw new KernelCommandError(
          "invalid_command",
          `session ${sessionId} is ${session.status}; only a failed session can be retried`
        );
      }
      if (!state.acceptsRetry) {
        throw new KernelCommandError(
          "invalid_command",
          `session ${sessionId} was recorded by a correx that could not retry sessions; start it again with correx run`
        );
      }
      const stageId = session.lastStageId;
      if (stageId === null) {
        throw new KernelCommandError(
          "invalid_command",
          `session ${sessionId} failed before any stage ran; start it again with correx run`
        );
      }
      return [
        {
          type: "session_retried",
          stageId,
          attempt: (session.attempts[stageId] ?? 0) + 1,
          by: command.by,
          reason: command.reason ?? "retried by a person"
        }
      ];
    }
    case "steer":
      if (command.content.trim() === "") {
        throw new KernelCommandError("invalid_command", "a steering note needs some text");
      }
      if (isFinalStatus(session.status)) {
        throw new KernelCommandError(
          "session_finished",
          `session ${sessionId} is ${session.status}; a steering note could never reach its model`
        );
      }
      return [
        {
          type: "steering_note_added",
          sessionId,
          content: command.content,
          ...command.stageId === void 0 ? {} : { stageId: command.stageId }
        }
      ];
  }
}

// src/core/kernel/runner/record-command.ts
async function recordCommand(context, events, sessionId, command, onlyWhile) {
  let before = null;
  const recorded = await appendDecided(context, events, sessionId, async () => {
    const { state, sequence } = await replay(events, kernelProjection, sessionId);
    before = state;
    if (sequence > 0 && onlyWhile !== void 0 && !onlyWhile(state))
      return { sequence, payloads: [] };
    return { sequence, payloads: sequence === 0 ? [] : decideCommand(state, sessionId, command) };
  });
  const subagent = before === null ? null : runOf(before)?.subagent;
  if (before === null || subagent?.status !== "running" || recorded.length === 0) return recorded;
  const forward = await forwardedToChild(events, sessionId, before, command, recorded);
  if (forward !== null) {
    const { state, sequence } = await replay(events, kernelProjection, subagent.childSessionId);
    const open = forward.type === "pause" ? state.session.status === "running" : !isFinalStatus(state.session.status);
    if (sequence > 0 && open)
      await recordCommand(context, events, subagent.childSessionId, forward);
  }
  return recorded;
}
async function forwardedToChild(events, sessionId, parent, command, recorded) {
  const types = recorded.map((event) => event.payload.type);
  const parentNote = `(parent session ${sessionId})`;
  switch (command.type) {
    case "cancel":
      return types.includes("workflow_cancelled") ? {
        ...command,
        reason: `${command.reason ?? `cancelled by ${command.by}`} ${parentNote}`
      } : null;
    case "pause":
      return types.includes("orchestration_paused") ? { ...command, reason: command.reason ?? `parent session ${sessionId} paused` } : null;
    case "redirect": {
      const config = await recordedKernelConfig(events, sessionId);
      if (!checkRedirect(config, parent, command.to).ok) return null;
      return {
        type: "cancel",
        by: command.by,
        reason: `the parent was redirected to ${command.to} ${parentNote}`
      };
    }
    default:
      return null;
  }
}

// src/core/toolintent/egress-allowlist-seed.ts
var POLICY_SEED_AUTHOR = "policy";
function egressAllowlistSeed(policy, flags) {
  if (!flags.has(EGRESS_ALLOWLIST_FROM_POLICY.name)) return [];
  const hosts = [...new Set(policy.egressAllowlist)].sort();
  if (hosts.length === 0) return [];
  return [
    {
      type: "egress_allowlist_changed",
      added: hosts,
      removed: [],
      by: POLICY_SEED_AUTHOR,
      reason: "seeded from the egressAllowlist of the recorded policy at session start"
    }
  ];
}

// src/core/kernel/runner/held-results.ts
var HOLD_LIMITS = { maxEvents: 1e3, maxMs: 100 };
function changesNothing(config, effect) {
  if (effect.type === "probe") return true;
  if (effect.type !== "execute") return false;
  const tool = config.tools.get(effect.tool);
  return tool !== void 0 && tool.source === void 0 && tool.capabilities.length > 0 && tool.capabilities.every((capability) => capability === "READ_ONLY");
}
function resultsMayWait(config, effect) {
  return changesNothing(config, effect);
}
function withinHoldLimits(held, count2, now) {
  if (held === void 0) return count2 <= HOLD_LIMITS.maxEvents;
  return held.facts.length + held.decided.length + count2 <= HOLD_LIMITS.maxEvents && Date.parse(now) - Date.parse(held.since) < HOLD_LIMITS.maxMs;
}
var codec = createEventCodec(correxEventCatalog);
function foldProvisional(state, sessionId, events) {
  let folded = state;
  let last;
  for (const event of events) {
    last = {
      ...codec.normalize({ ...event, sessionId }),
      sequence: folded.session.lastSequence + 1,
      position: 0,
      hash: ""
    };
    folded = kernelProjection.evolve(folded, last);
  }
  return { state: folded, last };
}
function holdInputs(held, inputs, after, since) {
  if (held === void 0) return { facts: inputs, decided: [], after, since };
  if (held.decided.length === 0) return { ...held, facts: [...held.facts, ...inputs] };
  return { ...held, decided: [...held.decided, ...inputs] };
}

// src/core/kernel/queries/kernel-metrics.ts
var initial = () => ({
  stages: [],
  transitions: [],
  tokens: [],
  approvals: [],
  artifacts: [],
  totals: { inputTokens: 0, outputTokens: 0 },
  open: null,
  parents: {}
});
function metricSignals(metrics, event) {
  const payload = event.payload;
  const at2 = event.timestamp;
  const close = (outcome2) => {
    const open = metrics.open;
    if (open === null) return [];
    const durationMs = Math.max(0, Date.parse(at2) - Date.parse(open.at));
    const timing = { stageId: open.stageId, attempt: open.attempt, outcome: outcome2, startedAt: open.at };
    return [{ kind: "stage_timing", timing: { ...timing, endedAt: at2, durationMs } }];
  };
  switch (payload.type) {
    case "stage_completed":
      return close("completed");
    case "stage_failed":
      return close("failed");
    case "stage_redirected":
      return close("redirected");
    case "workflow_cancelled":
      return close("cancelled");
    case "transition_taken":
      return [
        {
          kind: "transition",
          transition: {
            from: payload.from,
            to: payload.to ?? null,
            end: payload.end ?? null,
            condition: payload.condition,
            edge: payload.edge,
            traversal: payload.traversal,
            at: at2
          }
        }
      ];
    case "inference_completed": {
      const usage = payload.result.usage;
      const tokens = {
        requestId: payload.requestId,
        stageId: metrics.open?.stageId ?? null,
        provider: payload.provider,
        input: usage?.inputTokens ?? 0,
        output: usage?.outputTokens ?? 0
      };
      return [{ kind: "tokens", tokens }];
    }
    case "approval_requested":
    case "approval_bypassed":
      return [approval(payload.callId, payload.type, null, at2)];
    case "approval_granted":
    case "approval_denied":
      return [approval(payload.callId, payload.type, payload.by, at2)];
    case "artifact_proposed":
    case "artifact_accepted": {
      const parents = payload.type === "artifact_proposed" ? payload.parents : metrics.parents[payload.hash] ?? [];
      const status = payload.type === "artifact_proposed" ? "proposed" : "accepted";
      return [
        {
          kind: "artifact",
          artifact: {
            hash: payload.hash,
            kind: payload.kind,
            stageId: payload.stageId,
            status,
            parents
          }
        }
      ];
    }
    default:
      return [];
  }
}
function approval(callId, type, by, at2) {
  const decision = type.slice("approval_".length);
  return { kind: "approval", approval: { callId, decision, by, at: at2 } };
}
function evolveMetrics(metrics, event, signals = metricSignals(metrics, event)) {
  let next = metrics;
  const payload = event.payload;
  if (payload.type === "stage_started")
    next = {
      ...next,
      open: { stageId: payload.stageId, attempt: payload.attempt, at: event.timestamp }
    };
  if (payload.type === "artifact_proposed")
    next = { ...next, parents: { ...next.parents, [payload.hash]: payload.parents } };
  for (const signal of signals) {
    switch (signal.kind) {
      case "stage_timing":
        next = { ...next, stages: [...next.stages, signal.timing], open: null };
        break;
      case "transition":
        next = { ...next, transitions: [...next.transitions, signal.transition] };
        break;
      case "tokens":
        next = {
          ...next,
          tokens: [...next.tokens, signal.tokens],
          totals: {
            inputTokens: next.totals.inputTokens + signal.tokens.input,
            outputTokens: next.totals.outputTokens + signal.tokens.output
          }
        };
        break;
      case "approval":
        next = { ...next, approvals: [...next.approvals, signal.approval] };
        break;
      case "artifact":
        next = { ...next, artifacts: [...next.artifacts, signal.artifact] };
        break;
    }
  }
  return next;
}
var kernelMetricsProjection = {
  name: "kernel-metrics",
  version: 1,
  initial,
  evolve: (metrics, event) => evolveMetrics(metrics, event)
};

// src/core/kernel/runner/kernel-observer.ts
function notifyObserver(observer, event, signals) {
  guard(() => observer.onEvent?.(event));
  for (const signal of signals) {
    switch (signal.kind) {
      case "stage_timing":
        guard(() => observer.onStageTiming?.(signal.timing, event.sessionId));
        break;
      case "transition":
        guard(() => observer.onTransition?.(signal.transition, event.sessionId));
        break;
      case "tokens":
        guard(() => observer.onTokens?.(signal.tokens, event.sessionId));
        break;
      case "approval":
        guard(() => observer.onApproval?.(signal.approval, event.sessionId));
        break;
      case "artifact":
        guard(() => observer.onArtifact?.(signal.artifact, event.sessionId));
        break;
    }
  }
}
function guard(call) {
  try {
    call();
  } catch {
  }
}

// src/core/base/well-formed.ts
var LONE_SURROGATES = new RegExp("\\p{Surrogate}", "gu");
function wellFormedDeep(value) {
  const fix = (text) => text.replace(LONE_SURROGATES, "\uFFFD");
  const copy = (item) => {
    if (typeof item === "string") return fix(item);
    if (Array.isArray(item)) return [...item];
    if (typeof item === "object" && item !== null && Object.getPrototypeOf(item) === Object.prototype)
      return { ...item };
    return item;
  };
  const root = { value: copy(value) };
  const pending = [root];
  while (pending.length > 0) {
    const container = pending.pop();
    for (const key of Object.keys(container)) {
      const member = container[key];
      const fixedKey = fix(key);
      const next = copy(member);
      if (fixedKey !== key) delete container[key];
      container[fixedKey] = next;
      if (typeof next === "object" && next !== null) pending.push(next);
    }
  }
  return root.value;
}

// src/core/kernel/features/bounded-refused-arguments/bound-refused-arguments.ts
function boundRefusedArguments(config, result2, allowedTools, finishing) {
  let changed = false;
  const toolCalls = result2.toolCalls.map((call) => {
    if (call.argsRaw.length <= MAX_KEPT_REJECTED_ARGS_CHARS || call.name === finishing) return call;
    const why = refusal(config, call, allowedTools);
    if (why === void 0) return call;
    const head = wellFormedHead2(call.argsRaw, REJECTED_ARGS_HEAD_CHARS);
    if (safeParseToolArguments(head).ok) return call;
    changed = true;
    const bounded = {
      callId: call.callId,
      name: call.name,
      argsRaw: head,
      argsError: `${call.argsError ?? why} (${call.argsRaw.length} characters; only the first ${head.length} are kept)`,
      argsLength: call.argsRaw.length,
      argsSha256: call.argsSha256 ?? config.sha256(call.argsRaw)
    };
    return bounded;
  });
  return changed ? { ...result2, toolCalls } : result2;
}
function refusal(config, call, allowedTools) {
  const tool = config.tools.get(call.name);
  if (tool === void 0) return `there is no tool named ${call.name}`;
  if (!allowedTools.includes(tool.name)) return `the stage does not grant ${tool.name}`;
  if (call.args === void 0) return call.argsError ?? "the arguments are not a JSON object";
  const parsed = tool.argsSchema.safeParse(call.args);
  if (parsed.success) return void 0;
  const problems = parsed.error.issues.map(
    (issue) => `${issue.path.map(String).join(".") || "arguments"}: ${issue.message}`
  );
  return `the arguments do not match the schema: ${inCanonicalOrder(problems).join("; ")}`;
}
function wellFormedHead2(text, length) {
  const head = text.slice(0, length);
  const last = head.charCodeAt(head.length - 1);
  return last >= 55296 && last <= 56319 ? head.slice(0, -1) : head;
}

// src/core/kernel/runner/run-effect.ts
var KernelWiringError = class extends CorrexError {
  constructor(message) {
    super("kernel_wiring", message);
  }
};
function whyUnrecordable(payload) {
  const parsed = InferenceResultSchema.safeParse(payload.result);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return `$.result.${issue?.path.map(String).join(".") ?? ""} ${issue?.message ?? "is invalid"}`;
  }
  try {
    canonicalJson(payload);
    return void 0;
  } catch (error) {
    if (error instanceof NonCanonicalValueError) return error.message;
    throw error;
  }
}
function boundedAnswer(config, state, answer2) {
  if (!config.behaviour.flags.has(BOUNDED_REFUSED_ARGUMENTS.name)) return answer2;
  const stage = config.workflow.stages.get(runOf(state)?.stageId ?? "");
  if (stage === void 0) return answer2;
  return boundRefusedArguments(config, answer2, stage.allowedTools, finishingToolName(stage));
}
var ABORTED = /* @__PURE__ */ Symbol("aborted");
function untilAborted(promise, signal) {
  if (signal.aborted) {
    promise.catch(() => void 0);
    return Promise.resolve(ABORTED);
  }
  return new Promise((resolve, reject3) => {
    const onAbort = () => resolve(ABORTED);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener("abort", onAbort);
        reject3(error);
      }
    );
  });
}
async function runEffect(options, state, effect, signal) {
  const { config, ports } = options;
  switch (effect.type) {
    case "infer": {
      const provider = ports.providers.get(effect.provider);
      if (provider === void 0) {
        throw new KernelWiringError(
          `no inference provider named ${effect.provider} is wired (request ${effect.requestId})`
        );
      }
      try {
        const answer2 = await untilAborted(provider.infer(effect.request, signal), signal);
        if (answer2 === ABORTED || signal.aborted) return [];
        const result2 = boundedAnswer(config, state, answer2);
        const completed = {
          type: "inference_completed",
          requestId: effect.requestId,
          provider: provider.name,
          requestDigest: effect.requestDigest,
          result: result2
        };
        const unrecordable = whyUnrecordable(completed);
        if (unrecordable !== void 0) {
          throw new InferenceError({
            category: "malformed_response",
            provider: provider.name,
            message: `the answer cannot be recorded: ${unrecordable}`
          });
        }
        return [completed];
      } catch (error) {
        if (!(error instanceof InferenceError)) throw error;
        if (signal.aborted) return [];
        return [
          {
            type: "inference_failed",
            requestId: effect.requestId,
            provider: provider.name,
            model: effect.request.model,
            category: error.category,
            message: error.message,
            ...error.retryAfterMs === void 0 ? {} : { retryAfterMs: error.retryAfterMs }
          }
        ];
      }
    }
    case "wait": {
      if (ports.timer === void 0) {
        throw new KernelWiringError(
          `a provider asked for a ${effect.delayMs} ms retry delay but no Timer is wired`
        );
      }
      const left = Date.parse(effect.until) - Date.parse(options.clock.now());
      await ports.timer.sleep(Math.min(Math.max(left, 0), effect.delayMs), signal);
      if (signal.aborted) return [];
      return [{ type: "retry_delay_elapsed", until: effect.until }];
    }
    case "probe": {
      const observations = [];
      for (const path of effect.paths) observations.push(await ports.probe.observe(path));
      return observations.map((observation) => ({
        type: "world_observed",
        callId: effect.callId,
        observation
      }));
    }
    case "run_diagnostics": {
      const base = {
        type: "language_diagnostics_recorded",
        stageId: effect.stageId,
        attempt: effect.attempt
      };
      if (ports.diagnostics === void 0)
        return [
          {
            ...base,
            server: "none",
            method: "unavailable",
            files: [],
            error: "no language server is wired into this runner",
            durationMs: 0
          }
        ];
      const run = await ports.diagnostics.diagnose(
        { workspaceRoot: state.session.workspace ?? "/", files: effect.files },
        signal
      );
      if (signal.aborted) return [];
      return [{ ...base, ...run }];
    }
    case "detect_checks": {
      if (ports.checks === void 0) {
        throw new KernelWiringError(
          "the session detects the project's checks at its start but no ProjectCheckDetector is wired"
        );
      }
      const detected = await ports.checks.detect(state.session.workspace ?? "/", signal);
      if (signal.aborted) return [];
      return [
        {
          type: "project_checks_detected",
          checks: [...detected.checks],
          problems: [...detected.problems]
        }
      ];
    }
    case "run_analysis": {
      if (ports.analysis === void 0) {
        throw new KernelWiringError(
          `stage ${effect.stageId} has definition-of-done checks but no StaticAnalysisRunner is wired`
        );
      }
      const run = await ports.analysis.run(
        {
          name: effect.name,
          command: effect.command,
          workspaceRoot: state.session.workspace ?? "/"
        },
        signal
      );
      return [
        {
          type: "dod_check_ran",
          stageId: effect.stageId,
          attempt: effect.attempt,
          name: effect.name,
          command: effect.command,
          ...wellFormedDeep(run)
        }
      ];
    }
    case "run_pre_tool_use_hooks": {
      const hooks = (config.hooks?.pre_tool_use ?? []).filter(
        (hook) => effect.hooks.includes(hook.name)
      );
      const input = {
        event: "pre_tool_use",
        sessionId: state.session.sessionId,
        stageId: effect.stageId,
        callId: effect.callId,
        tool: effect.tool,
        args: effect.args,
        tier: effect.tier,
        findings: effect.findings,
        targets: effect.targets
      };
      const results = ports.hooks === void 0 ? hooks.map((hook) => ({
        hook: hook.name,
        outcome: "failed_to_start",
        decision: "block",
        tier: null,
        reason: "this runner has no hook runner wired",
        durationMs: 0
      })) : await ports.hooks.runPreToolUse(
        { hooks, workspaceRoot: state.session.workspace ?? "/", input },
        signal
      );
      if (signal.aborted) return [];
      return [{ type: "pre_tool_use_hooks_ran", callId: effect.callId, results }];
    }
    case "execute": {
      const tool = config.tools.get(effect.tool);
      if (tool === void 0)
        throw new KernelWiringError(
          `tool ${effect.tool} has no contract in the kernel configuration`
        );
      const execution = await ports.tools.run(
        {
          callId: effect.callId,
          tool,
          args: effect.args,
          workspaceRoot: state.session.workspace ?? "/",
          homeDirectory: config.homeDirectory,
          targets: effect.targets,
          observations: state.tools.observations,
          // What the call was approved to reach beyond the list, for this call only.
          egressAllowlist: effect.egressHosts === void 0 ? state.tools.egressAllowlist : [.../* @__PURE__ */ new Set([...state.tools.egressAllowlist, ...effect.egressHosts])].sort(),
          commandShell: config.behaviour.flags.has(EXEC_BASH.name) ? "bash" : "sh",
          ...config.behaviour.flags.has(MCP_CHANGE_RECORDS.name) ? { mcpChangeRecords: true } : {}
        },
        signal
      );
      return [
        {
          type: "tool_receipt",
          callId: effect.callId,
          tool: effect.tool,
          args: effect.args,
          // What a tool hands back is the world's text: a lone surrogate in it (output parsed
          // from JSON) would make the receipt unrecordable, and the call would run again.
          ...wellFormedDeep(execution)
        }
      ];
    }
  }
}

// src/core/kernel/runner/run-subagent.ts
async function runSubagent(options, parent, effect, signal, attach, start) {
  const childId = effect.childSessionId;
  const config = childKernelConfig(options.config, effect.workflowId);
  const existing = await replay(options.store, kernelProjection, childId);
  let state = existing.state;
  if (existing.sequence === 0 || !isFinalStatus(state.session.status)) {
    const command = existing.sequence === 0 ? {
      type: "start",
      task: effect.task,
      workspace: parent.session.workspace ?? "/",
      workflowId: effect.workflowId,
      mode: parent.mode,
      parent: {
        sessionId: options.sessionId,
        stageId: effect.stageId,
        attempt: effect.attempt,
        eventId: effect.startedEventId
      }
    } : state.session.status === "paused" ? { type: "resume", by: `session ${options.sessionId}` } : void 0;
    const stop = new AbortController();
    const onAbort = () => stop.abort(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    const { signal: _signal, ...shared } = options;
    const run = start({ ...shared, sessionId: childId, config, signal: stop.signal }, command);
    attach(run);
    try {
      const outcome2 = await run.done;
      state = outcome2.state;
      if (!isFinalStatus(outcome2.status)) {
        const waiting = outcome2.waiting;
        return {
          results: [],
          waiting: waiting === null || waiting.kind === "stopped" ? waiting : { ...waiting, sessionId: waiting.sessionId ?? childId }
        };
      }
    } finally {
      attach(null);
      signal.removeEventListener("abort", onAbort);
    }
  }
  return { results: [finished(childId, state)], waiting: null };
}
function finished(childSessionId, child) {
  const status = child.session.status;
  if (status === "completed") {
    const artifact = child.accepted.at(-1);
    return {
      type: "subagent_finished",
      childSessionId,
      status,
      ...artifact === void 0 ? {} : {
        artifact: {
          hash: artifact.hash,
          kind: artifact.kind,
          stageId: artifact.stageId,
          // The recorded JSON, read-only in the state: the same value, typed for the payload.
          content: artifact.content
        }
      }
    };
  }
  const failure = child.session.failure;
  return {
    type: "subagent_finished",
    childSessionId,
    status: status === "cancelled" ? "cancelled" : "failed",
    ...failure === null ? {} : {
      failure: {
        category: failure.category,
        message: `sub-session ${childSessionId} failed: ${failure.message}`
      }
    }
  };
}

// src/core/kernel/runner/run-session.ts
var SessionConfigurationMismatchError = class extends CorrexError {
  constructor(sessionId) {
    super(
      "session_configuration_mismatch",
      `session ${sessionId} was started with another configuration; resume it with the configuration it recorded`
    );
  }
};
function runSession(options, command) {
  return startSession(options, command).done;
}
function startSession(options, command) {
  const running = new RunningEffect();
  const stop = options.signal;
  const onStop = () => running.abort(stop?.reason);
  stop?.addEventListener("abort", onStop, { once: true });
  const done = drive(options, command, running).finally(
    () => stop?.removeEventListener("abort", onStop)
  );
  const record = (recorded) => {
    const recording = recordCommand(
      options,
      options.commandStore ?? options.store,
      options.sessionId,
      recorded
    );
    running.answer(options.config, recorded, recording);
    return recording;
  };
  return {
    done,
    command: record,
    async cancel(by, reason) {
      await record({ type: "cancel", by, ...reason === void 0 ? {} : { reason } });
    },
    async pause(by, reason) {
      await record({ type: "pause", by, ...reason === void 0 ? {} : { reason } });
    },
    async steer(content, stageId) {
      await record({ type: "steer", content, ...stageId === void 0 ? {} : { stageId } });
    },
    async redirect(to, by, reason) {
      await record({ type: "redirect", to, by, ...reason === void 0 ? {} : { reason } });
    },
    interrupt(reason, scope = "effect", recording) {
      if (recording !== void 0) running.track(recording);
      running.interrupt(new Error(reason), scope, recording);
    }
  };
}
var RunningEffect = class {
  /** The state the loop last folded (what a redirect is checked against before it aborts). */
  state = kernelProjection.initial();
  /** The sub-session a running `run_subagent` drives: a cancel or pause reaches its effect too. */
  child = null;
  controller = null;
  type = null;
  begin(type) {
    this.controller = new AbortController();
    this.type = type;
    return this.controller.signal;
  }
  end() {
    this.controller = null;
    this.type = null;
  }
  /** This process stops: the running effect (and a sub-session's runner) stop, recording nothing new. */
  abort(reason) {
    this.controller?.abort(reason);
  }
  /**
   * Aborts what runs now: any effect, or only a retry delay's wait (a pause lets a model call or
   * tool finish). A running sub-session's effect is interrupted the same way; its own loop reads
   * the command forwarded into its log.
   */
  interrupt(reason, scope, recording) {
    if (this.child !== null) this.child.interrupt(reason.message, scope, recording);
    else if (scope === "effect" || this.type === "wait") this.controller?.abort(reason);
  }
  /** Commands of this process still being recorded. */
  recording = /* @__PURE__ */ new Set();
  /** Registers a command being recorded: the loop reads it before it goes on. */
  track(recording) {
    this.recording.add(recording);
    this.issued += 1;
    const settle = () => void this.recording.delete(recording);
    recording.then(settle, settle);
  }
  /** How many commands were issued here, and how many the last `recorded()` had seen. */
  issued = 0;
  seen = 0;
  /**
   * Resolves once every command issued here so far is recorded (or refused): true when any was
   * issued since the last call.
   */
  async recorded() {
    while (this.recording.size > 0) await Promise.allSettled([...this.recording]);
    const any = this.issued !== this.seen;
    this.seen = this.issued;
    return any;
  }
  /**
   * What a command asks of the running effect, at once: a cancel or a legal redirect aborts it,
   * a pause ends a retry delay's wait. Checked against the state the loop last folded.
   */
  answer(config, command, recording) {
    this.track(recording);
    if (isFinalStatus(this.state.session.status)) return;
    const interrupt = (reason, scope) => this.interrupt(new Error(reason), scope, recording);
    if (command.type === "cancel") interrupt(`session cancelled by ${command.by}`, "effect");
    else if (command.type === "pause") interrupt(`session paused by ${command.by}`, "wait");
    else if (command.type === "redirect" && checkRedirect(config, this.state, command.to).ok)
      interrupt(`session redirected to ${command.to} by ${command.by}`, "effect");
  }
};
async function drive(options, command, running) {
  const { store, sessionId, config, clock, ids } = options;
  let state = kernelProjection.initial();
  let metrics = kernelMetricsProjection.initial();
  let last;
  const fold = (event) => {
    state = kernelProjection.evolve(state, event);
    last = event;
  };
  const catchUp = async () => {
    if (await store.lastSequence(sessionId) === state.session.lastSequence) return;
    for await (const event of store.stream(sessionId, {
      afterSequence: state.session.lastSequence
    })) {
      fold(event);
      if (options.observer !== void 0) metrics = evolveMetrics(metrics, event);
    }
  };
  await catchUp();
  const appendOnce = async (events, folded) => {
    const now = events.every((event) => event.timestamp !== void 0) ? "" : clock.now();
    const stored = await store.appendAll(
      events.map((event) => ({ ...event, sessionId, timestamp: event.timestamp ?? now })),
      { expectedSequence: state.session.lastSequence }
    );
    if (folded !== void 0 && folded.count > 0) {
      state = folded.state;
      last = stored[folded.count - 1];
    }
    for (const [index, event] of stored.entries()) {
      if (index >= (folded?.count ?? 0)) fold(event);
      options.onEvent?.(event);
      if (options.observer !== void 0) {
        const signals = metricSignals(metrics, event);
        metrics = evolveMetrics(metrics, event, signals);
        notifyObserver(options.observer, event, signals);
      }
    }
  };
  const appendInputs = async (payloads, causationId, correlationId = null) => {
    if (payloads.length === 0) return;
    await appendFacts(inputEvents(payloads, causationId, correlationId));
  };
  const inputEvents = (payloads, causationId, correlationId) => payloads.map((payload) => ({ eventId: ids.next(), causationId, correlationId, payload }));
  const appendFacts = async (events) => {
    for (; ; ) {
      try {
        return await appendOnce(events);
      } catch (error) {
        if (!isConflict(error)) throw error;
        await catchUp();
      }
    }
  };
  const recorded = await recordedConfiguration(store, sessionId);
  if (recorded !== null && recorded !== sessionConfiguredPayload(config).digest) {
    throw new SessionConfigurationMismatchError(sessionId);
  }
  const interrupted = currentCall(runOf(state)?.turn ?? null);
  if (interrupted?.status === "started" && !isFinalStatus(state.session.status)) {
    await appendInputs(
      [{ type: "tool_call_interrupted", callId: interrupted.callId, tool: interrupted.tool }],
      null
    );
  }
  if (command !== void 0) {
    const payloads = decideCommand(state, sessionId, command);
    if (command.type === "start" && state.session.lastSequence === 0 && payloads.length > 0) {
      payloads.unshift(sessionConfiguredPayload(config));
      payloads.push(...egressAllowlistSeed(config.policy.policy, config.behaviour.flags));
    }
    const correlation = command.type === "start" ? command.parent?.eventId ?? null : null;
    await appendInputs(payloads, null, correlation);
  }
  const appendResultsAndDecide = async (from, payloads, held2) => {
    const timestamp = clock.now();
    const inputs = inputEvents(payloads, null, null).map((event) => ({ ...event, timestamp }));
    let answered;
    let decision;
    try {
      answered = foldProvisional(held2?.state ?? state, sessionId, inputs);
      decision = decide(config, answered.state, answered.last);
    } catch (error) {
      const failed = untakenAnswer(payloads, error);
      if (failed === void 0) throw error;
      return appendResultsAndDecide(from, failed, held2);
    }
    const decisions = decision.events.map((event) => ({ ...event, timestamp }));
    const next = holdInputs(held2, inputs, state.session.lastSequence, timestamp);
    if (decision.effect !== null && decision.artifacts.length === 0 && resultsMayWait(config, from) && changesNothing(config, decision.effect) && withinHoldLimits(held2, inputs.length + decisions.length, timestamp)) {
      const decided2 = foldProvisional(answered.state, sessionId, decisions).state;
      return {
        effect: decision.effect,
        held: { ...next, decided: [...next.decided, ...decisions], state: decided2 }
      };
    }
    try {
      const count2 = next.facts.length + next.decided.length;
      await appendOnce([...next.facts, ...next.decided, ...decisions], {
        state: answered.state,
        count: count2
      });
    } catch (error) {
      if (!isConflict(error)) throw error;
      await catchUp();
      await appendFacts(next.facts);
      return void 0;
    }
    for (const artifact of decision.artifacts) await options.artifacts?.put(artifact);
    return { effect: decision.effect };
  };
  const readCommands = async (look = true) => {
    const before = state.session.lastSequence;
    if (await running.recorded() || look) await catchUp();
    return state.session.lastSequence !== before;
  };
  let decided;
  let held;
  const release = async () => {
    if (held === void 0) return false;
    const { facts, decided: decided2, after } = held;
    const folded = { state: held.state, count: facts.length + decided2.length };
    held = void 0;
    if (state.session.lastSequence === after) {
      try {
        await appendOnce([...facts, ...decided2], folded);
        return false;
      } catch (error) {
        if (!isConflict(error)) throw error;
        await catchUp();
      }
    }
    await appendFacts(facts);
    return decided2.length > 0;
  };
  for (; ; ) {
    let effect;
    if (decided !== void 0) {
      effect = decided.effect;
      held = decided.held;
      decided = void 0;
    } else if (awaitsDecision(state)) {
      const decision = decide(config, state, last);
      effect = decision.effect;
      if (decision.events.length > 0) {
        try {
          await appendOnce(decision.events.map((event) => ({ ...event })));
        } catch (error) {
          if (!isConflict(error)) throw error;
          await catchUp();
          continue;
        }
        for (const artifact of decision.artifacts) await options.artifacts?.put(artifact);
      }
    } else {
      const pending = pendingEffect(config, state);
      if (!pending.settled)
        throw new KernelInvariantError(
          `session ${sessionId} is not settled after its last decision`
        );
      effect = pending.effect;
    }
    running.state = state;
    if (await readCommands(effect === null || !changesNothing(config, effect))) {
      await release();
      continue;
    }
    if (effect?.type === "await_approval" && effect.deadline !== void 0 && options.signal?.aborted !== true && Date.parse(options.clock.now()) >= Date.parse(effect.deadline)) {
      await appendInputs(
        [{ type: "approval_timed_out", callId: effect.callId, deadline: effect.deadline }],
        null
      );
      continue;
    }
    if (effect === null || effect.type === "await_approval" || options.signal?.aborted === true) {
      await release();
      return outcome(state, effect, options.signal?.aborted === true);
    }
    const signal = running.begin(effect.type);
    let results;
    let child = null;
    try {
      if (effect.type === "run_subagent") {
        child = await runSubagent(
          options,
          state,
          effect,
          signal,
          (run) => running.child = run,
          startSession
        );
        results = child.results;
      } else {
        results = await runEffect(options, held?.state ?? state, effect, signal);
      }
    } catch (error) {
      await release();
      throw error;
    } finally {
      running.end();
    }
    const before = state.session.lastSequence;
    if (await readCommands(!changesNothing(config, effect)) && await release()) continue;
    if (child === null && results.length > 0 && !isFinalStatus(state.session.status)) {
      decided = await appendResultsAndDecide(effect, results, held);
      held = void 0;
      continue;
    }
    if (await release()) continue;
    await appendInputs(results, null);
    const waiting = child?.waiting;
    if (waiting != null && waiting.kind !== "stopped" && state.session.lastSequence === before)
      return { status: state.session.status, waiting, state };
  }
}
async function recordedConfiguration(store, sessionId) {
  const [first] = await store.read(sessionId, { limit: 1 });
  return first?.payload.type === "session_configured" ? first.payload.digest : null;
}
function outcome(state, effect, stopped) {
  const status = state.session.status;
  if (status === "paused") return { status, waiting: { kind: "paused" }, state };
  if (effect?.type === "await_approval")
    return {
      status,
      waiting: {
        kind: "approval",
        callId: effect.callId,
        ...effect.deadline === void 0 ? {} : { deadline: effect.deadline }
      },
      state
    };
  if (stopped && !isFinalStatus(status)) return { status, waiting: { kind: "stopped" }, state };
  const stop = state.features.budget.stop;
  if (stop !== null && status === "running" && effect === null)
    return { status, waiting: { kind: "budget", budget: stop.budget, limit: stop.limit }, state };
  return { status, waiting: null, state };
}
function isConflict(error) {
  return CorrexError.isInstance(error) && error.code === "concurrency_conflict";
}
function untakenAnswer(payloads, error) {
  const [answer2] = payloads;
  if (payloads.length !== 1 || answer2?.type !== "inference_completed") return void 0;
  const why = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return [
    {
      type: "inference_failed",
      requestId: answer2.requestId,
      provider: answer2.provider,
      model: answer2.result.modelId,
      category: "malformed_response",
      message: `correx could not take the answer (${why.slice(0, 500)})`
    }
  ];
}

// src/core/kernel/queries/proposed-call-what-if.ts
function proposedCallPaths(events, call) {
  const setup = sessionSetup(events, call);
  if (!setup.ok) return [];
  const { config, tool, options, view } = setup;
  return pathsToObserve(
    createAssessmentPolicy(config.policy.policy, defaultToolCallRules, options),
    view([]),
    { callId: "what-if", tool, args: call.args }
  );
}
function whatIfProposedCall(events, call, candidate, observations = []) {
  const setup = sessionSetup(events, call);
  if (!setup.ok) return setup;
  const { created, config, tool, options, grants, lastStageId } = setup;
  const view = setup.view(observations);
  const stageId = call.stageId ?? lastStageId ?? config.workflow.initialStage;
  const at2 = events.at(-1)?.timestamp ?? "";
  const proposed = { callId: "what-if", tool, args: call.args };
  const judge = (policy) => {
    const assessment = assessToolCall(
      createAssessmentPolicy(policy, defaultToolCallRules, options),
      view,
      proposed
    );
    const args = typeof call.args === "object" && call.args !== null ? call.args : {};
    const decision = decideApproval({
      mode: created.mode,
      verdict: assessment.verdict,
      tier: assessment.tier,
      subject: approvalSubjectOf(assessment, args, stageId, view),
      grants,
      at: at2,
      reason: assessment.findings.map((finding2) => finding2.message).join("; ")
    });
    const last = decision.events.at(-1);
    return {
      verdict: assessment.verdict,
      tier: assessment.tier,
      findings: assessment.findings.map((finding2) => ({
        code: `${finding2.ruleId}/${finding2.code}`,
        message: finding2.message
      })),
      approval: decision.outcome === "pending" ? "needs_person" : decision.outcome,
      approvalReason: typeof last?.reason === "string" ? last.reason : ""
    };
  };
  return {
    ok: true,
    sessionId: events[0]?.sessionId ?? "",
    tool: call.tool,
    mode: created.mode,
    stageId,
    recorded: judge(config.policy.policy),
    candidate: candidate === void 0 ? null : judge(candidate)
  };
}
function sessionSetup(events, call) {
  const created = events.find((event) => event.payload.type === "session_created")?.payload;
  const configured = events.find((event) => event.payload.type === "session_configured")?.payload;
  if (created === void 0) return { ok: false, reason: "no session_created event" };
  if (configured?.configuration === void 0)
    return {
      ok: false,
      reason: "no recorded configuration (recorded before session_configured)"
    };
  let config;
  try {
    config = kernelConfigFromConfiguration(configured.configuration);
  } catch (error) {
    return { ok: false, reason: error.message };
  }
  const tool = config.tools.get(call.tool);
  if (tool === void 0)
    return {
      ok: false,
      reason: `the session offers no tool ${call.tool} (it has: ${[...config.tools.keys()].join(", ")})`
    };
  const options = {
    flags: config.behaviour.flags,
    ...config.policy.sandbox === void 0 ? {} : { sandbox: config.policy.sandbox }
  };
  let state = toolSessionProjection.initial();
  let grants = approvalGrantsProjection.initial();
  let lastStageId = null;
  for (const event of events) {
    state = toolSessionProjection.evolve(state, event);
    grants = approvalGrantsProjection.evolve(grants, event);
    const stageId = event.payload.stageId;
    if (event.payload.type === "stage_started" && typeof stageId === "string")
      lastStageId = stageId;
  }
  const roots = { workspaceRoot: created.workspace, homeDirectory: config.homeDirectory };
  const view = (observations) => {
    let seen = state;
    for (const observation of observations) {
      const payload = {
        type: "world_observed",
        callId: null,
        observation
      };
      seen = toolSessionProjection.evolve(seen, { ...events.at(-1), payload });
    }
    return toolSessionView(seen, roots);
  };
  return { ok: true, created, config, tool, options, grants, lastStageId, view };
}

// src/core/kernel/runner/record-start.ts
async function recordStart(context, store, sessionId, config, command) {
  let state = kernelProjection.initial();
  const payloads = decideCommand(state, sessionId, command);
  if (payloads.length > 0) payloads.unshift(sessionConfiguredPayload(config));
  const stored = await store.appendAll(
    payloads.map((payload) => ({
      eventId: context.ids.next(),
      sessionId,
      timestamp: context.clock.now(),
      causationId: null,
      correlationId: null,
      payload
    })),
    { expectedSequence: 0 }
  );
  for (const event of stored) state = kernelProjection.evolve(state, event);
  return { status: state.session.status, waiting: { kind: "stopped" }, state };
}

export {
  createEstimatingTokenizer,
  DEFAULT_KERNEL_LIMITS,
  createKernelConfig,
  ModelProfileListSchema,
  createInferenceRouter,
  HookSetSchema,
  hookAppliesTo,
  DEFAULT_NEVER_WRITABLE,
  GIT_NEVER_WRITABLE,
  DEFAULT_NEVER_READABLE,
  DEFAULT_UNSANDBOXED_EXEC_TIER,
  WorkspacePolicySchema,
  PolicyOverlaySchema,
  parseWorkspacePolicy,
  layeredGet,
  resolveToolPath,
  normalizeAbsolute,
  isPathInside,
  relativeInside,
  hasLoneSurrogate,
  defaultToolCallRules,
  createAssessmentPolicy,
  readFileTool,
  writeFileTool,
  editFileTool,
  listDirTool,
  globTool,
  grepTool,
  execTool,
  httpFetchTool,
  copyFileTool,
  moveFileTool,
  builtinTools,
  InvalidWorkflowError,
  parseWorkflow,
  safeParseWorkflow,
  createDefaultValidatorRegistry,
  toolFromRecord,
  safeParseToolArguments,
  createToolCallProposal,
  answerTextOf,
  isSummaryRequestId,
  INITIAL_BUDGET,
  evolveBudget,
  tokenCost,
  approvalGrantsProjection,
  activeGrants,
  assertNever,
  sessionProjection,
  resolveContextPackSettings,
  PinnedContextOverBudgetError,
  steeringNotePayload,
  explainCall,
  describeCallExplanation,
  gateSession,
  whatIfPolicy,
  proposedCallPaths,
  whatIfProposedCall,
  provenanceFacts,
  recordedChanges,
  planUndo,
  sessionSpendProjection,
  spendOf,
  sessionSpend,
  recordsCachedInputPrices,
  recordedProfiles,
  sessionCost,
  UnknownSessionError,
  appendToSession,
  replay,
  replaySession,
  recordedKernelConfig,
  recordCommand,
  recordStart,
  runSession,
  startSession
};

import {
  EgressDecisionSchema,
  SandboxProfileSchema
} from "./chunk-A7ITNCWT.js";
import {
  TimestampSchema,
  canonicalJson
} from "./chunk-W32ANIA4.js";
import {
  CorrexError
} from "./chunk-BDZLLWVY.js";

// src/core/approvals/approval-tier.ts
import { z } from "zod";
var ApprovalTierSchema = z.enum(["T0", "T1", "T2", "T3"]);
var OperatorModeSchema = z.enum(["prompt", "auto", "yolo", "deny"]);
var TIER_RANK = { T0: 0, T1: 1, T2: 2, T3: 3 };
function tierRank(tier) {
  return TIER_RANK[tier];
}
function maxTier(a, b) {
  return TIER_RANK[a] >= TIER_RANK[b] ? a : b;
}

// src/core/inference/inference-failure.ts
import { z as z2 } from "zod";
var InferenceFailureCategorySchema = z2.enum([
  /** The call outlived its `timeoutMs` (including a hung connection or a stalled stream). */
  "timeout",
  /** The provider said slow down (HTTP 429); `retryAfterMs` carries its hint when it gave one. */
  "rate_limit",
  /** Credentials were missing or refused (HTTP 401/403). Retrying will not help. */
  "auth",
  /** The provider answered, but not with something we can read (bad JSON, cut-off stream). */
  "malformed_response",
  /** The provider is unreachable or failing (connection refused, HTTP 5xx). */
  "provider_down",
  /** The caller aborted the call. */
  "cancelled",
  /** The provider rejected the request itself (HTTP 400/422, context too long). */
  "invalid_request",
  /**
   * The provider is set up so that it can never serve this request (llama-server without
   * `--jinja` refusing tools, an unknown model name, an endpoint without tool support): the
   * operator must change the server or the model profile. Retrying will not help.
   */
  "configuration"
]);
function isRetryableCategory(category) {
  switch (category) {
    case "timeout":
    case "rate_limit":
    case "malformed_response":
    case "provider_down":
      return true;
    case "auth":
    case "cancelled":
    case "invalid_request":
    case "configuration":
      return false;
  }
}
var InferenceError = class extends CorrexError {
  category;
  provider;
  retryAfterMs;
  constructor(options) {
    super(`inference_${options.category}`, `${options.provider}: ${options.message}`, {
      cause: options.cause
    });
    this.category = options.category;
    this.provider = options.provider;
    this.retryAfterMs = options.retryAfterMs;
  }
  get retryable() {
    return isRetryableCategory(this.category);
  }
};

// src/core/sessions/recorded-worktree.ts
import { z as z3 } from "zod";
var absolute = z3.string().min(1).startsWith("/");
var RecordedWorktreeSchema = z3.strictObject({
  /** The worktree's folder: the session's workspace. */
  path: absolute,
  branch: z3.string().min(1),
  /** The original working tree the session started from, left as it was. */
  repository: absolute,
  /** The git directory of `repository` (its `.git`, or its admin directory when it is a linked worktree). */
  repositoryGitDir: absolute,
  /** The repository's common git directory. */
  commonDir: absolute,
  /** The worktree's own admin directory, `<commonDir>/worktrees/<name>`. */
  gitDir: absolute,
  /** The branch (or commit, when HEAD is detached) the session started from. */
  base: z3.string().min(1)
});
async function readRecordedWorktree(store, sessionId2) {
  for (const event of await store.read(sessionId2, { limit: 8 })) {
    const payload = event.payload;
    if (payload.type === "session_created") {
      const parsed = RecordedWorktreeSchema.safeParse(payload.worktree);
      return parsed.success ? parsed.data : null;
    }
  }
  return null;
}

// src/core/sessions/session-status.ts
import { z as z4 } from "zod";
var SESSION_STATUSES = [
  "new",
  "created",
  "running",
  "paused",
  "completed",
  "failed",
  "cancelled"
];
var SessionStatusSchema = z4.enum(SESSION_STATUSES);
var LIFECYCLE_COMMANDS = [
  "create",
  "start",
  "pause",
  "resume",
  "complete",
  "fail",
  "cancel"
];
function isFinalStatus(status) {
  return status === "completed" || status === "failed" || status === "cancelled";
}

// src/core/approvals/approval-events.ts
import { z as z6 } from "zod";

// src/core/events/event-definition.ts
import { z as z5 } from "zod";
function defineEvent(spec) {
  const version = spec.version ?? 1;
  const upcasters = [...spec.upcasters ?? []].sort((a, b) => a.fromVersion - b.fromVersion);
  upcasters.forEach((upcaster, index) => {
    if (upcaster.fromVersion !== index + 1 || upcaster.fromVersion >= version) {
      throw new RangeError(
        `event ${spec.type} v${version}: upcasters must cover versions 1..${version - 1} once each`
      );
    }
  });
  if (upcasters.length !== version - 1) {
    throw new RangeError(`event ${spec.type} v${version}: expected ${version - 1} upcasters`);
  }
  const schema = z5.strictObject({ type: z5.literal(spec.type), ...spec.fields });
  return {
    type: spec.type,
    version,
    description: spec.description,
    schema,
    upcasters,
    origin: spec.origin
  };
}
function originOf(definition, payload) {
  return typeof definition.origin === "function" ? definition.origin(payload) : definition.origin;
}

// src/core/approvals/approval-events.ts
var ApproverSchema = z6.strictObject({
  kind: z6.enum(["human", "auto", "grant", "timeout"]),
  /** A person's name or id, the mode, the grant id, or the policy setting that timed out. */
  id: z6.string().min(1)
});
var approvalRequested = defineEvent({
  type: "approval_requested",
  description: "A gated tool call needs approval at the given tier before it may run.",
  origin: "decision",
  fields: {
    callId: z6.string().min(1),
    tool: z6.string().min(1),
    tier: ApprovalTierSchema,
    reason: z6.string(),
    /** When the wait ends by the policy's approval timeout (denied, never approved); absent: none. */
    deadline: TimestampSchema.optional()
  }
});
var approvalGranted = defineEvent({
  type: "approval_granted",
  description: "An approval request was granted.",
  // A person's answer enters from outside; the engine's (mode, grant, redirect) is decided.
  origin: (payload) => payload.by.kind === "human" ? "command" : "decision",
  fields: { callId: z6.string().min(1), by: ApproverSchema, reason: z6.string().optional() }
});
var approvalDenied = defineEvent({
  type: "approval_denied",
  description: "An approval request was denied; the call does not run.",
  // A person's answer enters from outside; the engine's (mode, grant, redirect) is decided.
  origin: (payload) => payload.by.kind === "human" ? "command" : "decision",
  fields: { callId: z6.string().min(1), by: ApproverSchema, reason: z6.string() }
});
var approvalTimedOut = defineEvent({
  type: "approval_timed_out",
  description: "A pending approval outlived the policy's approvalTimeoutMs; the call is denied.",
  origin: "effect_result",
  fields: { callId: z6.string().min(1), deadline: TimestampSchema }
});
var GrantScopeSchema = z6.discriminatedUnion("kind", [
  z6.strictObject({ kind: z6.literal("command"), command: z6.string().min(1) }),
  z6.strictObject({ kind: z6.literal("path"), tool: z6.string().min(1), glob: z6.string().min(1) }),
  z6.strictObject({ kind: z6.literal("host"), host: z6.string().min(1) })
]);
var approvalGrantAdded = defineEvent({
  type: "approval_grant_added",
  description: "A human added a scoped standing approval (command, path glob or host).",
  origin: "command",
  fields: {
    grantId: z6.string().min(1),
    scope: GrantScopeSchema,
    /** `stage` grants apply only inside `stageId`. */
    lifetime: z6.enum(["stage", "session"]),
    stageId: z6.string().min(1).nullable(),
    expiresAt: TimestampSchema.nullable(),
    by: z6.string().min(1),
    reason: z6.string()
  }
});
var approvalGrantRevoked = defineEvent({
  type: "approval_grant_revoked",
  description: "A human revoked a standing approval grant.",
  origin: "command",
  fields: { grantId: z6.string().min(1), by: z6.string().min(1), reason: z6.string() }
});
var approvalBypassed = defineEvent({
  type: "approval_bypassed",
  description: "An approval a human would have been asked for was bypassed by the operator mode.",
  origin: "decision",
  fields: {
    callId: z6.string().min(1),
    tool: z6.string().min(1),
    tier: ApprovalTierSchema,
    mode: OperatorModeSchema,
    reason: z6.string()
  }
});
var approvalEvents = [
  approvalRequested,
  approvalGranted,
  approvalDenied,
  approvalTimedOut,
  approvalGrantAdded,
  approvalGrantRevoked,
  approvalBypassed
];

// src/core/artifacts/artifact-events.ts
import { z as z8 } from "zod";

// src/core/artifacts/artifact.ts
import { z as z7 } from "zod";

// src/core/base/sha256.ts
var K = new Uint32Array([
  1116352408,
  1899447441,
  3049323471,
  3921009573,
  961987163,
  1508970993,
  2453635748,
  2870763221,
  3624381080,
  310598401,
  607225278,
  1426881987,
  1925078388,
  2162078206,
  2614888103,
  3248222580,
  3835390401,
  4022224774,
  264347078,
  604807628,
  770255983,
  1249150122,
  1555081692,
  1996064986,
  2554220882,
  2821834349,
  2952996808,
  3210313671,
  3336571891,
  3584528711,
  113926993,
  338241895,
  666307205,
  773529912,
  1294757372,
  1396182291,
  1695183700,
  1986661051,
  2177026350,
  2456956037,
  2730485921,
  2820302411,
  3259730800,
  3345764771,
  3516065817,
  3600352804,
  4094571909,
  275423344,
  430227734,
  506948616,
  659060556,
  883997877,
  958139571,
  1322822218,
  1537002063,
  1747873779,
  1955562222,
  2024104815,
  2227730452,
  2361852424,
  2428436474,
  2756734187,
  3204031479,
  3329325298
]);
var encoder = new TextEncoder();
var sha256Hex = (text) => digestHex(encoder.encode(text));
function digestHex(message) {
  const bitLength = message.length * 8;
  const paddedLength = message.length + 9 + 63 >> 6 << 6 >>> 0;
  const padded = new Uint8Array(paddedLength);
  padded.set(message);
  padded[message.length] = 128;
  const view = new DataView(padded.buffer);
  view.setUint32(paddedLength - 8, Math.floor(bitLength / 4294967296));
  view.setUint32(paddedLength - 4, bitLength >>> 0);
  const h = new Uint32Array([
    1779033703,
    3144134277,
    1013904242,
    2773480762,
    1359893119,
    2600822924,
    528734635,
    1541459225
  ]);
  const w = new Uint32Array(64);
  for (let offset = 0; offset < paddedLength; offset += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(offset + i * 4);
    for (let i = 16; i < 64; i++) {
      const w15 = w[i - 15];
      const w2 = w[i - 2];
      const s0 = rotr(w15, 7) ^ rotr(w15, 18) ^ w15 >>> 3;
      const s1 = rotr(w2, 17) ^ rotr(w2, 19) ^ w2 >>> 10;
      w[i] = w[i - 16] + s0 + w[i - 7] + s1 >>> 0;
    }
    let a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
    for (let i = 0; i < 64; i++) {
      const s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
      const choice = e & f ^ ~e & g;
      const t1 = k + s1 + choice + K[i] + w[i] >>> 0;
      const s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
      const majority = a & b ^ a & c ^ b & c;
      const t2 = s0 + majority >>> 0;
      k = g;
      g = f;
      f = e;
      e = d + t1 >>> 0;
      d = c;
      c = b;
      b = a;
      a = t1 + t2 >>> 0;
    }
    h[0] = h[0] + a >>> 0;
    h[1] = h[1] + b >>> 0;
    h[2] = h[2] + c >>> 0;
    h[3] = h[3] + d >>> 0;
    h[4] = h[4] + e >>> 0;
    h[5] = h[5] + f >>> 0;
    h[6] = h[6] + g >>> 0;
    h[7] = h[7] + k >>> 0;
  }
  let hex = "";
  for (const word of h) hex += word.toString(16).padStart(8, "0");
  return hex;
}
function rotr(value, bits) {
  return value >>> bits | value << 32 - bits;
}

// src/core/artifacts/artifact.ts
var ArtifactHashSchema = z7.string().regex(/^[0-9a-f]{64}$/, "expected a SHA-256 hex digest (64 lowercase hex characters)");
var ArtifactLineageSchema = z7.strictObject({
  /** The `inference_completed` event whose output this is; null for artifacts made by people or tools. */
  inferenceEventId: z7.string().min(1).nullable(),
  /** Earlier artifacts this one was derived from (a review names the change it reviewed...). */
  parents: z7.array(ArtifactHashSchema)
});
var ArtifactSchema = z7.strictObject({
  hash: ArtifactHashSchema,
  kind: z7.string().min(1),
  sessionId: z7.string().min(1),
  stageId: z7.string().min(1),
  content: z7.json(),
  lineage: ArtifactLineageSchema
});
function hashArtifact(draft, sha256 = sha256Hex) {
  const { kind, sessionId: sessionId2, stageId: stageId4, content, lineage } = draft;
  return sha256(canonicalJson({ kind, sessionId: sessionId2, stageId: stageId4, content, lineage }));
}
function createArtifact(draft, sha256 = sha256Hex) {
  const parsed = ArtifactSchema.omit({ hash: true }).parse(draft);
  return { ...parsed, hash: hashArtifact(parsed, sha256) };
}
function hasValidHash(artifact, sha256 = sha256Hex) {
  const { hash: hash2, ...draft } = artifact;
  return hashArtifact(draft, sha256) === hash2;
}

// src/core/artifacts/artifact-events.ts
var artifactProposed = defineEvent({
  type: "artifact_proposed",
  description: "A stage proposed an artifact; validation decides whether it is accepted.",
  origin: "decision",
  fields: {
    hash: ArtifactHashSchema,
    kind: z8.string().min(1),
    stageId: z8.string().min(1),
    attempt: z8.number().int().min(1),
    inferenceEventId: z8.string().min(1).nullable(),
    parents: z8.array(ArtifactHashSchema)
  }
});
var artifactAccepted = defineEvent({
  type: "artifact_accepted",
  description: "An artifact passed the whole validation pipeline.",
  origin: "decision",
  fields: {
    hash: ArtifactHashSchema,
    kind: z8.string().min(1),
    stageId: z8.string().min(1)
  }
});
var artifactEvents = [artifactProposed, artifactAccepted];

// src/core/context/brief-events.ts
import { z as z10 } from "zod";

// src/core/context/brief-references.ts
import { z as z9 } from "zod";
var BriefReferenceKindSchema = z9.enum(["path", "symbol", "command", "issue"]);
var BriefReferenceSchema = z9.strictObject({
  kind: BriefReferenceKindSchema,
  value: z9.string().min(1)
});
var COMMAND_PROGRAMS = /* @__PURE__ */ new Set([
  "npm",
  "npx",
  "pnpm",
  "yarn",
  "node",
  "tsc",
  "go",
  "cargo",
  "make",
  "pytest",
  "python",
  "python3",
  "git",
  "deno",
  "bun",
  "vitest",
  "jest",
  "eslint"
]);
var PATH = /^(?:\.{0,2}\/)?(?:[\w@.-]+\/)*[\w@-][\w@.-]*\.[A-Za-z][A-Za-z0-9]{0,7}$|^(?:\.{0,2}\/)?[\w@.-]+(?:\/[\w@.-]+)+\/?$/;
var SYMBOL = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:\(\))?$/;
var ISSUE = /(?:^|[\s(])(#\d+|[A-Z][A-Z0-9]+-\d+)\b/g;
var CODE = /`([^`\n]+)`/g;
var WORD = /[^\s`'"()<>,;]+/g;
function extractBriefReferences(task) {
  const found = [];
  const seen = /* @__PURE__ */ new Set();
  const add = (kind, value) => {
    const key = `${kind}:${value}`;
    if (seen.has(key)) return;
    seen.add(key);
    found.push({ kind, value });
  };
  const coded = /* @__PURE__ */ new Set();
  for (const match of task.matchAll(CODE)) {
    const text = match[1].trim();
    coded.add(text);
    const program = text.split(/\s+/)[0];
    if (text.includes(" ") && COMMAND_PROGRAMS.has(program)) add("command", text);
    else if (isPath(text)) add("path", trimPath(text));
    else if (SYMBOL.test(text)) add("symbol", text.replace(/\(\)$/, ""));
  }
  const prose = task.replace(CODE, " ");
  for (const match of prose.matchAll(WORD)) {
    const word = match[0].replace(/[.:!?]+$/, "");
    if (isPath(word) && !/^https?:/.test(word) && !word.includes("://"))
      add("path", trimPath(word));
  }
  for (const match of task.matchAll(ISSUE)) add("issue", match[1]);
  return found;
}
function isPath(text) {
  if (text.includes("://") || /^\d+(\.\d+)+$/.test(text)) return false;
  return PATH.test(text);
}
function trimPath(text) {
  return text.replace(/^\.\//, "").replace(/\/$/, "");
}

// src/core/context/brief-events.ts
var briefChecked = defineEvent({
  type: "brief_checked",
  description: "The task's references were extracted and its paths checked against the workspace.",
  origin: "decision",
  fields: {
    references: z10.array(BriefReferenceSchema),
    missing: z10.array(
      z10.strictObject({ path: z10.string().min(1), observedSequence: z10.number().int().min(1) })
    )
  }
});
var briefEchoCompared = defineEvent({
  type: "brief_echo_compared",
  description: "A plan's restatement of the task was compared with the brief's references.",
  origin: "decision",
  fields: {
    stageId: z10.string().min(1),
    artifactHash: z10.string().min(1),
    dropped: z10.array(BriefReferenceSchema),
    invented: z10.array(BriefReferenceSchema)
  }
});
var briefEvents = [briefChecked, briefEchoCompared];

// src/core/context/critique-events.ts
import { z as z11 } from "zod";
var reviewFindingsRecorded = defineEvent({
  type: "review_findings_recorded",
  description: "A review asked for rework; each note is recorded as a finding with an id.",
  origin: "decision",
  fields: {
    stageId: z11.string().min(1),
    attempt: z11.number().int().min(1),
    artifactHash: z11.string().min(1),
    findings: z11.array(
      z11.strictObject({
        id: z11.string().min(1),
        note: z11.string().min(1),
        paths: z11.array(z11.string().min(1))
      })
    )
  }
});
var critiqueOutcomesCorrelated = defineEvent({
  type: "critique_outcomes_correlated",
  description: "A review's findings correlated with what the rework changed and its checks.",
  origin: "decision",
  fields: {
    stageId: z11.string().min(1),
    attempt: z11.number().int().min(1),
    outcomes: z11.array(
      z11.strictObject({
        id: z11.string().min(1),
        changed: z11.boolean(),
        /** null: no check ran after the finding. */
        checksPassed: z11.boolean().nullable()
      })
    )
  }
});
var critiqueEvents = [reviewFindingsRecorded, critiqueOutcomesCorrelated];

// src/core/context/journal-events.ts
import { z as z12 } from "zod";
var journalCompacted = defineEvent({
  type: "journal_compacted",
  description: "A stage attempt's older journal entries were replaced by a recorded summary.",
  origin: "decision",
  fields: {
    stageId: z12.string().min(1),
    attempt: z12.number().int().min(1),
    throughSequence: z12.number().int().min(1),
    entries: z12.number().int().min(1),
    summary: z12.string().min(1),
    /** The summary request the model answered, when a model wrote the summary. */
    requestId: z12.string().min(1).optional()
  }
});
var journalSummaryRequested = defineEvent({
  type: "journal_summary_requested",
  description: "A model was asked to summarise a stage attempt's older journal entries.",
  origin: "decision",
  fields: {
    requestId: z12.string().min(1),
    stageId: z12.string().min(1),
    attempt: z12.number().int().min(1),
    throughSequence: z12.number().int().min(1),
    entries: z12.number().int().min(1),
    provider: z12.string().min(1),
    model: z12.string().min(1),
    profileId: z12.string().min(1),
    /** SHA-256 of the whole request; a rebuilt request must match it. */
    requestDigest: z12.string().regex(/^[0-9a-f]{64}$/),
    tokenEstimate: z12.number().int().nonnegative()
  }
});
var journalEvents = [journalCompacted, journalSummaryRequested];

// src/core/context/steering-events.ts
import { z as z13 } from "zod";
var steeringNoteAdded = defineEvent({
  type: "steering_note_added",
  description: "A steering note was added to a session (optionally for one stage).",
  origin: "command",
  fields: {
    sessionId: z13.string().min(1),
    content: z13.string().min(1).max(2e4),
    stageId: z13.string().min(1).optional()
  }
});
var steeringEvents = [steeringNoteAdded];

// src/core/events/event-catalog.ts
function createEventCatalog(definitions) {
  const byType = /* @__PURE__ */ new Map();
  for (const definition of definitions) {
    if (byType.has(definition.type))
      throw new RangeError(`event type defined twice: ${definition.type}`);
    byType.set(definition.type, definition);
  }
  return {
    definitions: byType,
    currentVersion: (type) => byType.get(type)?.version,
    safeParsePayload(raw, version) {
      const definition = byType.get(raw.type);
      if (!definition)
        return {
          ok: false,
          problem: { reason: "unknown_type", detail: `unknown event type "${raw.type}"` }
        };
      if (!Number.isInteger(version) || version < 1 || version > definition.version) {
        return {
          ok: false,
          problem: {
            reason: "schema",
            detail: `${raw.type} has no version ${version} (current is ${definition.version})`
          }
        };
      }
      let current = raw;
      for (const upcaster of definition.upcasters) {
        if (upcaster.fromVersion >= version) current = upcaster.upcast(current);
      }
      const parsed = definition.schema.safeParse(current);
      if (!parsed.success) {
        return {
          ok: false,
          problem: { reason: "schema", detail: describeIssues(raw.type, parsed.error.issues) }
        };
      }
      return { ok: true, payload: parsed.data };
    }
  };
}
function describeIssues(type, issues) {
  const parts = issues.slice(0, 3).map((issue) => {
    const path = issue.path.map(String).join(".");
    return path ? `${path}: ${issue.message}` : issue.message;
  });
  const more = issues.length > 3 ? ` (and ${issues.length - 3} more)` : "";
  return `${type} payload invalid: ${parts.join("; ")}${more}`;
}

// src/core/inference/inference-events.ts
import { z as z16 } from "zod";

// src/core/inference/context-manifest.ts
import { z as z14 } from "zod";
var ContextLayerSchema = z14.enum(["L0", "L1", "L2", "L3"]);
var SourceRefSchema = z14.strictObject({
  kind: z14.enum(["event", "artifact", "config", "builtin"]),
  id: z14.string().min(1)
});
var CompressionSchema = z14.enum(["none", "head_tail"]);
var ManifestEntrySchema = z14.strictObject({
  id: z14.string().min(1),
  layer: ContextLayerSchema,
  kind: z14.string().min(1),
  source: SourceRefSchema,
  /** Tokens the entry takes in the pack (after compression). */
  tokens: z14.number().int().nonnegative(),
  /** Tokens of the candidate before compression. */
  originalTokens: z14.number().int().nonnegative(),
  compression: CompressionSchema,
  /** Why it was compressed: the per-entry cap or budget pressure. */
  compressedBecause: z14.enum(["entry_cap", "over_budget"]).optional(),
  contentSha256: z14.string().regex(/^[0-9a-f]{64}$/)
});
var ExclusionReasonSchema = z14.enum([
  /** Scoped to another stage. */
  "other_stage",
  /** Empty after trimming. */
  "empty",
  /** Same content as an entry that went in (`duplicateOf`). */
  "duplicate",
  /** Dropped under budget pressure (lowest layer, least relevant, oldest first). */
  "over_budget"
]);
var ManifestExclusionSchema = z14.strictObject({
  id: z14.string().min(1),
  layer: ContextLayerSchema,
  kind: z14.string().min(1),
  source: SourceRefSchema,
  tokens: z14.number().int().nonnegative(),
  reason: ExclusionReasonSchema,
  duplicateOf: z14.string().min(1).optional()
});
var ContextManifestSchema = z14.strictObject({
  /** Tokens available to the pack (budget minus the reserve for output). */
  budgetTokens: z14.number().int().nonnegative(),
  totalTokens: z14.number().int().nonnegative(),
  /** Which tokenizer counted, e.g. `estimate-v1` or `llama-cpp:<model>`. */
  tokenizer: z14.string().min(1),
  included: z14.array(ManifestEntrySchema),
  excluded: z14.array(ManifestExclusionSchema)
});

// src/core/inference/inference-result.ts
import { z as z15 } from "zod";
var ToolCallProposalSchema = z15.strictObject({
  callId: z15.string().min(1),
  name: z15.string().min(1),
  argsRaw: z15.string(),
  args: z15.record(z15.string(), z15.unknown()).optional(),
  argsError: z15.string().optional(),
  argsLength: z15.number().int().nonnegative().optional(),
  argsSha256: z15.string().regex(/^[0-9a-f]{64}$/).optional()
});
var FinishReasonSchema = z15.enum([
  "stop",
  "length",
  "tool_calls",
  "content_filter",
  "error",
  "other"
]);
var TokenUsageSchema = z15.strictObject({
  /** Every prompt token the provider read, cached or not. */
  inputTokens: z15.number().int().nonnegative(),
  /** Of `inputTokens`, those read from the provider's prompt cache (when it reports them). */
  cachedInputTokens: z15.number().int().nonnegative().optional(),
  outputTokens: z15.number().int().nonnegative()
});
var InferenceResultSchema = z15.strictObject({
  text: z15.string(),
  toolCalls: z15.array(ToolCallProposalSchema),
  finishReason: FinishReasonSchema,
  usage: TokenUsageSchema,
  /** The model id the provider reports having used (may differ from the one requested). */
  modelId: z15.string().min(1),
  latencyMs: z15.number().int().nonnegative()
});

// src/core/inference/inference-events.ts
var sha256Field = z16.string().regex(/^[0-9a-f]{64}$/);
var inferenceRequested = defineEvent({
  type: "inference_requested",
  description: "A model call was decided: provider, model, pack digest and context manifest.",
  origin: "decision",
  fields: {
    requestId: z16.string().min(1),
    stageId: z16.string().min(1),
    provider: z16.string().min(1),
    model: z16.string().min(1),
    /** The model profile the router picked. */
    profileId: z16.string().min(1),
    /** SHA-256 of the rendered pack's messages. */
    packDigest: sha256Field,
    /** SHA-256 of the whole request (messages, tools, schema, limits); replay keys on it. */
    requestDigest: sha256Field,
    tokenEstimate: z16.number().int().nonnegative(),
    toolNames: z16.array(z16.string().min(1)),
    manifest: ContextManifestSchema
  }
});
var inferenceCompleted = defineEvent({
  type: "inference_completed",
  description: "A model call returned; the full response, token usage and latency.",
  origin: "effect_result",
  fields: {
    requestId: z16.string().min(1),
    provider: z16.string().min(1),
    requestDigest: sha256Field,
    result: InferenceResultSchema
  }
});
var inferenceFailed = defineEvent({
  type: "inference_failed",
  description: "A model call failed with a categorised, credential-free reason.",
  origin: "effect_result",
  fields: {
    requestId: z16.string().min(1),
    provider: z16.string().min(1),
    model: z16.string().min(1),
    category: InferenceFailureCategorySchema,
    message: z16.string(),
    retryAfterMs: z16.number().int().nonnegative().optional()
  }
});
var inferenceEvents = [inferenceRequested, inferenceCompleted, inferenceFailed];

// src/core/sessions/session-events.ts
import { z as z18 } from "zod";

// src/core/sessions/failure-category.ts
import { z as z17 } from "zod";
var FAILURE_CATEGORIES = [
  "validation",
  "transition",
  "inference",
  "tool",
  "policy",
  "provider",
  "replay",
  /**
   * The workspace lacks something the stage keeps referring to (three `reference-exists` blocks
   * for the same path in one attempt): a file-writing stage or the recovery stage can create it.
   */
  "workspace_precondition",
  /** The session reached a budget (tokens, cost, duration) and nobody raised it. */
  "budget",
  /**
   * The model provider is configured so that it cannot serve the stage (see the inference
   * category of the same name): no retry helps; the operator changes the server or the profile.
   */
  "configuration"
];
var FailureCategorySchema = z17.enum(FAILURE_CATEGORIES);

// src/core/sessions/session-events.ts
var stageId = z18.string().min(1);
var actor = z18.string().min(1);
var sessionCreated = defineEvent({
  type: "session_created",
  description: "A session was created for a task in a workspace.",
  origin: "command",
  fields: {
    task: z18.string().min(1),
    workspace: z18.string().min(1),
    workflowId: z18.string().min(1),
    mode: OperatorModeSchema,
    modelProfile: z18.string().min(1).optional(),
    /**
     * Set when the session is a sub-session: the session, stage attempt and `subagent_started`
     * event that started it (the child's first events also carry that event id as correlation).
     */
    parent: z18.strictObject({
      sessionId: z18.string().min(1),
      stageId,
      attempt: z18.number().int().min(1),
      eventId: z18.string().min(1)
    }).optional(),
    /**
     * Set when the session works in a git worktree of its own: the locations every later git
     * command correx runs for it uses (never rediscovered through the workspace's `.git`).
     */
    worktree: RecordedWorktreeSchema.optional()
  }
});
var sessionConfigured = defineEvent({
  type: "session_configured",
  description: "The effective configuration of a session was recorded before its start.",
  origin: "command",
  fields: {
    configuration: z18.record(z18.string(), z18.json()),
    /** SHA-256 of the configuration's canonical JSON. */
    digest: z18.string().regex(/^[0-9a-f]{64}$/),
    /**
     * The configuration files the session was built from (the user's and the workspace's
     * harness.yaml, a workflow file), in the order read, with the SHA-256 of the bytes read.
     * Outside `configuration`, so it never changes the digest; absent where none was read.
     */
    files: z18.array(
      z18.strictObject({ path: z18.string().min(1), sha256: z18.string().regex(/^[0-9a-f]{64}$/) })
    ).optional()
  }
});
var workflowStarted = defineEvent({
  type: "workflow_started",
  description: "The session's workflow started at its first stage.",
  origin: "decision",
  fields: { workflowId: z18.string().min(1), firstStageId: stageId }
});
var workflowCompleted = defineEvent({
  type: "workflow_completed",
  description: "The workflow reached a terminal stage successfully.",
  origin: "decision",
  fields: { finalStageId: stageId, summary: z18.string().optional() }
});
var workflowFailed = defineEvent({
  type: "workflow_failed",
  description: "The workflow ended in failure.",
  origin: "decision",
  fields: { category: FailureCategorySchema, message: z18.string(), stageId: stageId.optional() }
});
var workflowCancelled = defineEvent({
  type: "workflow_cancelled",
  description: "Someone cancelled the workflow.",
  origin: "command",
  fields: { by: actor, reason: z18.string().optional() }
});
var orchestrationPaused = defineEvent({
  type: "orchestration_paused",
  description: "The session was paused; nothing runs until it is resumed.",
  origin: "command",
  fields: { by: actor, reason: z18.string().optional() }
});
var orchestrationResumed = defineEvent({
  type: "orchestration_resumed",
  description: "A paused session was resumed.",
  origin: "command",
  fields: { by: actor }
});
var stageStarted = defineEvent({
  type: "stage_started",
  description: "A stage attempt began.",
  origin: "decision",
  fields: { stageId, attempt: z18.number().int().min(1) }
});
var stageCompleted = defineEvent({
  type: "stage_completed",
  description: "A stage attempt produced an accepted artifact.",
  origin: "decision",
  fields: {
    stageId,
    attempt: z18.number().int().min(1),
    artifactHash: z18.string().optional(),
    verdict: z18.string().optional()
  }
});
var stageFailed = defineEvent({
  type: "stage_failed",
  description: "A stage attempt failed; the retry policy decides what follows.",
  origin: "decision",
  fields: {
    stageId,
    attempt: z18.number().int().min(1),
    category: FailureCategorySchema,
    message: z18.string()
  }
});
var lifecycleRejected = defineEvent({
  type: "lifecycle_rejected",
  description: "A lifecycle command was refused in the current session status.",
  origin: "command",
  fields: {
    command: z18.enum(LIFECYCLE_COMMANDS),
    status: SessionStatusSchema,
    message: z18.string().min(1)
  }
});
var retryDelayStarted = defineEvent({
  type: "retry_delay_started",
  description: "The next model call waits until the instant the provider asked for.",
  origin: "decision",
  fields: {
    /** The failed request whose provider asked for the delay. */
    requestId: z18.string().min(1),
    provider: z18.string().min(1),
    delayMs: z18.number().int().min(1),
    until: TimestampSchema
  }
});
var retryDelayElapsed = defineEvent({
  type: "retry_delay_elapsed",
  description: "A retry delay asked for by a provider has passed; the next model call may run.",
  origin: "effect_result",
  fields: { until: TimestampSchema }
});
var sessionEvents = [
  sessionCreated,
  sessionConfigured,
  workflowStarted,
  workflowCompleted,
  workflowFailed,
  workflowCancelled,
  orchestrationPaused,
  orchestrationResumed,
  stageStarted,
  stageCompleted,
  stageFailed,
  lifecycleRejected
];
var redirectRequested = defineEvent({
  type: "redirect_requested",
  description: "A person asked to move the running session to another stage.",
  origin: "command",
  fields: { to: stageId, by: actor, reason: z18.string().optional() }
});
var stageRedirected = defineEvent({
  type: "stage_redirected",
  description: "The running stage attempt was ended by a redirect to a stage its transitions allow.",
  origin: "decision",
  fields: {
    from: stageId,
    to: stageId,
    attempt: z18.number().int().min(1),
    by: actor,
    reason: z18.string().optional()
  }
});
var redirectRejected = defineEvent({
  type: "redirect_rejected",
  description: "A redirect was refused: the workflow has no open transition to that stage.",
  origin: "decision",
  fields: { from: stageId.nullable(), to: stageId, by: actor, message: z18.string().min(1) }
});
var kernelFlowEvents = [
  retryDelayStarted,
  retryDelayElapsed,
  redirectRequested,
  stageRedirected,
  redirectRejected
];

// src/core/sessions/budget-events.ts
import { z as z19 } from "zod";
var BudgetKindSchema = z19.enum(["tokens", "cost", "duration"]);
var amount = z19.number().nonnegative();
var budgetExhausted = defineEvent({
  type: "budget_exhausted",
  description: "The session reached a budget (tokens, cost or duration) before its next model call.",
  origin: "decision",
  fields: { budget: BudgetKindSchema, limit: amount, used: amount }
});
var budgetRaised = defineEvent({
  type: "budget_raised",
  description: "A person raised one of the session budgets.",
  origin: "command",
  fields: { budget: BudgetKindSchema, limit: amount, by: z19.string().min(1) }
});
var budgetEvents = [budgetExhausted, budgetRaised];

// src/core/sessions/retry-events.ts
import { z as z20 } from "zod";
var sessionRetried = defineEvent({
  type: "session_retried",
  description: "A person retried a failed session from the stage that failed.",
  origin: "command",
  fields: {
    stageId: z20.string().min(1),
    /** The new attempt: one past the stage's last, so ids of the earlier attempts stay unique. */
    attempt: z20.number().int().min(1),
    by: z20.string().min(1),
    reason: z20.string()
  }
});
var retryEvents = [sessionRetried];

// src/core/sessions/subagent-events.ts
import { z as z21 } from "zod";
var stageId2 = z21.string().min(1);
var sessionId = z21.string().min(1);
var hash = z21.string().regex(/^[0-9a-f]{64}$/);
var subagentStarted = defineEvent({
  type: "subagent_started",
  description: "A stage attempt started a sub-session to produce its artifact.",
  origin: "decision",
  fields: {
    stageId: stageId2,
    attempt: z21.number().int().min(1),
    childSessionId: sessionId,
    workflowId: z21.string().min(1),
    task: z21.string().min(1)
  }
});
var subagentFinished = defineEvent({
  type: "subagent_finished",
  description: "A sub-session ended; a completed one hands its final artifact to its parent stage.",
  origin: "effect_result",
  fields: {
    childSessionId: sessionId,
    status: z21.enum(["completed", "failed", "cancelled"]),
    /** The child's last accepted artifact (its hash in the child's lineage, and its content). */
    artifact: z21.strictObject({ hash, kind: z21.string().min(1), stageId: stageId2, content: z21.json() }).optional(),
    /** Why the child did not complete: its `workflow_failed` (or the cancel). */
    failure: z21.strictObject({ category: FailureCategorySchema, message: z21.string() }).optional()
  }
});
var subagentEvents = [subagentStarted, subagentFinished];

// src/core/sessions/transition-events.ts
import { z as z22 } from "zod";
var stageId3 = z22.string().min(1);
var TRANSITION_REJECTIONS = [
  "unknown_stage",
  "not_current_stage",
  "unknown_verdict",
  "no_matching_transition"
];
var TransitionRejectionSchema = z22.enum(TRANSITION_REJECTIONS);
var transitionTaken = defineEvent({
  type: "transition_taken",
  description: "The workflow took a transition out of a stage.",
  origin: "decision",
  fields: {
    from: stageId3,
    /** The next stage, or absent when the workflow ends. */
    to: stageId3.optional(),
    /** How the workflow ends, when it does. */
    end: z22.enum(["completed", "failed"]).optional(),
    /** The condition that matched, e.g. `verdict:rework`, `failure:tool`, `retry`. */
    condition: z22.string().min(1),
    /** The counted edge, e.g. `review->implement` or `verify->end:failed`. */
    edge: z22.string().min(1),
    /** How many times this edge has been taken, this time included. */
    traversal: z22.number().int().min(1),
    /** The attempt number the next stage runs as (absent when the workflow ends). */
    attempt: z22.number().int().min(1).optional()
  }
});
var transitionRejected = defineEvent({
  type: "transition_rejected",
  description: "A stage outcome matched no legal transition; nothing moved.",
  origin: "decision",
  fields: {
    from: z22.string().min(1),
    reason: TransitionRejectionSchema,
    /** The outcome that was refused, e.g. `verdict:maybe`, `failure:tool`. */
    outcome: z22.string().min(1),
    message: z22.string().min(1)
  }
});
var transitionEvents = [transitionTaken, transitionRejected];

// src/core/validation/definition-of-done-events.ts
import { z as z24 } from "zod";

// src/core/validation/project-check.ts
import { z as z23 } from "zod";
var CheckSourceSchema = z23.enum([
  "package.json",
  "pyproject.toml",
  "pytest.ini",
  "go.mod",
  "Cargo.toml",
  "Makefile",
  "harness.yaml"
]);
var CheckNameSchema = z23.string().regex(/^[a-z0-9][a-z0-9:._-]*$/, "check names are lowercase [a-z0-9:._-]");
var ProjectCheckSchema = z23.strictObject({
  name: CheckNameSchema,
  /** A shell command line run in the workspace root, sandboxed like `exec`. */
  command: z23.string().min(1),
  source: CheckSourceSchema
});
var ChecksConfigSchema = z23.strictObject({
  detect: z23.boolean().default(true),
  add: z23.array(
    z23.strictObject({
      name: CheckNameSchema,
      command: z23.string().min(1),
      advisory: z23.boolean().default(false)
    })
  ).default([]),
  advisory: z23.array(CheckNameSchema).default([])
});
function effectiveProjectChecks(detected, config) {
  const byName = /* @__PURE__ */ new Map();
  if (config?.detect !== false)
    for (const check of detected)
      byName.set(check.name, { name: check.name, command: check.command, advisory: false });
  for (const added of config?.add ?? [])
    byName.set(added.name, { name: added.name, command: added.command, advisory: added.advisory });
  const advisory = new Set(config?.advisory ?? []);
  return [...byName.values()].map(
    (check) => advisory.has(check.name) ? { ...check, advisory: true } : check
  );
}
function mergeChecksConfig(global, repository) {
  if (global === void 0) return repository;
  if (repository === void 0) return global;
  const add = new Map(global.add.map((check) => [check.name, check]));
  for (const check of repository.add) add.set(check.name, check);
  return {
    detect: repository.detect && global.detect,
    add: [...add.values()],
    advisory: [.../* @__PURE__ */ new Set([...global.advisory, ...repository.advisory])]
  };
}

// src/core/validation/definition-of-done-events.ts
var dodCheckRan = defineEvent({
  type: "dod_check_ran",
  description: "A stage's definition-of-done check ran; exit code and bounded output are recorded.",
  origin: "effect_result",
  fields: {
    stageId: z24.string().min(1),
    attempt: z24.number().int().min(1),
    name: z24.string().min(1),
    command: z24.string().min(1),
    outcome: z24.enum(["completed", "timed_out", "aborted", "failed_to_start"]),
    exitCode: z24.number().int().nullable(),
    output: z24.string(),
    outputBytes: z24.number().int().min(0),
    truncated: z24.boolean(),
    durationMs: z24.number().int().min(0),
    /** The confinement the check ran under (absent in logs older than the sandbox). */
    sandbox: SandboxProfileSchema.optional()
  }
});
var projectChecksDetected = defineEvent({
  type: "project_checks_detected",
  description: "The project's checks found in the workspace at session start.",
  origin: "effect_result",
  fields: {
    checks: z24.array(ProjectCheckSchema),
    /** Project files that were there but could not be read as expected, with why. */
    problems: z24.array(z24.strictObject({ file: z24.string().min(1), message: z24.string().min(1) }))
  }
});
var LanguageDiagnosticSchema = z24.strictObject({
  /** 1-based, as people read them. */
  line: z24.number().int().min(1),
  column: z24.number().int().min(1),
  severity: z24.enum(["error", "warning", "information", "hint"]),
  message: z24.string(),
  code: z24.string().nullable()
});
var languageDiagnosticsRecorded = defineEvent({
  type: "language_diagnostics_recorded",
  description: "A language server's diagnostics for the files the session wrote.",
  origin: "effect_result",
  fields: {
    stageId: z24.string().min(1),
    attempt: z24.number().int().min(1),
    server: z24.string().min(1),
    method: z24.enum(["pull", "published", "unavailable"]),
    files: z24.array(
      z24.strictObject({ path: z24.string().min(1), diagnostics: z24.array(LanguageDiagnosticSchema) })
    ),
    error: z24.string().nullable(),
    durationMs: z24.number().int().min(0)
  }
});
var definitionOfDoneEvents = [
  dodCheckRan,
  projectChecksDetected,
  languageDiagnosticsRecorded
];

// src/core/validation/validation-events.ts
import { z as z25 } from "zod";
var VALIDATION_PHASES = ["routing", "schema", "semantic", "approval"];
var ValidationPhaseSchema = z25.enum(VALIDATION_PHASES);
var validationFailed = defineEvent({
  type: "validation_failed",
  description: "A proposed artifact failed a validation phase; it does not advance the workflow.",
  origin: "decision",
  fields: {
    hash: ArtifactHashSchema,
    stageId: z25.string().min(1),
    phase: ValidationPhaseSchema,
    validator: z25.string().min(1),
    message: z25.string().min(1)
  }
});
var validationEvents = [validationFailed];

// src/core/tools/tool-call-outcome-events.ts
import { z as z26 } from "zod";
var sha256Field2 = z26.string().regex(/^[0-9a-f]{64}$/);
var TOOL_CALL_REJECTIONS = [
  /** The arguments were not a JSON object, or did not match the tool's argument schema. */
  "malformed_args",
  /** No tool of that name is registered. */
  "unknown_tool",
  /** The tool exists but the running stage does not grant it. */
  "tool_not_allowed",
  /** The turn proposed more calls than the kernel runs per turn. */
  "call_limit",
  /** The model proposed a call that already failed as often as the kernel allows; the attempt ends. */
  "repeated_failure",
  /** The attempt ended (a repeated failure, a missing prerequisite) before this call of its turn ran. */
  "attempt_ended"
];
var ToolCallRejectionSchema = z26.enum(TOOL_CALL_REJECTIONS);
var toolCallRejected = defineEvent({
  type: "tool_call_rejected",
  description: "A proposed tool call was refused before assessment (malformed, unknown, not granted).",
  origin: "decision",
  fields: {
    callId: z26.string().min(1),
    stageId: z26.string().min(1),
    tool: z26.string().min(1),
    reason: ToolCallRejectionSchema,
    message: z26.string().min(1),
    /** The JSON Schema the arguments must match; null when the tool is unknown. */
    argsSchema: z26.record(z26.string(), z26.json()).nullable()
  }
});
var toolCallInterrupted = defineEvent({
  type: "tool_call_interrupted",
  description: "A started tool call has no receipt: the process running it ended (crash-exact recovery).",
  origin: "command",
  fields: { callId: z26.string().min(1), tool: z26.string().min(1) }
});
var CallClassificationSchema = z26.enum(["not_applied", "applied", "unknown"]);
var toolCallClassified = defineEvent({
  type: "tool_call_classified",
  description: "An interrupted tool call was classified as not applied, applied or unknown.",
  origin: "decision",
  fields: {
    callId: z26.string().min(1),
    tool: z26.string().min(1),
    classification: CallClassificationSchema,
    action: z26.enum(["execute", "record", "ask"]),
    reason: z26.string().min(1),
    targets: z26.array(
      z26.strictObject({
        path: z26.string().min(1),
        recorded: sha256Field2.nullable(),
        observed: sha256Field2.nullable()
      })
    )
  }
});
var toolCallOutcomeEvents = [
  toolCallRejected,
  toolCallInterrupted,
  toolCallClassified
];

// src/core/tools/tool-events.ts
import { z as z27 } from "zod";
var Sha256HexSchema = z27.string().regex(/^[0-9a-f]{64}$/, "expected a hex SHA-256");
var toolCallProposed = defineEvent({
  type: "tool_call_proposed",
  description: "A model proposed a tool call; nothing has run yet.",
  origin: "decision",
  fields: {
    callId: z27.string().min(1),
    stageId: z27.string().min(1),
    tool: z27.string().min(1),
    argsRaw: z27.string(),
    /** Set when `argsRaw` is only the head of unreadable text: the whole text's length. */
    argsLength: z27.number().int().nonnegative().optional()
  }
});
var TouchedFileSchema = z27.strictObject({
  path: z27.string().min(1),
  access: z27.enum(["read", "write", "delete"]),
  before: Sha256HexSchema.nullable(),
  after: Sha256HexSchema.nullable(),
  modeBefore: z27.number().int().min(0).max(4095).nullable().optional(),
  modeAfter: z27.number().int().min(0).max(4095).nullable().optional()
});
var ToolOutcomeSchema = z27.enum([
  "succeeded",
  "failed",
  "timed_out",
  "aborted",
  "world_changed",
  "refused"
]);
var toolCallStarted = defineEvent({
  type: "tool_call_started",
  description: "An approved tool call is about to run; targets and their pre-hashes are recorded.",
  origin: "decision",
  fields: {
    callId: z27.string().min(1),
    tool: z27.string().min(1),
    targets: z27.array(
      z27.strictObject({ path: z27.string().min(1), sha256: Sha256HexSchema.nullable() })
    )
  }
});
var toolReceipt = defineEvent({
  type: "tool_receipt",
  description: "A tool call finished (or was refused at execution); its effects are listed.",
  origin: "effect_result",
  fields: {
    callId: z27.string().min(1),
    tool: z27.string().min(1),
    args: z27.record(z27.string(), z27.json()),
    outcome: ToolOutcomeSchema,
    exitCode: z27.number().int().nullable(),
    /** Why the call failed or was refused, for the model and the operator. */
    error: z27.string().nullable(),
    /** At most the tool's output cap, with a truncation marker when cut. */
    output: z27.string(),
    outputBytes: z27.number().int().min(0),
    outputSha256: Sha256HexSchema,
    truncated: z27.boolean(),
    files: z27.array(TouchedFileSchema),
    durationMs: z27.number().int().min(0),
    /** Under which confinement the call's process ran (exec); absent for in-process tools. */
    sandbox: SandboxProfileSchema.optional(),
    /** The egress proxy's decisions for this call, when its network went through the proxy. */
    egress: z27.array(EgressDecisionSchema).optional(),
    /** The real path of the program that ran (exec): argv[0] resolved on the trusted PATH. */
    executable: z27.string().min(1).optional()
  }
});
var workspaceRestored = defineEvent({
  type: "workspace_restored",
  description: "Workspace files were restored to a recorded point from stored pre-images.",
  origin: "command",
  fields: {
    by: z27.string().min(1),
    /** Every change recorded after this sequence was undone. */
    toSequence: z27.number().int().min(0),
    /** The stage whose start the workspace was restored to, when asked by stage. */
    stageId: z27.string().min(1).nullable(),
    files: z27.array(TouchedFileSchema)
  }
});
var toolEvents = [
  toolCallProposed,
  toolCallStarted,
  toolReceipt,
  workspaceRestored
];

// src/core/tools/checkpoint-events.ts
import { z as z28 } from "zod";
var CheckpointFileSchema = z28.strictObject({
  path: z28.string().min(1),
  sha256: Sha256HexSchema.nullable(),
  mode: z28.number().int().min(0).max(4095).nullable()
});
var stageCheckpointRecorded = defineEvent({
  type: "stage_checkpoint_recorded",
  description: "The workspace as the log knows it, recorded at a stage boundary.",
  origin: "decision",
  fields: {
    stageId: z28.string().min(1),
    attempt: z28.number().int().min(1),
    throughSequence: z28.number().int().min(0),
    files: z28.array(CheckpointFileSchema)
  }
});
var stageStartReconciled = defineEvent({
  type: "stage_start_reconciled",
  description: "What a stage entered again starts from, against its earlier checkpoint.",
  origin: "decision",
  fields: {
    stageId: z28.string().min(1),
    attempt: z28.number().int().min(1),
    reason: z28.enum(["rework", "retry", "redirect"]),
    basis: z28.enum(["as_left"]),
    checkpointSequence: z28.number().int().min(1),
    changedSince: z28.array(z28.string().min(1))
  }
});
var checkpointEvents = [stageCheckpointRecorded, stageStartReconciled];

// src/core/toolintent/toolintent-events.ts
import { z as z30 } from "zod";

// src/core/tools/tool-contract.ts
import { z as z29 } from "zod";
var ParamRoleSchema = z29.enum(["PATH", "SOURCE_PATH", "URL", "COMMAND"]);
var ToolCapabilitySchema = z29.enum([
  "READ_ONLY",
  "WRITES_FILES",
  "EXECUTES",
  "NETWORK",
  "CONTENT_FROM_SOURCE"
]);
var ToolSourceSchema = z29.strictObject({
  kind: z29.enum(["mcp", "plugin"]),
  /** The configured server's or plugin's name. */
  id: z29.string().min(1),
  digest: z29.string().regex(/^[0-9a-f]{64}$/)
});
function defineTool(definition) {
  return Object.freeze({ ...definition, capabilities: [...definition.capabilities] });
}
function hasCapability(tool, capability) {
  return tool.capabilities.includes(capability);
}
function isMutatingTool(tool) {
  return hasCapability(tool, "WRITES_FILES") || hasCapability(tool, "EXECUTES");
}
function toolArgsJsonSchema(tool) {
  if (tool.inputJsonSchema !== void 0) return { ...tool.inputJsonSchema };
  let schema = argsJsonSchemas.get(tool.argsSchema);
  if (schema === void 0) {
    schema = z29.toJSONSchema(tool.argsSchema, { target: "draft-2020-12", io: "input" });
    argsJsonSchemas.set(tool.argsSchema, schema);
  }
  return structuredClone(schema);
}
var argsJsonSchemas = /* @__PURE__ */ new WeakMap();

// src/core/toolintent/toolintent-events.ts
var WorldObservationSchema = z30.strictObject({
  /** The lexically normalized absolute path that was probed (ToolPath.resolve output). */
  path: z30.string().min(1),
  /** The kind of what the path finally resolves to; `missing` when nothing is there. */
  kind: z30.enum(["file", "directory", "other", "missing"]),
  /**
   * Every symlink resolved; for a missing path, the real path of its deepest existing ancestor
   * with the remaining segments appended (so a dangling link's destination is still judged).
   */
  realPath: z30.string().min(1),
  /** The link text when the path itself is a symlink. */
  linkTarget: z30.string().nullable(),
  /** Content hash for regular files (null for others, or files over the probe's hash limit). */
  sha256: z30.string().regex(/^[0-9a-f]{64}$/).nullable(),
  size: z30.number().int().min(0).nullable(),
  mtimeMs: z30.number().int().nullable(),
  /** Hard-link count of a regular file; above 1 the same bytes live elsewhere too. */
  linkCount: z30.number().int().min(0).nullable(),
  /**
   * The path kept changing while it was probed (twice): nothing above is trustworthy, so the
   * other fields are empty and kind is `other`. Absent on every stable observation.
   */
  changedDuringObservation: z30.literal(true).optional()
});
var worldObserved = defineEvent({
  type: "world_observed",
  description: "The WorldProbe observed a path on disk; rules read this instead of the disk.",
  origin: "effect_result",
  fields: { callId: z30.string().min(1).nullable(), observation: WorldObservationSchema }
});
var FindingSchema = z30.strictObject({
  ruleId: z30.string().min(1),
  severity: z30.enum(["info", "ask", "block"]),
  code: z30.string().min(1),
  message: z30.string().min(1),
  /** The least tier this finding needs; RiskMapping takes the maximum. */
  tier: ApprovalTierSchema,
  /**
   * For a stale write: the content hash the model last saw and the one on disk now (null where
   * none: not a regular file, or too large to hash). Absent on other findings.
   */
  hashes: z30.strictObject({
    atRead: z30.string().nullable(),
    now: z30.string().nullable()
  }).optional()
});
var AssessedTargetSchema = z30.strictObject({
  role: ParamRoleSchema,
  param: z30.string().min(1),
  /** The argument as the model wrote it. */
  raw: z30.string(),
  /** ToolPath.resolve output, or the URL/host for network targets. */
  resolved: z30.string(),
  /** The observed real path (symlinks resolved), or null where none applies. */
  realPath: z30.string().nullable(),
  write: z30.boolean()
});
var VerdictSchema = z30.enum(["ALLOW", "ASK", "BLOCK"]);
var RiskLevelSchema = z30.enum(["low", "medium", "high", "critical"]);
var toolCallAssessed = defineEvent({
  type: "tool_call_assessed",
  description: "A proposed tool call was assessed against the workspace policy rules.",
  origin: "decision",
  fields: {
    callId: z30.string().min(1),
    tool: z30.string().min(1),
    verdict: VerdictSchema,
    tier: ApprovalTierSchema,
    risk: RiskLevelSchema,
    findings: z30.array(FindingSchema),
    targets: z30.array(AssessedTargetSchema)
  }
});
var egressAllowlistChanged = defineEvent({
  type: "egress_allowlist_changed",
  description: "Hosts were added to or removed from the session egress allowlist.",
  origin: "command",
  fields: {
    added: z30.array(z30.string().min(1)),
    removed: z30.array(z30.string().min(1)),
    by: z30.string().min(1),
    reason: z30.string()
  }
});
var toolIntentEvents = [worldObserved, toolCallAssessed, egressAllowlistChanged];

// src/core/toolintent/hook-events.ts
import { z as z31 } from "zod";
var HookOutcomeSchema = z31.enum([
  "answered",
  "crashed",
  "timed_out",
  "garbage",
  "failed_to_start"
]);
var PreToolUseHookResultSchema = z31.strictObject({
  hook: z31.string().min(1),
  outcome: HookOutcomeSchema,
  /** What it decided (`block` for every ending but `answered`). */
  decision: z31.enum(["allow", "block", "raise"]),
  /** The tier it raised the call to (`raise` only). */
  tier: ApprovalTierSchema.nullable(),
  reason: z31.string(),
  durationMs: z31.number().int().min(0)
});
var preToolUseHooksRan = defineEvent({
  type: "pre_tool_use_hooks_ran",
  description: "The user's pre_tool_use hooks answered for a call (or failed closed).",
  origin: "effect_result",
  fields: {
    callId: z31.string().min(1),
    results: z31.array(PreToolUseHookResultSchema)
  }
});
var hookEvents = [preToolUseHooksRan];

// src/core/event-catalog.ts
var eventDefinitions = [
  ...sessionEvents,
  ...transitionEvents,
  ...artifactEvents,
  ...validationEvents,
  ...approvalEvents,
  ...toolEvents,
  ...toolIntentEvents,
  ...steeringEvents,
  ...inferenceEvents,
  ...toolCallOutcomeEvents,
  ...definitionOfDoneEvents,
  ...journalEvents,
  ...kernelFlowEvents,
  ...subagentEvents,
  ...hookEvents,
  ...budgetEvents,
  ...retryEvents,
  ...briefEvents,
  ...critiqueEvents,
  ...checkpointEvents
];
var correxEventCatalog = createEventCatalog(eventDefinitions);

export {
  ParamRoleSchema,
  ToolCapabilitySchema,
  ToolSourceSchema,
  defineTool,
  hasCapability,
  isMutatingTool,
  toolArgsJsonSchema,
  sha256Hex,
  ChecksConfigSchema,
  effectiveProjectChecks,
  mergeChecksConfig,
  ApprovalTierSchema,
  OperatorModeSchema,
  tierRank,
  maxTier,
  FailureCategorySchema,
  createArtifact,
  hasValidHash,
  originOf,
  VALIDATION_PHASES,
  extractBriefReferences,
  steeringNoteAdded,
  InferenceFailureCategorySchema,
  InferenceError,
  FinishReasonSchema,
  TokenUsageSchema,
  InferenceResultSchema,
  RecordedWorktreeSchema,
  readRecordedWorktree,
  isFinalStatus,
  correxEventCatalog
};

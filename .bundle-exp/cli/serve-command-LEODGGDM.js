import {
  reservedNameReason
} from "./chunk-X5SESA4I.js";
import {
  allowedWorkspace
} from "./chunk-EIUC3KSU.js";
import {
  describeSessionDiff
} from "./chunk-PGOHPXNJ.js";
import {
  undoSessionChanges
} from "./chunk-ATWBWUEV.js";
import {
  leaseColumns,
  lockColumns
} from "./chunk-ZAILTHT4.js";
import {
  createUuidV7IdSource,
  systemClock
} from "./chunk-EZ2TTS6C.js";
import "./chunk-I3NCHX22.js";
import {
  collectApprovalDetails,
  readApprovalDetails
} from "./chunk-U2ZHV2HL.js";
import {
  ALWAYS_ALLOW_REASON,
  alwaysAllowScope,
  describeGrantScope,
  recordGrant
} from "./chunk-BE4BQRBL.js";
import {
  recordedFileContent
} from "./chunk-DZXTZ55Z.js";
import {
  createPreimageStore,
  preimageDirectory
} from "./chunk-76ZWS4BR.js";
import "./chunk-NR7OTU2D.js";
import {
  activeGrants,
  appendToSession,
  approvalGrantsProjection,
  replay,
  sessionProjection,
  sessionSpendProjection,
  spendOf
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

// src/interfaces/cli/commands/serve-command.ts
import { Command, InvalidArgumentError } from "commander";
import { pino as pino2 } from "pino";

// src/interfaces/server/correx-server.ts
import { realpathSync } from "node:fs";
import websocket from "@fastify/websocket";
import Fastify, {
  LogController
} from "fastify";
import { pino } from "pino";

// src/interfaces/protocol/to-event-dto.ts
function toEventDto(event) {
  return {
    eventId: event.eventId,
    sessionId: event.sessionId,
    sequence: event.sequence,
    timestamp: event.timestamp,
    version: event.version,
    causationId: event.causationId,
    correlationId: event.correlationId,
    type: event.payload.type,
    payload: event.payload
  };
}

// src/interfaces/server/event-message-encoder.ts
function createEventMessageEncoder() {
  const cache = /* @__PURE__ */ new WeakMap();
  return {
    encode(event) {
      let text = cache.get(event);
      if (text === void 0) {
        const message = {
          type: "event",
          sessionId: event.sessionId,
          event: toEventDto(event)
        };
        text = JSON.stringify(message);
        cache.set(event, text);
      }
      return text;
    }
  };
}

// src/interfaces/server/openapi-document.ts
import { z as z9 } from "zod";

// src/interfaces/protocol/client-message.ts
import { z as z2 } from "zod";

// src/interfaces/protocol/wire-values.ts
import { z } from "zod";
var SessionStatusDtoSchema = z.enum([
  "new",
  "created",
  "running",
  "paused",
  "completed",
  "failed",
  "cancelled"
]);
var OperatorModeDtoSchema = z.enum(["prompt", "auto", "yolo", "deny"]);
var ApprovalTierDtoSchema = z.enum(["T0", "T1", "T2", "T3"]);
var VerdictDtoSchema = z.enum(["ALLOW", "ASK", "BLOCK"]);
var RiskLevelDtoSchema = z.enum(["low", "medium", "high", "critical"]);
var FindingSeverityDtoSchema = z.enum(["info", "ask", "block"]);
var UserInputModeSchema = z.enum(["normal", "steering"]);
var IdentifierSchema = z.string().min(1).max(256).regex(/^[\x21-\x7e]+$/, "expected printable ASCII without spaces");
var SequenceCursorSchema = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
var DeciderSchema = z.string().min(1).max(128);
var ReasonSchema = z.string().min(1).max(2e3);
var GrantScopeDtoSchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("command"), command: z.string().min(1).max(8192) }),
  z.strictObject({
    kind: z.literal("path"),
    tool: z.string().min(1).max(128),
    glob: z.string().min(1).max(1024)
  }),
  z.strictObject({ kind: z.literal("host"), host: z.string().min(1).max(256) })
]);

// src/interfaces/protocol/client-message.ts
var RequestIdSchema = z2.string().min(1).max(128);
var ClientMessageSchema = z2.discriminatedUnion("type", [
  /** Every event of the session after `afterSequence`, then live events as they are recorded. */
  z2.strictObject({
    type: z2.literal("subscribe"),
    sessionId: IdentifierSchema,
    afterSequence: SequenceCursorSchema.default(0)
  }),
  z2.strictObject({ type: z2.literal("unsubscribe"), sessionId: IdentifierSchema }),
  /** A message for the session's router: a question (`normal`) or a steering request. */
  z2.strictObject({
    type: z2.literal("user_input"),
    requestId: RequestIdSchema,
    sessionId: IdentifierSchema,
    text: z2.string().min(1).max(8e3),
    mode: UserInputModeSchema
  }),
  /** Every session's list row each time it changes (`session_updated`), until unsubscribed. */
  z2.strictObject({ type: z2.literal("subscribe_sessions") }),
  z2.strictObject({ type: z2.literal("unsubscribe_sessions") }),
  z2.strictObject({ type: z2.literal("ping"), requestId: RequestIdSchema.optional() })
]);

// src/interfaces/protocol/rest-dto.ts
import { z as z5 } from "zod";

// src/interfaces/protocol/event-dto.ts
import { z as z3 } from "zod";
var EventDtoSchema = z3.strictObject({
  eventId: IdentifierSchema,
  sessionId: IdentifierSchema,
  sequence: z3.number().int().min(1),
  timestamp: z3.string(),
  /** The payload's schema version as stored. */
  version: z3.number().int().min(1),
  causationId: z3.string().nullable(),
  correlationId: z3.string().nullable(),
  type: z3.string().min(1),
  payload: z3.looseObject({ type: z3.string().min(1) })
});

// src/interfaces/protocol/session-dto.ts
import { z as z4 } from "zod";
var PendingApprovalDtoSchema = z4.strictObject({
  callId: IdentifierSchema,
  tool: z4.string(),
  tier: ApprovalTierDtoSchema
});
var ApprovalTargetDtoSchema = z4.strictObject({
  /** The tool parameter it came from (`path`, `url`...). */
  param: z4.string(),
  /** The argument as the model wrote it. */
  raw: z4.string(),
  /** The absolute path (or URL/host) it resolves to. */
  resolved: z4.string(),
  /** The real path with symlinks resolved, where one applies. */
  realPath: z4.string().nullable(),
  write: z4.boolean()
});
var ApprovalFindingDtoSchema = z4.strictObject({
  ruleId: z4.string(),
  severity: FindingSeverityDtoSchema,
  code: z4.string(),
  message: z4.string(),
  /** The least tier this finding needs. */
  tier: ApprovalTierDtoSchema
});
var PendingApprovalDetailsDtoSchema = PendingApprovalDtoSchema.extend({
  /** Why it asks (the approval request's reason). */
  reason: z4.string(),
  stageId: z4.string().nullable(),
  /** The arguments as the raw JSON text the model sent. */
  arguments: z4.string().nullable(),
  verdict: VerdictDtoSchema.nullable(),
  risk: RiskLevelDtoSchema.nullable(),
  targets: z4.array(ApprovalTargetDtoSchema),
  findings: z4.array(ApprovalFindingDtoSchema),
  /**
   * The exact grant "always allow" records for this call (as the CLI's prompt), or null when no
   * single exact grant covers just it (or it is not known here).
   */
  alwaysAllow: z4.strictObject({
    scope: GrantScopeDtoSchema,
    description: z4.string()
  }).nullable(),
  /**
   * For a write or edit: the file's content as the session's log recorded it before the call
   * (its last whole read and the writes since), to diff against; null when the log never held it.
   */
  recordedContent: z4.string().nullable()
});
var StageRunDtoSchema = z4.strictObject({
  stageId: z4.string(),
  attempt: z4.number().int().min(1)
});
var TokensDtoSchema = z4.strictObject({ input: z4.number(), output: z4.number() });
var SessionDtoSchema = z4.strictObject({
  sessionId: IdentifierSchema,
  status: SessionStatusDtoSchema,
  task: z4.string().nullable(),
  workspace: z4.string().nullable(),
  workflowId: z4.string().nullable(),
  /** The operator (approval) mode the session was created with; null before `session_created`. */
  mode: OperatorModeDtoSchema.nullable(),
  activeStage: StageRunDtoSchema.extend({ startedAt: z4.string() }).nullable(),
  nextStage: StageRunDtoSchema.nullable(),
  lastStageId: z4.string().nullable(),
  pendingApprovals: z4.array(PendingApprovalDtoSchema),
  tokens: TokensDtoSchema,
  /** US dollars by the prices of the model profiles the session recorded; null when none has prices. */
  cost: z4.number().nonnegative().nullable(),
  failure: z4.strictObject({ category: z4.string(), message: z4.string() }).nullable(),
  lastSequence: z4.number().int().min(0),
  /** Whether this server process is driving the session now. */
  running: z4.boolean()
});
var SessionListItemDtoSchema = z4.strictObject({
  sessionId: IdentifierSchema,
  status: SessionStatusDtoSchema,
  task: z4.string().nullable(),
  /** The folder it works in, as `session_created` recorded it. */
  workspace: z4.string().nullable(),
  /** The stage running now, else the one it moves to next, else the last one that ran. */
  stage: z4.string().nullable(),
  mode: OperatorModeDtoSchema.nullable(),
  tokens: TokensDtoSchema,
  /** US dollars by the recorded profiles' prices; null when none has prices. */
  cost: z4.number().nonnegative().nullable(),
  /** How many tool calls wait for a person. */
  pendingApprovals: z4.number().int().min(0),
  lastSequence: z4.number().int().min(0),
  firstTimestamp: z4.string(),
  lastTimestamp: z4.string(),
  running: z4.boolean(),
  /**
   * This server holds it while it waits for a person: a decision made here drives it on at once.
   * False (or absent, from an older server) with `running` false and no live `driver`: nobody
   * drives it, and a decision only takes effect when someone resumes it.
   */
  attended: z4.boolean().optional(),
  /** Who drives it now, any process on a shared store (a worker's name); absent: not known here. */
  driver: z4.string().nullable().optional(),
  /** How long ago its driver last renewed its lease, in ms; null: nobody holds it. */
  leaseAgeMs: z4.number().min(0).nullable().optional(),
  /** Its driver let the lease run out (or lost its lock connection): another may take it over. */
  stalled: z4.boolean().optional()
});

// src/interfaces/protocol/rest-dto.ts
var CreateSessionRequestSchema = z5.strictObject({
  task: z5.string().min(1).max(2e4),
  /** An absolute path inside one of the server's allowed roots. */
  workspace: z5.string().min(1).max(4096),
  workflow: z5.string().min(1).max(256).optional(),
  modelProfile: z5.string().min(1).max(256).optional(),
  mode: OperatorModeDtoSchema.optional(),
  /** Work in a git worktree of the workspace's repository on branch `correx/<session>`. */
  worktree: z5.boolean().optional()
});
var CreateSessionResponseSchema = z5.strictObject({ sessionId: IdentifierSchema });
var ListSessionsQuerySchema = z5.strictObject({
  status: SessionStatusDtoSchema.optional()
});
var ListSessionsResponseSchema = z5.strictObject({
  sessions: z5.array(SessionListItemDtoSchema)
});
var SessionOptionsResponseSchema = z5.strictObject({
  /** Real paths of the folders a workspace must be (or be inside). */
  allowedRoots: z5.array(z5.string()),
  workflows: z5.array(z5.string()),
  defaultWorkflow: z5.string(),
  modelProfiles: z5.array(z5.string()),
  /** Null when the configuration names none (the host picks). */
  defaultModelProfile: z5.string().nullable(),
  modes: z5.array(OperatorModeDtoSchema),
  defaultMode: OperatorModeDtoSchema
});
var GetSessionResponseSchema = SessionDtoSchema;
var EventsPageQuerySchema = z5.strictObject({
  after: z5.coerce.number().pipe(SequenceCursorSchema).default(0),
  limit: z5.coerce.number().int().min(1).max(1e3).default(200)
});
var EventsPageResponseSchema = z5.strictObject({
  events: z5.array(EventDtoSchema),
  /** Pass as `after` to read the next page. */
  nextAfter: SequenceCursorSchema,
  /** The session's last sequence when the page was read; `nextAfter < lastSequence` means more. */
  lastSequence: SequenceCursorSchema
});
var ListApprovalsResponseSchema = z5.strictObject({
  approvals: z5.array(PendingApprovalDetailsDtoSchema)
});
var DecideApprovalRequestSchema = z5.discriminatedUnion("decision", [
  z5.strictObject({
    decision: z5.literal("approve"),
    reason: ReasonSchema.optional(),
    by: DeciderSchema.optional()
  }),
  z5.strictObject({
    decision: z5.literal("deny"),
    reason: ReasonSchema,
    by: DeciderSchema.optional()
  })
]);
var SteeringNoteRequestSchema = z5.strictObject({
  content: z5.string().min(1).max(8e3),
  stageId: z5.string().min(1).max(256).optional()
});
var LifecycleRequestSchema = z5.strictObject({
  reason: ReasonSchema.optional(),
  by: DeciderSchema.optional()
});
var RedirectRequestSchema = z5.strictObject({
  to: z5.string().min(1).max(256),
  reason: ReasonSchema.optional(),
  by: DeciderSchema.optional()
});
var CommandResponseSchema = z5.strictObject({
  events: z5.array(EventDtoSchema),
  /** True when the session refused the command (a `lifecycle_rejected` event was recorded). */
  refused: z5.boolean()
});
var ReplayVerifyResponseSchema = z5.discriminatedUnion("ok", [
  z5.strictObject({ ok: z5.literal(true), events: z5.number().int().min(0) }),
  z5.strictObject({
    ok: z5.literal(false),
    events: z5.number().int().min(0),
    divergence: z5.strictObject({
      sequence: z5.number().int(),
      reason: z5.string(),
      expected: z5.string().nullable(),
      actual: z5.string().nullable()
    })
  })
]);
var ErrorCodeSchema = z5.enum([
  "unauthorized",
  "forbidden_host",
  "forbidden_origin",
  /** A body named a decider other than the server's authenticated identity. */
  "forbidden_decider",
  "invalid_request",
  "payload_too_large",
  "not_found",
  "session_not_found",
  "workspace_not_allowed",
  "conflict",
  /** Every WebSocket the server allows is open; REST still answers. */
  "too_many_sockets",
  "internal"
]);
var ErrorResponseSchema = z5.strictObject({
  error: z5.strictObject({ code: ErrorCodeSchema, message: z5.string() })
});

// src/interfaces/protocol/server-message.ts
import { z as z6 } from "zod";
var SocketErrorCodeSchema = z6.enum([
  /** Not JSON, or not a ClientMessage; `issues` says why. */
  "invalid_message",
  "message_too_large",
  "session_not_found",
  /** The cursor is past the session's last event (a different store, or a client bug). */
  "cursor_out_of_range",
  "already_subscribed",
  "not_subscribed",
  "too_many_subscriptions",
  "too_many_requests",
  "router_unavailable",
  "router_failed",
  "internal"
]);
var ServerMessageSchema = z6.discriminatedUnion("type", [
  /** The subscription is open; `event` messages follow from `afterSequence + 1`. */
  z6.strictObject({
    type: z6.literal("subscribed"),
    sessionId: IdentifierSchema,
    afterSequence: SequenceCursorSchema
  }),
  /** One event; per session, sequences arrive in order with no gap and no repeat. */
  z6.strictObject({ type: z6.literal("event"), sessionId: IdentifierSchema, event: EventDtoSchema }),
  /** Every event recorded before the subscription was delivered; live events follow. */
  z6.strictObject({
    type: z6.literal("caught_up"),
    sessionId: IdentifierSchema,
    sequence: SequenceCursorSchema
  }),
  /** A tool call waits for a person (decide it with REST `POST .../approvals/:callId`). */
  z6.strictObject({
    type: z6.literal("approval_requested"),
    sessionId: IdentifierSchema,
    sequence: z6.number().int().min(1),
    approval: PendingApprovalDetailsDtoSchema
  }),
  z6.strictObject({ type: z6.literal("unsubscribed"), sessionId: IdentifierSchema }),
  /** The router's answer to a `user_input`. */
  z6.strictObject({
    type: z6.literal("router_response"),
    requestId: z6.string(),
    sessionId: IdentifierSchema,
    answer: z6.string(),
    /** Event sequences of the session that the answer relies on. */
    citedSequences: z6.array(z6.number().int().min(1)),
    /** The steering note the input became, when it became one. */
    note: z6.strictObject({ eventId: z6.string(), sequence: z6.number().int().min(1) }).optional()
  }),
  /** The session list follows (after `subscribe_sessions`): `session_updated` messages come. */
  z6.strictObject({ type: z6.literal("sessions_subscribed") }),
  z6.strictObject({ type: z6.literal("sessions_unsubscribed") }),
  /**
   * A session's list row after new events (any session, throttled per session). Sent to
   * connections that asked with `subscribe_sessions`.
   */
  z6.strictObject({ type: z6.literal("session_updated"), session: SessionListItemDtoSchema }),
  z6.strictObject({ type: z6.literal("pong"), requestId: z6.string().optional() }),
  z6.strictObject({
    type: z6.literal("error"),
    code: SocketErrorCodeSchema,
    message: z6.string(),
    requestId: z6.string().optional(),
    sessionId: z6.string().optional()
  })
]);

// src/interfaces/server/api-routes.ts
import "zod";

// src/interfaces/protocol/grants-dto.ts
import { z as z7 } from "zod";
var GrantDtoSchema = z7.strictObject({
  grantId: z7.string(),
  scope: GrantScopeDtoSchema,
  description: z7.string(),
  stageId: z7.string().nullable(),
  expiresAt: z7.string().nullable(),
  by: z7.string(),
  reason: z7.string()
});
var ListGrantsResponseSchema = z7.strictObject({ grants: z7.array(GrantDtoSchema) });
var AddGrantRequestSchema = z7.strictObject({
  scope: GrantScopeDtoSchema,
  /** Only in this stage; default: the whole session. */
  stage: z7.string().min(1).max(256).optional(),
  /** An ISO-8601 instant it expires at. */
  until: z7.iso.datetime({ offset: true }).optional(),
  reason: ReasonSchema,
  by: DeciderSchema.optional()
});
var AddGrantResponseSchema = z7.strictObject({
  grantId: z7.string(),
  event: EventDtoSchema
});
var RevokeGrantRequestSchema = z7.strictObject({
  reason: ReasonSchema.optional(),
  by: DeciderSchema.optional()
});
var AlwaysAllowRequestSchema = z7.strictObject({
  by: DeciderSchema.optional()
});
var AlwaysAllowResponseSchema = CommandResponseSchema.extend({
  grantId: z7.string(),
  scope: GrantScopeDtoSchema
});

// src/interfaces/protocol/session-changes-dto.ts
import { z as z8 } from "zod";
var SessionDiffQuerySchema = z8.strictObject({
  stage: z8.string().min(1).max(256).optional()
});
var Sha256OrAbsent = z8.string().nullable();
var FileDiffDtoSchema = z8.strictObject({
  path: z8.string(),
  change: z8.enum(["created", "modified", "deleted"]),
  /** Octal modes (`0644`, `absent`) when the call changed the mode. */
  mode: z8.strictObject({ before: z8.string(), after: z8.string() }).nullable(),
  /** SHA-256 of the bytes before and after (null: absent). */
  before: Sha256OrAbsent,
  after: Sha256OrAbsent,
  /** Unified diff hunks (`@@ … @@`, ` `, `-`, `+` lines); empty: same bytes; null: see `note`. */
  hunks: z8.array(z8.string()).nullable(),
  note: z8.string().nullable()
});
var ChangeDiffDtoSchema = z8.strictObject({
  sequence: z8.number().int().min(1),
  callId: z8.string(),
  stageId: z8.string().nullable(),
  tool: z8.string(),
  outcome: z8.string(),
  /** The command line of an exec, or null. */
  command: z8.string().nullable(),
  files: z8.array(FileDiffDtoSchema)
});
var SessionDiffResponseSchema = z8.strictObject({
  changes: z8.array(ChangeDiffDtoSchema)
});
var UndoRequestSchema = z8.strictObject({
  to: SequenceCursorSchema.optional(),
  stage: z8.string().min(1).max(256).optional(),
  by: DeciderSchema.optional()
});
var UndoResponseSchema = z8.strictObject({
  /** `nothing`: the workspace already is at that point; nothing was recorded. */
  outcome: z8.enum(["restored", "nothing"]),
  toSequence: SequenceCursorSchema,
  files: z8.array(z8.strictObject({ path: z8.string(), access: z8.enum(["read", "write", "delete"]) })),
  /** The recorded `workspace_restored`, or null when nothing was undone. */
  event: EventDtoSchema.nullable()
});
var UndoRefusedResponseSchema = z8.strictObject({
  error: z8.strictObject({ code: z8.literal("conflict"), message: z8.string() }),
  /** Files that no longer hold what correx last recorded. */
  changedOutside: z8.array(z8.string()),
  /** Files whose earlier bytes were never kept. */
  missingPreimages: z8.array(z8.string()),
  /**
   * Files whose path no longer resolves inside the workspace (a folder on the way was replaced
   * by a symlink or a file): undo never writes through it.
   */
  outsideWorkspace: z8.array(z8.string())
});

// src/interfaces/server/api-routes.ts
var session = "/api/sessions/:sessionId";
var apiRoutes = {
  createSession: {
    method: "POST",
    path: "/api/sessions",
    summary: "Start a session (the workspace must be inside an allowed root)",
    body: CreateSessionRequestSchema,
    success: [201, CreateSessionResponseSchema]
  },
  listSessions: {
    method: "GET",
    path: "/api/sessions",
    summary: "List the sessions in the store with their status, stage, mode, tokens and pending approvals (optionally only those with one status)",
    query: ListSessionsQuerySchema,
    success: [200, ListSessionsResponseSchema]
  },
  getSession: {
    method: "GET",
    path: session,
    summary: "One session as its events say it stands",
    success: [200, GetSessionResponseSchema]
  },
  listEvents: {
    method: "GET",
    path: `${session}/events`,
    summary: "A page of a session's events after a sequence",
    query: EventsPageQuerySchema,
    success: [200, EventsPageResponseSchema]
  },
  listApprovals: {
    method: "GET",
    path: `${session}/approvals`,
    summary: "The tool calls that wait for a person, with their arguments, resolved targets and rule findings",
    success: [200, ListApprovalsResponseSchema]
  },
  decideApproval: {
    method: "POST",
    path: `${session}/approvals/:callId`,
    summary: "Approve or deny a pending tool call; a waiting session continues",
    body: DecideApprovalRequestSchema,
    success: [200, CommandResponseSchema]
  },
  alwaysAllow: {
    method: "POST",
    path: `${session}/approvals/:callId/always-allow`,
    summary: `Always allow a pending call: record the exact grant the CLI's "always allow" records (its command line, its one path for its tool, or its one host, for the session), then approve the call; 409 when no single exact grant covers just it`,
    body: AlwaysAllowRequestSchema,
    success: [200, AlwaysAllowResponseSchema]
  },
  listGrants: {
    method: "GET",
    path: `${session}/grants`,
    summary: "The session's active standing approval grants (as `correx grants`)",
    success: [200, ListGrantsResponseSchema]
  },
  addGrant: {
    method: "POST",
    path: `${session}/grants`,
    summary: "Allow one exact command, path pattern (for one tool) or host without asking again, for the session or one stage (as `correx grant`)",
    body: AddGrantRequestSchema,
    success: [200, AddGrantResponseSchema]
  },
  revokeGrant: {
    method: "POST",
    path: `${session}/grants/:grantId/revoke`,
    summary: "Revoke a standing approval grant (as `correx revoke`); later calls are asked again",
    body: RevokeGrantRequestSchema,
    success: [200, AddGrantResponseSchema]
  },
  addSteeringNote: {
    method: "POST",
    path: `${session}/steering`,
    summary: "Add a steering note that the session's next context pack carries",
    body: SteeringNoteRequestSchema,
    success: [200, CommandResponseSchema]
  },
  pause: {
    method: "POST",
    path: `${session}/pause`,
    summary: "Pause a session once its running effect has finished",
    body: LifecycleRequestSchema,
    success: [200, CommandResponseSchema]
  },
  resume: {
    method: "POST",
    path: `${session}/resume`,
    summary: "Resume a paused session and drive it here",
    body: LifecycleRequestSchema,
    success: [200, CommandResponseSchema]
  },
  retry: {
    method: "POST",
    path: `${session}/retry`,
    summary: "Retry a failed session from the stage that failed, in a new attempt, and drive it here (as `correx resume --retry`); `reason` is recorded. 400 when the session has not failed",
    body: LifecycleRequestSchema,
    success: [200, CommandResponseSchema]
  },
  cancel: {
    method: "POST",
    path: `${session}/cancel`,
    summary: "Cancel a session; a running model or tool call is stopped",
    body: LifecycleRequestSchema,
    success: [200, CommandResponseSchema]
  },
  redirect: {
    method: "POST",
    path: `${session}/redirect`,
    summary: "Move the running session to another stage, only along a transition its workflow declares; the outcome arrives as stage_redirected or redirect_rejected",
    body: RedirectRequestSchema,
    success: [200, CommandResponseSchema]
  },
  sessionDiff: {
    method: "GET",
    path: `${session}/diff`,
    summary: "What the session changed in its workspace, call by call with the commands (exec change records, file writes, undos), as unified diffs of the stored pre-images; `stage` keeps one stage's calls (as `correx diff`)",
    query: SessionDiffQuerySchema,
    success: [200, SessionDiffResponseSchema]
  },
  undo: {
    method: "POST",
    path: `${session}/undo`,
    summary: "Restore the workspace files the recorded changes touched to a recorded point (`to`: after that event; `stage`: since it last started; default: everything), all or nothing, and record `workspace_restored` (as `correx undo`). 409 lists files changed outside correx since, and refuses a running session",
    body: UndoRequestSchema,
    success: [200, UndoResponseSchema],
    refusal: [409, UndoRefusedResponseSchema]
  },
  replayVerify: {
    method: "POST",
    path: `${session}/replay-verify`,
    summary: "Re-decide the session from its log, without model or tools, and compare bytes",
    success: [200, ReplayVerifyResponseSchema]
  },
  sessionOptions: {
    method: "GET",
    path: "/api/options",
    summary: "What a new session may be started with: allowed roots, workflows, model profiles, modes and the defaults",
    success: [200, SessionOptionsResponseSchema]
  },
  openapi: {
    method: "GET",
    path: "/api/openapi.json",
    summary: "This document",
    success: [200, null]
  },
  websocket: {
    method: "GET",
    path: "/api/ws",
    summary: "WebSocket (upgrade): send ClientMessage, receive ServerMessage, one JSON object per text frame. Authenticate with `Authorization: Bearer` or a `correx.token.<token>` subprotocol next to `correx.v1`.",
    success: [101, null]
  }
};

// src/interfaces/server/openapi-document.ts
function createOpenApiDocument(version) {
  const paths = {};
  for (const [name, route] of Object.entries(apiRoutes)) {
    const path = route.path.replace(/:([A-Za-z]+)/g, "{$1}");
    (paths[path] ??= {})[route.method.toLowerCase()] = operation(name, route);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "correx server",
      version,
      description: "Every request needs `Authorization: Bearer <token>` (the token is in $CORREX_HOME/server-token). Requests from another Origin or to another Host are refused."
    },
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
      schemas: {
        Error: jsonSchema(ErrorResponseSchema, "output"),
        ClientMessage: jsonSchema(ClientMessageSchema, "input"),
        ServerMessage: jsonSchema(ServerMessageSchema, "output")
      }
    },
    security: [{ bearer: [] }],
    paths
  };
}
function operation(name, route) {
  const [status, body] = route.success;
  const parameters = [...route.path.matchAll(/:([A-Za-z]+)/g)].map((match) => ({
    name: match[1],
    in: "path",
    required: true,
    schema: { type: "string" }
  }));
  if (route.query) {
    const schema = jsonSchema(route.query, "input");
    for (const [key, property] of Object.entries(schema.properties ?? {})) {
      parameters.push({
        name: key,
        in: "query",
        required: schema.required?.includes(key) ?? false,
        schema: property
      });
    }
  }
  const error = {
    content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } }
  };
  return {
    operationId: name,
    summary: route.summary,
    ...parameters.length === 0 ? {} : { parameters },
    ...route.body === void 0 ? {} : {
      requestBody: {
        required: true,
        content: { "application/json": { schema: jsonSchema(route.body, "input") } }
      }
    },
    responses: {
      [status]: {
        description: "success",
        ...body === null ? {} : { content: { "application/json": { schema: jsonSchema(body, "output") } } }
      },
      ...route.refusal === void 0 ? {} : {
        [route.refusal[0]]: {
          description: "refused",
          content: {
            "application/json": { schema: jsonSchema(route.refusal[1], "output") }
          }
        }
      },
      "4XX": { description: "refused", ...error }
    }
  };
}
function jsonSchema(schema, io) {
  const { $schema: _dialect, ...rest } = z9.toJSONSchema(schema, {
    io,
    unrepresentable: "any"
  });
  return rest;
}

// src/interfaces/server/request-guard.ts
import { createHash, timingSafeEqual } from "node:crypto";

// src/interfaces/server/server-errors.ts
var ApiError = class extends CorrexError {
  status;
  wireCode;
  constructor(status, wireCode, message) {
    super(`api_${wireCode}`, message);
    this.status = status;
    this.wireCode = wireCode;
  }
};
var ServerTokenError = class extends CorrexError {
  constructor(code, message) {
    super(code, message);
  }
};
var ServerConfigError = class extends CorrexError {
  constructor(message) {
    super("server_config_invalid", message);
  }
};

// src/interfaces/server/request-guard.ts
var TOKEN_SUBPROTOCOL_PREFIX = "correx.token.";
var WIRE_SUBPROTOCOL = "correx.v1";
var LOOPBACK_HOSTS = ["127.0.0.1", "localhost", "[::1]"];
function createRequestGuard(options) {
  const hosts = new Set(options.hosts.map((host) => host.toLowerCase()));
  const proxyHosts = new Set((options.proxyHosts ?? []).map((host) => host.toLowerCase()));
  let expected = digest(options.token);
  const hostAllowed = (header) => {
    const parsed = header === void 0 ? null : parseHostHeader(header);
    if (parsed === null) return false;
    if (proxyHosts.has(parsed.name)) return true;
    if (!hosts.has(parsed.name)) return false;
    return (parsed.port ?? 80) === options.port();
  };
  const originAllowed = (origin) => {
    const normalized = origin.toLowerCase();
    if (options.extraOrigins?.some((extra) => extra.toLowerCase() === normalized)) return true;
    for (const host of [...hosts, ...proxyHosts])
      if (normalized === `http://${host}:${options.port()}`) return true;
    return false;
  };
  return {
    setToken(token) {
      expected = digest(token);
    },
    check(headers) {
      if (!hostAllowed(headers.host)) {
        return new ApiError(403, "forbidden_host", "this server does not answer to that Host");
      }
      if (headers.origin !== void 0 && !originAllowed(headers.origin)) {
        return new ApiError(403, "forbidden_origin", "requests from that Origin are not allowed");
      }
      const presented = presentedToken(headers);
      if (presented === void 0 || !timingSafeEqual(digest(presented), expected)) {
        return new ApiError(401, "unauthorized", "a valid bearer token is required");
      }
      return null;
    }
  };
}
function presentedToken(headers) {
  const bearer = /^Bearer ([\x21-\x7e]+)$/i.exec(headers.authorization ?? "");
  if (bearer) return bearer[1];
  for (const protocol of (headers["sec-websocket-protocol"] ?? "").split(",")) {
    const trimmed = protocol.trim();
    if (trimmed.startsWith(TOKEN_SUBPROTOCOL_PREFIX)) {
      return trimmed.slice(TOKEN_SUBPROTOCOL_PREFIX.length);
    }
  }
  return void 0;
}
function parseHostHeader(header) {
  const match = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::([0-9]{1,5}))?$/i.exec(header);
  if (match === null) return null;
  const port = match[2] === void 0 ? null : Number(match[2]);
  if (port !== null && (port < 1 || port > 65535)) return null;
  return { name: match[1].toLowerCase(), port };
}
function digest(value) {
  return createHash("sha256").update(value).digest();
}

// src/interfaces/protocol/to-pending-approval-dto.ts
function toPendingApprovalDetailsDto(pending, details, extras = {
  alwaysAllow: null,
  recordedContent: null
}) {
  const assessment = details?.assessment ?? null;
  return {
    callId: pending.callId,
    tool: pending.tool,
    tier: pending.tier,
    reason: details?.request?.reason ?? "",
    stageId: details?.proposal?.stageId ?? null,
    arguments: details?.proposal?.argsRaw ?? null,
    verdict: assessment?.verdict ?? null,
    risk: assessment?.risk ?? null,
    targets: (assessment?.targets ?? []).map(({ param, raw, resolved, realPath, write }) => ({
      param,
      raw,
      resolved,
      realPath,
      write
    })),
    findings: (assessment?.findings ?? []).map(({ ruleId, severity, code, message, tier }) => ({
      ruleId,
      severity,
      code,
      message,
      tier
    })),
    alwaysAllow: extras.alwaysAllow,
    recordedContent: extras.recordedContent
  };
}

// src/interfaces/protocol/to-session-dto.ts
function toSessionDto(state, sessionId, running2, mode, cost) {
  return {
    sessionId,
    status: state.status,
    task: state.task,
    workspace: state.workspace,
    workflowId: state.workflowId,
    mode,
    activeStage: state.activeStage && { ...state.activeStage },
    nextStage: state.nextStage && { ...state.nextStage },
    lastStageId: state.lastStageId,
    pendingApprovals: state.pendingApprovals.map(({ callId, tool, tier }) => ({
      callId,
      tool,
      tier
    })),
    tokens: { input: state.tokens.input, output: state.tokens.output },
    cost,
    failure: state.failure && { category: state.failure.category, message: state.failure.message },
    lastSequence: state.lastSequence,
    running: running2
  };
}
function toSessionListItemDto(summary, state, running2, mode, cost) {
  return {
    sessionId: summary.sessionId,
    status: state.status,
    task: state.task,
    workspace: state.workspace,
    stage: state.activeStage?.stageId ?? state.nextStage?.stageId ?? state.lastStageId,
    mode,
    tokens: { input: state.tokens.input, output: state.tokens.output },
    cost,
    pendingApprovals: state.pendingApprovals.length,
    lastSequence: summary.lastSequence,
    firstTimestamp: summary.firstTimestamp,
    lastTimestamp: summary.lastTimestamp,
    running: running2
  };
}
function toReplayVerifyResponse(verification) {
  if (verification.ok) return { ok: true, events: verification.events };
  const { sequence, reason, expected, actual } = verification.divergence;
  return {
    ok: false,
    events: verification.events,
    divergence: { sequence, reason, expected, actual }
  };
}

// src/interfaces/server/pending-approval-extras.ts
var WRITES = /* @__PURE__ */ new Set(["write_file", "edit_file"]);
function writesFile(details) {
  return details?.proposal !== null && WRITES.has(details?.proposal?.tool ?? "");
}
function pendingApprovalExtras(details, workspace, events) {
  const scope = details === void 0 || workspace === null ? null : alwaysAllowScope(details, workspace);
  const target = details?.assessment?.targets.find((candidate) => candidate.write);
  const path = target?.realPath ?? target?.resolved;
  const recorded = events === null || path === void 0 || !writesFile(details) ? void 0 : recordedFileContent(events, path, details?.request?.sequence ?? Number.MAX_SAFE_INTEGER);
  return {
    alwaysAllow: scope === null ? null : { scope, description: describeGrantScope(scope) },
    recordedContent: recorded ?? null
  };
}

// src/interfaces/server/parse-request-part.ts
function parseRequestPart(schema, value, what) {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.slice(0, 5).map((issue) => `${issue.path.join(".") || what}: ${issue.message}`);
  throw new ApiError(400, "invalid_request", `invalid ${what}: ${issues.join("; ")}`);
}

// src/interfaces/server/grant-routes.ts
function grantHandlers(deps) {
  const { store, sessionOf, decider, record } = deps;
  const context = { recording: deps.recording };
  return {
    async alwaysAllow(request) {
      const { sessionId, session: session2 } = await sessionOf(request);
      const callId = parseRequestPart(IdentifierSchema, request.params.callId, "call id");
      const body = parseRequestPart(AlwaysAllowRequestSchema, request.body ?? {}, "body");
      const by = decider(body.by);
      if (!session2.state.pendingApprovals.some((approval) => approval.callId === callId))
        throw new ApiError(409, "conflict", `call ${callId} is not waiting for approval`);
      const details = (await readApprovalDetails(store, sessionId, [callId], {
        upToSequence: session2.state.lastSequence
      })).get(callId);
      const scope = details === void 0 || session2.state.workspace === null ? null : alwaysAllowScope(details, session2.state.workspace);
      if (scope === null)
        throw new ApiError(
          409,
          "conflict",
          `no single exact grant covers just call ${callId}; approve it once instead`
        );
      const granted = await recordGrant(context.recording, store, sessionId, {
        scope,
        stageId: null,
        expiresAt: null,
        by,
        reason: ALWAYS_ALLOW_REASON
      });
      const { body: approved } = await record(request, {
        type: "approve",
        callId,
        by,
        reason: `always allowed: ${granted.grantId}`
      });
      const response = {
        grantId: granted.grantId,
        scope,
        events: [toEventDto(granted.event), ...approved.events],
        refused: approved.refused
      };
      return { body: response };
    },
    async listGrants(request) {
      const { sessionId } = await sessionOf(request);
      const { state } = await replay(store, approvalGrantsProjection, sessionId);
      const response = {
        grants: activeGrants(state, context.recording.clock.now()).map((grant) => ({
          grantId: grant.grantId,
          scope: grant.scope,
          description: describeGrantScope(grant.scope),
          stageId: grant.stageId,
          expiresAt: grant.expiresAt,
          by: grant.by,
          reason: grant.reason
        }))
      };
      return { body: response };
    },
    async addGrant(request) {
      const { sessionId } = await sessionOf(request);
      const body = parseRequestPart(AddGrantRequestSchema, request.body, "body");
      const granted = await recordGrant(context.recording, store, sessionId, {
        scope: body.scope,
        stageId: body.stage ?? null,
        expiresAt: body.until === void 0 ? null : new Date(body.until).toISOString(),
        by: decider(body.by),
        reason: body.reason
      });
      const response = {
        grantId: granted.grantId,
        event: toEventDto(granted.event)
      };
      return { body: response };
    },
    async revokeGrant(request) {
      const { sessionId } = await sessionOf(request);
      const grantId = parseRequestPart(IdentifierSchema, request.params.grantId, "grant id");
      const body = parseRequestPart(RevokeGrantRequestSchema, request.body ?? {}, "body");
      const by = decider(body.by);
      const { state } = await replay(store, approvalGrantsProjection, sessionId);
      const grant = state.grants[grantId];
      if (grant === void 0)
        throw new ApiError(404, "not_found", `session ${sessionId} has no grant ${grantId}`);
      if (grant.revoked) throw new ApiError(409, "conflict", `${grantId} was already revoked`);
      const event = await appendToSession(context.recording, store, sessionId, {
        type: "approval_grant_revoked",
        grantId,
        by,
        reason: body.reason ?? "revoked from the web page"
      });
      const response = { grantId, event: toEventDto(event) };
      return { body: response };
    }
  };
}

// src/interfaces/server/undo-response.ts
var running = (sessionId) => new ApiError(409, "conflict", `session ${sessionId} is running: pause or cancel it first`);
function refuseRunningUndo(sessionId) {
  throw running(sessionId);
}
function undoResponse(sessionId, result) {
  switch (result.outcome) {
    case "unknown_session":
      throw new ApiError(404, "session_not_found", `no session ${sessionId}`);
    case "running":
      throw running(sessionId);
    case "invalid":
      throw new ApiError(400, "invalid_request", result.message);
    case "refused":
      return {
        status: 409,
        body: {
          error: {
            code: "conflict",
            message: `refused to undo; nothing was changed: ${[
              ...result.changedSince.map((path) => `${path} changed outside correx since`),
              ...result.missingPreimages.map((path) => `no stored pre-image of ${path}`),
              ...result.outsideWorkspace.map(
                (path) => `${path} no longer resolves inside the workspace`
              )
            ].join("; ")}`
          },
          changedOutside: [...result.changedSince],
          missingPreimages: [...result.missingPreimages],
          outsideWorkspace: [...result.outsideWorkspace]
        }
      };
    case "nothing":
      return {
        body: { outcome: "nothing", toSequence: result.toSequence, files: [], event: null }
      };
    case "restored":
      return {
        body: {
          outcome: "restored",
          toSequence: result.toSequence,
          files: result.files.map((file) => ({ path: file.path, access: file.access })),
          event: toEventDto(result.event)
        }
      };
  }
}

// src/interfaces/server/rest-routes.ts
function registerRestRoutes(app, context) {
  const { host, store, index } = context;
  const sessionOf = async (request) => {
    const sessionId = parseRequestPart(IdentifierSchema, request.params.sessionId, "session id");
    const session2 = await index.get(sessionId);
    if (session2 === null) throw new ApiError(404, "session_not_found", `no session ${sessionId}`);
    return { sessionId, session: session2 };
  };
  const decider = (named) => {
    if (named === void 0 || named === context.user) return context.user;
    const reserved = reservedNameReason(named);
    throw new ApiError(
      403,
      "forbidden_decider",
      `${reserved === null ? `"${named}" is not who this server authenticates` : reserved}; decisions through this server are recorded as ${context.user}`
    );
  };
  const record = async (request, command) => {
    const { sessionId } = await sessionOf(request);
    const events = await host.command(sessionId, command);
    return {
      body: {
        events: events.map(toEventDto),
        refused: events.some((event) => event.payload.type === "lifecycle_rejected")
      }
    };
  };
  const lifecycle = (type) => async (request) => {
    const body = parseRequestPart(LifecycleRequestSchema, request.body ?? {}, "body");
    const by = decider(body.by);
    if (type === "resume") return record(request, { type, by });
    return record(request, {
      type,
      by,
      ...body.reason === void 0 ? {} : { reason: body.reason }
    });
  };
  const handlers = {
    async createSession(request) {
      const body = parseRequestPart(CreateSessionRequestSchema, request.body, "body");
      const workspace = await allowedWorkspace2(body.workspace, context.allowedRoots);
      const run = await host.start({
        task: body.task,
        workspace,
        ...body.workflow === void 0 ? {} : { workflow: body.workflow },
        ...body.modelProfile === void 0 ? {} : { modelProfile: body.modelProfile },
        ...body.mode === void 0 ? {} : { mode: body.mode },
        ...body.worktree === true ? { worktree: true } : {}
      });
      context.onStarted(run.sessionId, run.done);
      const response = { sessionId: run.sessionId };
      return { status: 201, body: response };
    },
    async listSessions(request) {
      const query = parseRequestPart(ListSessionsQuerySchema, request.query, "query");
      const running2 = new Set(host.running());
      const attending = new Set(host.attending?.() ?? []);
      const drivers = await host.drivers?.();
      const rows = await index.list();
      const response = {
        sessions: rows.filter(
          ({ session: session2 }) => query.status === void 0 || session2.state.status === query.status
        ).map(({ summary, session: session2 }) => ({
          ...toSessionListItemDto(
            summary,
            session2.state,
            running2.has(summary.sessionId),
            session2.mode,
            spendOf(session2.spend).costUsd
          ),
          attended: attending.has(summary.sessionId),
          ...drivers === void 0 ? lockColumns(host, summary.sessionId) : leaseColumns(drivers.get(summary.sessionId))
        }))
      };
      return { body: response };
    },
    async getSession(request) {
      const { sessionId, session: session2 } = await sessionOf(request);
      const response = toSessionDto(
        session2.state,
        sessionId,
        host.running().includes(sessionId),
        session2.mode,
        spendOf(session2.spend).costUsd
      );
      return { body: response };
    },
    async sessionOptions() {
      const options = await host.options();
      const response = {
        allowedRoots: [...context.allowedRoots],
        workflows: [...options.workflows],
        defaultWorkflow: options.defaultWorkflow,
        modelProfiles: [...options.modelProfiles],
        defaultModelProfile: options.defaultModelProfile,
        modes: [...OperatorModeDtoSchema.options],
        defaultMode: options.defaultMode
      };
      return { body: response };
    },
    async listEvents(request) {
      const { sessionId } = await sessionOf(request);
      const query = parseRequestPart(EventsPageQuerySchema, request.query, "query");
      const events = await store.read(sessionId, {
        afterSequence: query.after,
        limit: query.limit
      });
      const response = {
        events: events.map(toEventDto),
        nextAfter: events.at(-1)?.sequence ?? query.after,
        lastSequence: await store.lastSequence(sessionId)
      };
      return { body: response };
    },
    async listApprovals(request) {
      const { sessionId, session: session2 } = await sessionOf(request);
      const pending = session2.state.pendingApprovals;
      const details = await readApprovalDetails(
        store,
        sessionId,
        pending.map((approval) => approval.callId),
        { upToSequence: session2.state.lastSequence }
      );
      const log = [...details.values()].some(writesFile) ? await store.read(sessionId) : null;
      const response = {
        approvals: pending.map(
          (approval) => toPendingApprovalDetailsDto(
            approval,
            details.get(approval.callId),
            pendingApprovalExtras(details.get(approval.callId), session2.state.workspace, log)
          )
        )
      };
      return { body: response };
    },
    async decideApproval(request) {
      const callId = parseRequestPart(IdentifierSchema, request.params.callId, "call id");
      const body = parseRequestPart(DecideApprovalRequestSchema, request.body, "body");
      const by = decider(body.by);
      return record(
        request,
        body.decision === "approve" ? {
          type: "approve",
          callId,
          by,
          ...body.reason === void 0 ? {} : { reason: body.reason }
        } : { type: "deny", callId, by, reason: body.reason }
      );
    },
    ...grantHandlers({ store, recording: context.recording, sessionOf, decider, record }),
    async addSteeringNote(request) {
      const body = parseRequestPart(SteeringNoteRequestSchema, request.body, "body");
      return record(request, {
        type: "steer",
        content: body.content,
        ...body.stageId === void 0 ? {} : { stageId: body.stageId }
      });
    },
    async redirect(request) {
      const body = parseRequestPart(RedirectRequestSchema, request.body, "body");
      return record(request, {
        type: "redirect",
        to: body.to,
        by: decider(body.by),
        ...body.reason === void 0 ? {} : { reason: body.reason }
      });
    },
    // What `correx resume --retry` records; the host drives a session whose retry was recorded.
    async retry(request) {
      const body = parseRequestPart(LifecycleRequestSchema, request.body ?? {}, "body");
      return record(request, {
        type: "retry",
        by: decider(body.by),
        ...body.reason === void 0 ? {} : { reason: body.reason }
      });
    },
    pause: lifecycle("pause"),
    resume: lifecycle("resume"),
    cancel: lifecycle("cancel"),
    async sessionDiff(request) {
      const { sessionId } = await sessionOf(request);
      const query = parseRequestPart(SessionDiffQuerySchema, request.query, "query");
      const response = {
        changes: describeSessionDiff(
          await store.read(sessionId),
          context.preimages,
          query.stage === void 0 ? {} : { stageId: query.stage }
        )
      };
      return { body: response };
    },
    async undo(request) {
      const { sessionId } = await sessionOf(request);
      const body = parseRequestPart(UndoRequestSchema, request.body ?? {}, "body");
      const by = decider(body.by);
      if (host.running().includes(sessionId)) refuseRunningUndo(sessionId);
      const result = await undoSessionChanges(
        { store, recording: context.recording, preimages: context.preimages ?? noPreimages },
        {
          sessionId,
          by,
          ...body.to === void 0 ? {} : { toSequence: body.to },
          ...body.stage === void 0 ? {} : { stageId: body.stage }
        }
      );
      return undoResponse(sessionId, result);
    },
    async replayVerify(request) {
      const { sessionId } = await sessionOf(request);
      return { body: toReplayVerifyResponse(await host.replayVerify(sessionId)) };
    },
    async openapi() {
      return { body: context.openapi };
    },
    websocket() {
      throw new ApiError(400, "invalid_request", "this path only accepts WebSocket upgrades");
    }
  };
  for (const [name, route] of Object.entries(apiRoutes)) {
    if (name === "websocket") continue;
    const handler = handlers[name];
    app.route({
      method: route.method,
      url: route.path,
      handler: async (request, reply) => {
        const { status, body } = await handler(request);
        return reply.code(status ?? 200).send(body);
      }
    });
  }
}
var noPreimages = {
  directory: "",
  put: () => {
    throw new Error("this server keeps no pre-images");
  },
  get: () => null,
  has: () => false
};
async function allowedWorkspace2(path, roots) {
  const allowed = await allowedWorkspace(path, roots);
  if (allowed.ok) return allowed.path;
  throw allowed.reason === "outside" ? new ApiError(403, "workspace_not_allowed", allowed.message) : new ApiError(400, "invalid_request", allowed.message);
}

// src/interfaces/server/server-deps.ts
var DEFAULT_LIMITS = {
  maxBodyBytes: 64 * 1024,
  maxMessageBytes: 64 * 1024,
  maxFrameBytes: 1024 * 1024,
  maxSubscriptionsPerSocket: 64,
  maxRouterRequestsPerSocket: 4,
  maxConnections: 1024,
  maxSockets: 256,
  maxBufferedBytes: 4 * 1024 * 1024,
  slowConsumerMs: 3e4,
  messageBurst: 200,
  messagesPerSecond: 50
};

// src/interfaces/server/store-head-position.ts
async function headPosition(store) {
  let head = 0;
  for (const session2 of await store.listSessions()) {
    const [last] = await store.read(session2.sessionId, {
      afterSequence: session2.lastSequence - 1,
      limit: 1
    });
    if (last !== void 0 && last.position > head) head = last.position;
  }
  return head;
}

// src/interfaces/server/session-feed.ts
var PAGE = 500;
function createSessionFeed(options) {
  const { store } = options;
  const bySession = /* @__PURE__ */ new Map();
  const stop = new AbortController();
  let started = null;
  let pump = Promise.resolve();
  const add = (follow) => {
    let set = bySession.get(follow.sessionId);
    if (!set) bySession.set(follow.sessionId, set = /* @__PURE__ */ new Set());
    set.add(follow);
  };
  const remove = (follow) => {
    follow.closed = true;
    const set = bySession.get(follow.sessionId);
    set?.delete(follow);
    if (set?.size === 0) bySession.delete(follow.sessionId);
  };
  const deliverLive = (follow, event) => {
    if (follow.closed || event.sequence <= follow.cursor) return;
    if (event.sequence === follow.cursor + 1) {
      follow.cursor = event.sequence;
      follow.follower.onEvent(event, true);
      return;
    }
    follow.state = "filling";
    follow.buffer.push(event);
    void fill(follow);
  };
  const readMissing = async (follow, live) => {
    for (; ; ) {
      const page = await store.read(follow.sessionId, {
        afterSequence: follow.cursor,
        limit: PAGE
      });
      for (const event of page) {
        const wait = follow.follower.ready?.();
        if (wait !== void 0) await wait;
        if (follow.closed) return;
        if (event.sequence !== follow.cursor + 1) continue;
        follow.cursor = event.sequence;
        follow.follower.onEvent(event, live);
      }
      if (page.length < PAGE || follow.closed) return;
    }
  };
  const drain = (follow) => {
    const buffered = follow.buffer.sort((a, b) => a.sequence - b.sequence);
    follow.buffer = [];
    follow.state = "live";
    for (const event of buffered) {
      if (follow.state !== "live") follow.buffer.push(event);
      else deliverLive(follow, event);
    }
  };
  const fill = async (follow) => {
    try {
      const before = follow.cursor;
      await readMissing(follow, true);
      const next = follow.buffer.reduce((min, event) => Math.min(min, event.sequence), Infinity);
      if (follow.cursor === before && next > follow.cursor + 1) {
        throw new Error(
          `session ${follow.sessionId}: the feed yielded #${next} but the store has nothing after #${follow.cursor}`
        );
      }
      drain(follow);
    } catch (error) {
      remove(follow);
      follow.follower.onError(error);
    }
  };
  const dispatch = (event) => {
    const set = bySession.get(event.sessionId);
    if (!set) return;
    for (const follow of set) {
      if (follow.state === "live") deliverLive(follow, event);
      else follow.buffer.push(event);
    }
  };
  const start = async () => {
    const head = await headPosition(store);
    const subscription = store.subscribe({ afterPosition: head, signal: stop.signal });
    pump = (async () => {
      try {
        for await (const message of subscription) {
          if (message.type === "event") dispatch(message.event);
        }
      } catch (error) {
        if (stop.signal.aborted) return;
        started = null;
        for (const set of bySession.values()) {
          for (const follow of set) {
            follow.closed = true;
            follow.follower.onError(error);
          }
        }
        bySession.clear();
      }
    })();
  };
  return {
    async follow(sessionId, afterSequence, follower, signal) {
      if (stop.signal.aborted) throw new Error("the session feed is closed");
      await (started ??= start());
      const follow = {
        sessionId,
        follower,
        cursor: afterSequence,
        state: "catching_up",
        buffer: [],
        closed: false
      };
      if (signal.aborted) return;
      add(follow);
      signal.addEventListener("abort", () => remove(follow), { once: true });
      try {
        await readMissing(follow, false);
      } catch (error) {
        remove(follow);
        throw error;
      }
      if (follow.closed) return;
      follower.onCaughtUp(follow.cursor);
      drain(follow);
    },
    followers: () => [...bySession.values()].reduce((sum, set) => sum + set.size, 0),
    async close() {
      stop.abort();
      for (const set of bySession.values()) for (const follow of set) follow.closed = true;
      bySession.clear();
      await pump;
    }
  };
}

// src/interfaces/server/session-index.ts
var SHUTDOWN_ACTOR = "correx serve";
var SHUTDOWN_REASON = "server shutdown";
function createSessionIndex(store) {
  const cache = /* @__PURE__ */ new Map();
  const inFlight = /* @__PURE__ */ new Map();
  const refresh = async (sessionId) => {
    let entry = cache.get(sessionId) ?? {
      state: sessionProjection.initial(),
      spend: sessionSpendProjection.initial(),
      pausedByShutdown: false,
      mode: null,
      firstTimestamp: "",
      lastTimestamp: ""
    };
    for await (const event of store.stream(sessionId, {
      afterSequence: entry.state.lastSequence
    })) {
      const payload = event.payload;
      entry = {
        state: sessionProjection.evolve(entry.state, event),
        spend: sessionSpendProjection.evolve(entry.spend, event),
        pausedByShutdown: payload.type === "orchestration_paused" ? payload.by === SHUTDOWN_ACTOR && payload.reason === SHUTDOWN_REASON : entry.pausedByShutdown && payload.type !== "orchestration_resumed",
        mode: payload.type === "session_created" ? payload.mode : entry.mode,
        firstTimestamp: entry.firstTimestamp || event.timestamp,
        lastTimestamp: event.timestamp
      };
    }
    cache.set(sessionId, entry);
    return entry;
  };
  const get = (sessionId) => {
    const previous = inFlight.get(sessionId) ?? Promise.resolve();
    const next = previous.catch(() => void 0).then(() => refresh(sessionId));
    inFlight.set(sessionId, next);
    void next.finally(() => {
      if (inFlight.get(sessionId) === next) inFlight.delete(sessionId);
    }).catch(() => void 0);
    return next;
  };
  return {
    async get(sessionId) {
      const entry = await get(sessionId);
      return entry.state.lastSequence === 0 ? null : entry;
    },
    async list() {
      const summaries = await store.listSessions();
      const rows = [];
      for (const summary of summaries)
        rows.push({ summary, session: await get(summary.sessionId) });
      return rows;
    }
  };
}

// src/interfaces/server/session-list-feed.ts
function createSessionListFeed(options) {
  const { store, index, logger } = options;
  const throttleMs = options.throttleMs ?? 250;
  const watchers = /* @__PURE__ */ new Set();
  const throttles = /* @__PURE__ */ new Map();
  const timers = /* @__PURE__ */ new Set();
  let subscription = null;
  let closed = false;
  const row = async (sessionId) => {
    const session2 = await index.get(sessionId);
    if (session2 === null) return null;
    const { state } = session2;
    const drivers = await options.drivers?.();
    return {
      ...toSessionListItemDto(
        {
          sessionId,
          lastSequence: state.lastSequence,
          firstTimestamp: session2.firstTimestamp,
          lastTimestamp: session2.lastTimestamp
        },
        state,
        options.running().includes(sessionId),
        session2.mode,
        spendOf(session2.spend).costUsd
      ),
      attended: options.attending?.().includes(sessionId) ?? false,
      ...drivers === void 0 ? lockColumns({ lockHolder: options.lockHolder }, sessionId) : leaseColumns(drivers.get(sessionId))
    };
  };
  const emit = async (sessionId, throttle) => {
    throttle.dirty = false;
    try {
      const current = await row(sessionId);
      const text = JSON.stringify(current);
      if (current !== null && text !== throttle.last && !closed) {
        throttle.last = text;
        for (const watcher of watchers) watcher(current);
      }
    } catch (error) {
      logger.error({ err: error, sessionId }, "session list row failed");
    }
    if (closed) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (throttle.dirty || options.running().includes(sessionId)) {
        void emit(sessionId, throttle);
      } else {
        throttles.delete(sessionId);
      }
    }, throttleMs);
    timers.add(timer);
  };
  const changed = (sessionId) => {
    const throttle = throttles.get(sessionId);
    if (throttle) {
      throttle.dirty = true;
      return;
    }
    const fresh = { dirty: false, last: "" };
    throttles.set(sessionId, fresh);
    void emit(sessionId, fresh);
  };
  const start = () => {
    const controller = new AbortController();
    let markReady = () => void 0;
    const ready = new Promise((resolve) => markReady = resolve);
    const current = { controller, ready };
    subscription = current;
    void (async () => {
      try {
        const head = await headPosition(store);
        if (controller.signal.aborted) return;
        const messages = store.subscribe({ afterPosition: head, signal: controller.signal });
        markReady();
        for await (const message of messages) {
          if (message.type === "event") changed(message.event.sessionId);
        }
      } catch (error) {
        if (controller.signal.aborted) return;
        logger.error({ err: error }, "session list subscription failed");
        if (subscription === current) subscription = null;
        if (watchers.size > 0 && !closed) void start();
      } finally {
        markReady();
      }
    })();
    return ready;
  };
  const stop = () => {
    subscription?.controller.abort();
    subscription = null;
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
    throttles.clear();
  };
  return {
    watch(watcher) {
      if (closed) return { ready: Promise.resolve(), stop: () => void 0 };
      watchers.add(watcher);
      const ready = subscription?.ready ?? start();
      return {
        ready,
        stop() {
          if (!watchers.delete(watcher)) return;
          if (watchers.size === 0) stop();
        }
      };
    },
    watchers: () => watchers.size,
    async close() {
      closed = true;
      watchers.clear();
      stop();
    }
  };
}

// src/interfaces/server/approval-tracker.ts
var KEPT_CALLS = 256;
var PRIME_WINDOW = 200;
function createApprovalTracker() {
  const byCall = /* @__PURE__ */ new Map();
  let workspace = null;
  const observe = (event) => {
    const payload = event.payload;
    if (payload.type === "session_created") workspace = payload.workspace;
    if (!("callId" in payload) || typeof payload.callId !== "string") return;
    const events = byCall.get(payload.callId);
    if (events) {
      events.push(event);
      return;
    }
    byCall.set(payload.callId, [event]);
    if (byCall.size > KEPT_CALLS) {
      const oldest = byCall.keys().next().value;
      if (oldest !== void 0) byCall.delete(oldest);
    }
  };
  return {
    async prime(store, sessionId, afterSequence) {
      if (afterSequence === 0) return;
      for (const event of await store.read(sessionId, { limit: Math.min(afterSequence, 3) }))
        if (event.payload.type === "session_created") workspace = event.payload.workspace;
      const from = Math.max(0, afterSequence - PRIME_WINDOW);
      for (const event of await store.read(sessionId, {
        afterSequence: from,
        limit: afterSequence - from
      }))
        observe(event);
    },
    observe,
    describe(event) {
      const payload = event.payload;
      if (payload.type !== "approval_requested") return null;
      const { callId, tool, tier } = payload;
      const details = collectApprovalDetails(byCall.get(callId) ?? [event], [callId]).get(callId);
      return toPendingApprovalDetailsDto(
        { callId, tool, tier },
        details,
        pendingApprovalExtras(details, workspace, null)
      );
    }
  };
}

// src/interfaces/server/socket-connection.ts
var SLOW_CONSUMER_CLOSE_CODE = 1013;
var RATE_LIMIT_CLOSE_CODE = 1008;
function serveSocket(socket, context) {
  const { limits, logger } = context;
  const closed = new AbortController();
  const subscriptions = /* @__PURE__ */ new Map();
  let routerRequests = 0;
  let sessionList = null;
  const stopAll = () => {
    closed.abort();
    for (const subscription of subscriptions.values()) subscription.abort();
    subscriptions.clear();
    sessionList?.stop();
    sessionList = null;
  };
  const sendRaw = (text) => {
    if (socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount + Buffer.byteLength(text) > limits.maxBufferedBytes) {
      stopAll();
      socket.close(SLOW_CONSUMER_CLOSE_CODE, "slow consumer: reconnect with your cursor");
      return;
    }
    socket.send(text);
  };
  const ready = () => {
    if (socket.readyState !== socket.OPEN) return void 0;
    if (socket.bufferedAmount <= limits.maxBufferedBytes / 2) return void 0;
    return new Promise((resolve) => {
      let last = socket.bufferedAmount;
      let stalledSince = performance.now();
      const check = () => {
        if (socket.readyState !== socket.OPEN) return resolve();
        const now = performance.now();
        if (socket.bufferedAmount <= limits.maxBufferedBytes / 2) return resolve();
        if (socket.bufferedAmount < last) stalledSince = now;
        last = socket.bufferedAmount;
        if (now - stalledSince >= limits.slowConsumerMs) {
          stopAll();
          socket.close(SLOW_CONSUMER_CLOSE_CODE, "slow consumer: reconnect with your cursor");
          return resolve();
        }
        setTimeout(check, 10);
      };
      setTimeout(check, 10);
    });
  };
  const rate = createMessageBucket(limits.messageBurst, limits.messagesPerSecond);
  const send = (message) => sendRaw(JSON.stringify(message));
  const sendError = (code, message, about = {}) => send({ type: "error", code, message, ...about });
  const subscribe = async (message) => {
    const { sessionId, afterSequence } = message;
    if (subscriptions.has(sessionId)) {
      return sendError("already_subscribed", `already subscribed to ${sessionId}`, { sessionId });
    }
    if (subscriptions.size >= limits.maxSubscriptionsPerSocket) {
      return sendError(
        "too_many_subscriptions",
        `at most ${limits.maxSubscriptionsPerSocket} subscriptions per connection`,
        { sessionId }
      );
    }
    const subscription = new AbortController();
    subscriptions.set(sessionId, subscription);
    const last = await context.store.lastSequence(sessionId);
    const refuse = (code, text) => {
      subscriptions.delete(sessionId);
      sendError(code, text, { sessionId });
    };
    if (last === 0) return refuse("session_not_found", `no session ${sessionId}`);
    if (afterSequence > last) {
      return refuse(
        "cursor_out_of_range",
        `session ${sessionId} has ${last} events; a cursor of ${afterSequence} is ahead of it`
      );
    }
    send({ type: "subscribed", sessionId, afterSequence });
    const approvals = createApprovalTracker();
    await approvals.prime(context.store, sessionId, afterSequence);
    const pending = /* @__PURE__ */ new Map();
    let live = false;
    const onApprovalEvent = (event) => {
      const payload = event.payload;
      approvals.observe(event);
      const approval = approvals.describe(event);
      if (payload.type === "approval_requested" && approval !== null) {
        const announcement = {
          type: "approval_requested",
          sessionId,
          sequence: event.sequence,
          approval
        };
        if (live) send(announcement);
        else pending.set(payload.callId, announcement);
      } else if (payload.type === "approval_granted" || payload.type === "approval_denied") {
        pending.delete(payload.callId);
      }
    };
    const following = context.feed.follow(
      sessionId,
      afterSequence,
      {
        onEvent(event) {
          sendRaw(context.encoder.encode(event));
          onApprovalEvent(event);
        },
        onCaughtUp(sequence) {
          send({ type: "caught_up", sessionId, sequence });
          live = true;
          for (const announcement of pending.values()) send(announcement);
          pending.clear();
        },
        ready,
        onError(error) {
          logger.error({ err: error, sessionId }, "session feed failed");
          subscriptions.delete(sessionId);
          sendError("internal", `the event feed of ${sessionId} failed; subscribe again`, {
            sessionId
          });
        }
      },
      subscription.signal
    );
    await following.catch((error) => {
      subscriptions.delete(sessionId);
      throw error;
    });
  };
  const forward = async (message) => {
    const { requestId, sessionId } = message;
    const router = context.router;
    if (router === void 0) {
      return sendError("router_unavailable", "this server has no router", { requestId, sessionId });
    }
    if (routerRequests >= limits.maxRouterRequestsPerSocket) {
      return sendError(
        "too_many_requests",
        `at most ${limits.maxRouterRequestsPerSocket} router requests at a time per connection`,
        { requestId, sessionId }
      );
    }
    routerRequests += 1;
    try {
      if (await context.store.lastSequence(sessionId) === 0) {
        return sendError("session_not_found", `no session ${sessionId}`, { requestId, sessionId });
      }
      const answer = await router.onUserInput(sessionId, message.text, message.mode, closed.signal);
      send({
        type: "router_response",
        requestId,
        sessionId,
        answer: answer.answer,
        citedSequences: [...answer.citedSequences],
        ...answer.note === void 0 ? {} : { note: { eventId: answer.note.eventId, sequence: answer.note.sequence } }
      });
    } catch (error) {
      if (closed.signal.aborted) return;
      logger.warn({ err: error, sessionId }, "router request failed");
      const text = CorrexError.isInstance(error) ? error.message : "the router failed";
      sendError("router_failed", text, { requestId, sessionId });
    } finally {
      routerRequests -= 1;
    }
  };
  const handle = async (message) => {
    switch (message.type) {
      case "subscribe":
        return subscribe(message);
      case "unsubscribe": {
        const subscription = subscriptions.get(message.sessionId);
        if (!subscription) {
          return sendError("not_subscribed", `not subscribed to ${message.sessionId}`, {
            sessionId: message.sessionId
          });
        }
        subscription.abort();
        subscriptions.delete(message.sessionId);
        return send({ type: "unsubscribed", sessionId: message.sessionId });
      }
      case "subscribe_sessions": {
        if (sessionList !== null) {
          return sendError("already_subscribed", "already subscribed to the session list");
        }
        const watch2 = context.sessions.watch(
          (session2) => send({ type: "session_updated", session: session2 })
        );
        sessionList = watch2;
        await watch2.ready;
        if (sessionList === watch2) send({ type: "sessions_subscribed" });
        return;
      }
      case "unsubscribe_sessions":
        if (sessionList === null) {
          return sendError("not_subscribed", "not subscribed to the session list");
        }
        sessionList.stop();
        sessionList = null;
        return send({ type: "sessions_unsubscribed" });
      case "user_input":
        return forward(message);
      case "ping":
        return send({
          type: "pong",
          ...message.requestId === void 0 ? {} : { requestId: message.requestId }
        });
    }
  };
  socket.on("message", (data, isBinary) => {
    if (socket.readyState !== socket.OPEN) return;
    if (!rate.take(performance.now())) {
      stopAll();
      socket.close(RATE_LIMIT_CLOSE_CODE, "message rate limit exceeded");
      return;
    }
    const parsed = parseClientMessage(data, isBinary, limits.maxMessageBytes);
    if (!parsed.ok) return sendError(parsed.code, parsed.message);
    handle(parsed.message).catch((error) => {
      logger.error({ err: error }, "websocket message failed");
      sendError("internal", "the server could not handle that message");
    });
  });
  socket.on("close", stopAll);
}
function createMessageBucket(burst, perSecond) {
  let tokens = burst;
  let last = null;
  return {
    take(nowMs) {
      if (last !== null) tokens = Math.min(burst, tokens + (nowMs - last) / 1e3 * perSecond);
      last = nowMs;
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    }
  };
}
function parseClientMessage(data, isBinary, maxBytes) {
  const bytes = Array.isArray(data) ? data.reduce((sum, chunk) => sum + chunk.byteLength, 0) : data.byteLength;
  if (bytes > maxBytes) {
    return {
      ok: false,
      code: "message_too_large",
      message: `messages are limited to ${maxBytes} bytes`
    };
  }
  if (isBinary) return { ok: false, code: "invalid_message", message: "send text frames of JSON" };
  const buffer = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data instanceof ArrayBuffer ? new Uint8Array(data) : data);
  let json;
  try {
    json = JSON.parse(buffer.toString("utf8"));
  } catch {
    return { ok: false, code: "invalid_message", message: "not JSON" };
  }
  const result = ClientMessageSchema.safeParse(json);
  if (!result.success) {
    const issues = result.error.issues.slice(0, 5).map((issue) => `${issue.path.join(".") || "(message)"}: ${issue.message}`);
    return { ok: false, code: "invalid_message", message: issues.join("; ") };
  }
  return { ok: true, message: result.data };
}

// src/interfaces/server/web-assets.ts
import { readFile, realpath, stat } from "node:fs/promises";
import { extname, join, sep } from "node:path";
var CONTENT_TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".map": "application/json"
};
async function registerWebAssets(app, root) {
  const realRoot = await realpath(root);
  app.get("/*", async (request, reply) => {
    const path = decodeURIComponent(request.url.split("?")[0] ?? "/");
    if (path.startsWith("/api/")) throw new ApiError(404, "not_found", `no route ${path}`);
    const segments = path.split("/").filter((segment) => segment !== "");
    if (segments.some((segment) => segment.startsWith(".") || segment.includes("\\"))) {
      throw new ApiError(404, "not_found", "not found");
    }
    const file = await inside(
      realRoot,
      join(realRoot, ...segments.length === 0 ? ["index.html"] : segments)
    );
    if (file === null) throw new ApiError(404, "not_found", "not found");
    return reply.header("content-type", CONTENT_TYPES[extname(file)] ?? "application/octet-stream").header("x-content-type-options", "nosniff").send(await readFile(file));
  });
}
async function inside(root, candidate) {
  try {
    const real = await realpath(candidate);
    if (!real.startsWith(root + sep) || !(await stat(real)).isFile()) return null;
    return real;
  } catch {
    return null;
  }
}

// src/interfaces/server/correx-server.ts
var SOCKET_CLOSE_GRACE_MS = 1e3;
var graceElapsed = () => new Promise((done) => setTimeout(done, SOCKET_CLOSE_GRACE_MS).unref());
var TOKEN_ROTATED_CLOSE_CODE = 4001;
var CONFLICT_CODES = /* @__PURE__ */ new Set([
  "approval_not_pending",
  "concurrency_conflict"
]);
var INTERNAL_CODES = /* @__PURE__ */ new Set(["kernel_invariant", "kernel_wiring"]);
function createCorrexServer(deps, options = {}) {
  const limits = { ...DEFAULT_LIMITS, ...deps.limits };
  const logger = deps.logger ?? pino({ level: "silent" });
  const allowedRoots = deps.allowedRoots.map((root) => {
    try {
      return realpathSync(root);
    } catch {
      throw new ServerConfigError(`allowed root ${root} does not exist`);
    }
  });
  const index = createSessionIndex(deps.store);
  const feed = createSessionFeed({ store: deps.store });
  const sessionList = createSessionListFeed({
    store: deps.store,
    index,
    running: () => deps.host.running(),
    attending: () => deps.host.attending?.() ?? [],
    ...deps.host.lockHolder === void 0 ? {} : { lockHolder: deps.host.lockHolder.bind(deps.host) },
    ...deps.host.drivers === void 0 ? {} : { drivers: deps.host.drivers.bind(deps.host) },
    logger,
    ...limits.sessionListThrottleMs === void 0 ? {} : { throttleMs: limits.sessionListThrottleMs }
  });
  const encoder = createEventMessageEncoder();
  const runs = /* @__PURE__ */ new Set();
  let app = null;
  let port = 0;
  let closing = false;
  let openSockets = 0;
  let token = deps.token;
  let activeGuard = null;
  const registered = [];
  const build = async (boundHost) => {
    const hosts = [...LOOPBACK_HOSTS];
    if (!isWildcard(boundHost)) hosts.push(boundHost.includes(":") ? `[${boundHost}]` : boundHost);
    const guard = createRequestGuard({
      token,
      hosts,
      proxyHosts: deps.allowedHosts ?? [],
      port: () => port,
      ...deps.allowedOrigins === void 0 ? {} : { extraOrigins: deps.allowedOrigins }
    });
    activeGuard = guard;
    const server = Fastify({
      // pino's Logger is a FastifyBaseLogger; the declared generics differ only by name.
      loggerInstance: logger,
      bodyLimit: limits.maxBodyBytes,
      logController: new LogController({ disableRequestLogging: true }),
      return503OnClosing: true
    });
    server.server.maxConnections = limits.maxConnections;
    server.addHook("onRoute", (route) => {
      for (const method of [route.method].flat()) {
        if (method !== "HEAD") registered.push({ method, path: route.url });
      }
    });
    await server.register(websocket, {
      options: {
        maxPayload: limits.maxFrameBytes,
        // Browsers send the token as a subprotocol; the server answers with the wire version only.
        handleProtocols: (protocols) => protocols.has(WIRE_SUBPROTOCOL) ? WIRE_SUBPROTOCOL : false
      }
    });
    server.addHook("onRequest", async (request) => {
      if (closing) throw new ApiError(503, "internal", "the server is shutting down");
      const isApi = request.url === "/api" || request.url.startsWith("/api/");
      const refusal = guard.check({
        host: request.headers.host,
        origin: request.headers.origin,
        // Static web assets hold no data; the API behind them does.
        authorization: isApi ? request.headers.authorization : `Bearer ${token}`,
        "sec-websocket-protocol": isApi ? request.headers["sec-websocket-protocol"] : void 0
      });
      if (refusal) throw refusal;
      if (request.url.split("?")[0] === "/api/ws" && openSockets >= limits.maxSockets)
        throw new ApiError(
          503,
          "too_many_sockets",
          `at most ${limits.maxSockets} WebSocket connections at a time; REST stays available`
        );
    });
    server.setErrorHandler((error, request, reply) => {
      const { status, body } = errorResponse(error);
      if (status >= 500) logger.error({ err: error, url: request.url }, "request failed");
      return reply.code(status).send(body);
    });
    server.setNotFoundHandler((request, reply) => {
      const body = {
        error: {
          code: "not_found",
          message: `no route ${request.method} ${request.url.split("?")[0]}`
        }
      };
      return reply.code(404).send(body);
    });
    server.get("/api/ws", { websocket: true }, (socket) => {
      openSockets += 1;
      socket.once("close", () => openSockets -= 1);
      serveSocket(socket, {
        store: deps.store,
        feed,
        sessions: sessionList,
        encoder,
        router: deps.router,
        limits,
        logger
      });
    });
    registerRestRoutes(server, {
      store: deps.store,
      host: deps.host,
      index,
      allowedRoots,
      user: deps.user ?? "api",
      openapi: createOpenApiDocument(options.version ?? "0.0.0"),
      preimages: deps.preimageDirectory === void 0 ? null : createPreimageStore(deps.preimageDirectory),
      recording: { clock: deps.clock ?? systemClock, ids: deps.ids ?? createUuidV7IdSource() },
      onStarted(sessionId, done) {
        const tracked = done.then(
          (outcome) => logger.info({ sessionId, outcome: summarize(outcome) }, "session stopped"),
          (error) => logger.error({ err: error, sessionId }, "session failed")
        );
        runs.add(tracked);
        void tracked.finally(() => runs.delete(tracked));
      }
    });
    if (deps.webRoot !== void 0) await registerWebAssets(server, deps.webRoot);
    return server;
  };
  const resumeInterrupted = async () => {
    const resumed = [];
    for (const { summary, session: session2 } of await index.list()) {
      if (!session2.pausedByShutdown || session2.state.status !== "paused") continue;
      try {
        await deps.host.command(summary.sessionId, { type: "resume", by: SHUTDOWN_ACTOR });
        resumed.push(summary.sessionId);
      } catch (error) {
        logger.error({ err: error, sessionId: summary.sessionId }, "could not resume session");
      }
    }
    return resumed;
  };
  return {
    async listen(listenOptions = {}) {
      if (app !== null) throw new ServerConfigError("the server is already listening");
      const host = listenOptions.host ?? "127.0.0.1";
      const server = await build(host);
      app = server;
      await server.listen({ host, port: listenOptions.port ?? 0 });
      const address = server.server.address();
      port = typeof address === "object" && address !== null ? address.port : 0;
      const resumed = await resumeInterrupted();
      const shown = host.includes(":") ? `[${host}]` : host;
      return { host, port, url: `http://${shown}:${port}`, resumed };
    },
    routes: () => [...registered],
    stats: () => ({ sockets: openSockets, followers: feed.followers() }),
    rotateToken(next) {
      if (next === token) return;
      token = next;
      activeGuard?.setToken(next);
      for (const client of app?.websocketServer.clients ?? [])
        client.close(TOKEN_ROTATED_CLOSE_CODE, "the server token changed");
    },
    async close() {
      if (closing) return;
      closing = true;
      for (const sessionId of deps.host.running()) {
        try {
          await deps.host.command(sessionId, {
            type: "pause",
            by: SHUTDOWN_ACTOR,
            reason: SHUTDOWN_REASON
          });
        } catch (error) {
          logger.error({ err: error, sessionId }, "could not pause session on shutdown");
        }
      }
      await deps.host.shutdown();
      await Promise.all(runs);
      if (app !== null) {
        const clients = [...app.websocketServer.clients];
        for (const client of clients) client.close(1001, "server shutting down");
        await Promise.race([
          Promise.all(
            clients.map(
              (client) => new Promise((done) => {
                if (client.readyState === client.CLOSED) done();
                else client.once("close", () => done());
              })
            )
          ),
          graceElapsed()
        ]);
        for (const client of clients) if (client.readyState !== client.CLOSED) client.terminate();
      }
      await feed.close();
      await sessionList.close();
      if (app !== null) {
        const closed = app.close();
        await Promise.race([closed, graceElapsed()]);
        app.server.closeAllConnections();
        await closed;
      }
    }
  };
}
function errorResponse(error) {
  const respond = (status2, code, message) => ({
    status: status2,
    body: { error: { code, message } }
  });
  if (error instanceof ApiError) return respond(error.status, error.wireCode, error.message);
  if (CorrexError.isInstance(error)) {
    if (CONFLICT_CODES.has(error.code)) return respond(409, "conflict", error.message);
    if (!INTERNAL_CODES.has(error.code)) return respond(400, "invalid_request", error.message);
    return respond(500, "internal", "the server failed; see its log");
  }
  const status = error.statusCode;
  if (status === 413) return respond(413, "payload_too_large", "the request body is too large");
  if (status !== void 0 && status >= 400 && status < 500) {
    return respond(status, "invalid_request", error.message);
  }
  return respond(500, "internal", "the server failed; see its log");
}
function isWildcard(host) {
  return host === "0.0.0.0" || host === "::" || host === "";
}
function summarize(outcome) {
  const { status, waiting } = outcome ?? {};
  return { status, waiting };
}

// src/interfaces/server/router-port.ts
function routerPortFrom(facade) {
  return {
    async onUserInput(sessionId, input, mode, signal) {
      const reply = await facade.onUserInput(sessionId, input, mode, signal);
      return {
        answer: reply.content,
        citedSequences: reply.citedSequences,
        ...reply.steeringNote === null ? {} : { note: reply.steeringNote }
      };
    }
  };
}

// src/interfaces/server/server-token.ts
import { randomBytes } from "node:crypto";
import {
  closeSync,
  constants,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  watch,
  writeSync
} from "node:fs";
import { basename, dirname, join as join2 } from "node:path";
var TOKEN_FILE_NAME = "server-token";
var MIN_TOKEN_LENGTH = 32;
function generateServerToken() {
  return randomBytes(32).toString("base64url");
}
function loadOrCreateServerToken(options) {
  if (options.given !== void 0) {
    checkToken(options.given, "the given token");
    return { token: options.given, source: "given", path: null };
  }
  mkdirSync(options.correxHome, { recursive: true, mode: 448 });
  const path = join2(options.correxHome, TOKEN_FILE_NAME);
  const created = tryCreate(path);
  if (created !== null) return { token: created, source: "generated", path };
  return { token: readTokenFile(path), source: "file", path };
}
function tryCreate(path) {
  let fd;
  try {
    fd = openSync(path, "wx", 384);
  } catch (error) {
    if (error.code === "EEXIST") return null;
    throw error;
  }
  const token = generateServerToken();
  try {
    writeSync(fd, `${token}
`);
  } finally {
    closeSync(fd);
  }
  return token;
}
function rotateServerTokenFile(correxHome) {
  mkdirSync(correxHome, { recursive: true, mode: 448 });
  const path = join2(correxHome, TOKEN_FILE_NAME);
  const temporary = `${path}.${process.pid}.new`;
  rmSync(temporary, { force: true });
  const token = tryCreate(temporary);
  if (token === null) throw new ServerTokenError("server_token_invalid", `${temporary} exists`);
  renameSync(temporary, path);
  return { token, path };
}
function watchServerTokenFile(path, onChange) {
  const name = basename(path);
  let last = null;
  const watcher = watch(dirname(path), (_event, file) => {
    if (file !== null && file !== name) return;
    let result;
    try {
      result = { token: readTokenFile(path) };
    } catch (error) {
      result = { error };
    }
    const key = "token" in result ? result.token : `error:${result.error.message}`;
    if (key === last) return;
    last = key;
    onChange(result);
  });
  return () => watcher.close();
}
function readTokenFile(path) {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stat2 = fstatSync(fd);
    if (!stat2.isFile())
      throw new ServerTokenError("server_token_insecure", `${path} is not a file`);
    if (stat2.size > 4096)
      throw new ServerTokenError("server_token_invalid", `${path} is too large to hold a token`);
    if ((stat2.mode & 63) !== 0) {
      throw new ServerTokenError(
        "server_token_insecure",
        `${path} may be read by other users (mode ${(stat2.mode & 511).toString(8)}); run chmod 600 on it or delete it to have a new one generated`
      );
    }
    const uid = process.getuid?.();
    if (uid !== void 0 && stat2.uid !== uid) {
      throw new ServerTokenError("server_token_insecure", `${path} belongs to another user`);
    }
    const token = readFileSync(fd, "utf8").trim();
    checkToken(token, path);
    return token;
  } finally {
    closeSync(fd);
  }
}
function checkToken(token, what) {
  if (token.length < MIN_TOKEN_LENGTH || !/^[\x21-\x7e]+$/.test(token)) {
    throw new ServerTokenError(
      "server_token_invalid",
      `${what} must be at least ${MIN_TOKEN_LENGTH} printable characters without spaces`
    );
  }
}

// src/interfaces/cli/readable-log-line.ts
var LEVELS = {
  10: "trace",
  20: "debug",
  30: "info",
  40: "warning",
  50: "error",
  60: "fatal"
};
var STANDARD = /* @__PURE__ */ new Set(["level", "time", "pid", "hostname", "msg", "err", "v"]);
function readableLogLine(record) {
  let parsed;
  try {
    parsed = JSON.parse(record);
  } catch {
    return visibleText(record.trimEnd());
  }
  const level = LEVELS[Number(parsed.level)] ?? "log";
  const details = Object.entries(parsed).filter(([key]) => !STANDARD.has(key)).map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`);
  const error = parsed.err;
  const cause = typeof error?.message === "string" ? `: ${error.message}` : "";
  const message = typeof parsed.msg === "string" ? parsed.msg : "";
  return visibleText(
    `correx serve: ${level === "info" ? "" : `${level}: `}${message}${details.length > 0 ? ` (${details.join(" ")})` : ""}${cause}`
  );
}

// src/interfaces/cli/commands/serve-command.ts
var DEFAULT_SERVE_PORT = 7787;
function parsePort(value) {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new InvalidArgumentError("expected a port number (0 picks a free one)");
  }
  return port;
}
var collect = (value, previous) => [...previous ?? [], value];
function serveCommand(context) {
  return new Command("serve").description("serve the REST + WebSocket API (bearer token; loopback only by default)").option("--host <host>", "address to bind", "127.0.0.1").option("--port <port>", "port (0 picks a free one)", parsePort, DEFAULT_SERVE_PORT).option(
    "--token <token>",
    "bearer token (default: $CORREX_SERVER_TOKEN, else $CORREX_HOME/server-token)"
  ).option(
    "--allow-root <dir>",
    "a folder new sessions may work in (repeatable; default: the current folder)",
    collect
  ).option(
    "--allow-host <name>",
    "another Host name to answer to, e.g. behind a proxy (repeatable)",
    collect
  ).option(
    "--allow-origin <origin>",
    "another Origin allowed to call the API (repeatable)",
    collect
  ).option("--web <dir>", "serve the web page from this folder at / (default: the built one)").option(
    "--rotate-token",
    "write a new token into $CORREX_HOME/server-token and exit; a running server switches to it"
  ).option(
    "--no-drive",
    "record new sessions and commands, drive none here: `correx worker` processes drive them"
  ).action(async (options, command) => {
    if (options.rotateToken) {
      const rotated = rotateServerTokenFile(context.correxHome);
      context.out(
        `new bearer token written to ${rotated.path}; a running correx serve now accepts only it and closes the WebSockets opened with the old one`
      );
      return;
    }
    const given = options.token ?? context.serverToken;
    const webRoot = options.web ?? context.webRoot;
    const token = loadOrCreateServerToken({
      correxHome: context.correxHome,
      ...given === void 0 ? {} : { given }
    });
    const location = command.optsWithGlobals().store ?? context.defaultStore;
    const stores = await context.openStores(location, { create: true });
    const logger = context.logger ?? pino2(
      { level: "info" },
      { write: (record) => context.err(readableLogLine(record)) }
    );
    const router = await context.createRouter?.(stores.events).catch((error) => {
      if (!CorrexError.isInstance(error)) throw error;
      context.err(`correx: the router is off: ${error.message}`);
      return void 0;
    });
    try {
      const host = await context.createSessionHost({
        store: stores.events,
        location,
        ...options.drive ? { attend: true } : { drive: false }
      });
      const server = createCorrexServer(
        {
          store: stores.events,
          host,
          ...router === void 0 ? {} : { router: routerPortFrom(router.facade) },
          token: token.token,
          allowedRoots: options.allowRoot ?? [context.cwd],
          ...options.allowHost === void 0 ? {} : { allowedHosts: options.allowHost },
          ...options.allowOrigin === void 0 ? {} : { allowedOrigins: options.allowOrigin },
          ...webRoot === void 0 ? {} : { webRoot },
          logger,
          user: context.user,
          preimageDirectory: preimageDirectory(context.correxHome)
        },
        { version: context.version }
      );
      const stopped = new Promise((resolve) => {
        const release = context.onInterrupt(() => {
          release();
          resolve();
        });
      });
      const address = await server.listen({ host: options.host, port: options.port });
      const stopWatching = token.path === null ? () => {
      } : watchServerTokenFile(token.path, (result) => {
        if ("token" in result) {
          server.rotateToken(result.token);
          context.err(
            `correx serve: the token changed (${token.path}); old sockets closed`
          );
        } else {
          server.rotateToken(generateServerToken());
          context.err(
            `correx serve: ${result.error.message}; no token is accepted until the file is fixed`
          );
        }
      });
      if (!LOOPBACK_HOSTS.includes(options.host) && options.host !== "::1") {
        context.err(`correx: warning: listening on ${options.host}, not only on this machine`);
      }
      context.out(`correx serve: listening on ${address.url} (store ${stores.location})`);
      if (!options.drive) context.out("drives no sessions here (--no-drive): workers drive them");
      context.out(
        token.path === null ? `bearer token: the one given (${options.token === void 0 ? "$CORREX_SERVER_TOKEN" : "--token"})` : `bearer token: ${token.source === "generated" ? "generated into" : "read from"} ${token.path} (the web page asks for it; rotate with: correx serve --rotate-token)`
      );
      if (address.resumed.length > 0) {
        context.out(`resumed ${address.resumed.length} session(s) paused by the last shutdown`);
      }
      await stopped;
      stopWatching();
      context.out(
        "correx serve: stopping; running sessions are paused and resume on the next start"
      );
      await server.close();
    } finally {
      await router?.dispose();
      await stores.close();
    }
  });
}
export {
  DEFAULT_SERVE_PORT,
  serveCommand
};

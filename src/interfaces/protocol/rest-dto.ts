import { z } from 'zod';
import { EventDtoSchema } from './event-dto.js';
import {
  PendingApprovalDetailsDtoSchema,
  SessionDtoSchema,
  SessionListItemDtoSchema,
} from './session-dto.js';
import {
  DeciderSchema,
  IdentifierSchema,
  OperatorModeDtoSchema,
  ReasonSchema,
  SequenceCursorSchema,
  SessionStatusDtoSchema,
} from './wire-values.js';

/*
 * Request and response bodies of the REST API (`/api/...`). Requests are strict: an unknown
 * field is an error, not silently ignored.
 */

export const CreateSessionRequestSchema = z.strictObject({
  task: z.string().min(1).max(20_000),
  /** An absolute path inside one of the server's allowed roots. */
  workspace: z.string().min(1).max(4_096),
  workflow: z.string().min(1).max(256).optional(),
  modelProfile: z.string().min(1).max(256).optional(),
  mode: OperatorModeDtoSchema.optional(),
  /** Work in a git worktree of the workspace's repository on branch `correx/<session>`. */
  worktree: z.boolean().optional(),
});
export type CreateSessionRequest = z.infer<typeof CreateSessionRequestSchema>;

export const CreateSessionResponseSchema = z.strictObject({ sessionId: IdentifierSchema });
export type CreateSessionResponse = z.infer<typeof CreateSessionResponseSchema>;

/**
 * Body of `POST /api/sessions/:id/fork`: where to fork (a sequence, `stage:<id>[#attempt]`, a
 * stage id, `call:<callId>` or `call:<n>`) and what the fork changes. Only names the server's
 * configuration knows (profiles, workflows): no file of the server's is read on a client's word.
 */
export const ForkSessionRequestSchema = z.strictObject({
  at: z.union([z.number().int().min(1), z.string().min(1).max(300)]),
  /** One model profile runs every stage. */
  modelProfile: z.string().min(1).max(256).optional(),
  /** The router holds these profiles and routes each stage among them. */
  profiles: z.array(z.string().min(1).max(256)).min(1).max(32).optional(),
  /** A workflow of the server's configuration, by name. */
  workflow: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[a-z][a-z0-9_-]*$/, 'a configured workflow’s name')
    .optional(),
  mode: OperatorModeDtoSchema.optional(),
  /** Where the rebuilt workspace goes: an absolute path inside an allowed root (default: beside the parent's). */
  workspace: z.string().min(1).max(4_096).optional(),
  /** Fork even when some files cannot be rebuilt. */
  allowMissing: z.boolean().optional(),
});
export type ForkSessionRequest = z.infer<typeof ForkSessionRequestSchema>;

export const ForkSessionResponseSchema = z.strictObject({
  sessionId: IdentifierSchema,
  parentSessionId: IdentifierSchema,
  /** The parent's event the fork starts after. */
  atSequence: z.number().int().min(1),
  /** What `at` named, in words. */
  named: z.string(),
  workspace: z.string(),
  restored: z.array(z.string()),
  missing: z.array(z.string()),
});
export type ForkSessionResponse = z.infer<typeof ForkSessionResponseSchema>;

/** Query of `GET /api/sessions`: only the sessions with this status. */
export const ListSessionsQuerySchema = z.strictObject({
  status: SessionStatusDtoSchema.optional(),
});
export type ListSessionsQuery = z.infer<typeof ListSessionsQuerySchema>;

export const ListSessionsResponseSchema = z.strictObject({
  sessions: z.array(SessionListItemDtoSchema),
});
export type ListSessionsResponse = z.infer<typeof ListSessionsResponseSchema>;

/** What a new session may be started with here (`GET /api/options`). */
export const SessionOptionsResponseSchema = z.strictObject({
  /** Real paths of the folders a workspace must be (or be inside). */
  allowedRoots: z.array(z.string()),
  workflows: z.array(z.string()),
  defaultWorkflow: z.string(),
  modelProfiles: z.array(z.string()),
  /** Null when the configuration names none (the host picks). */
  defaultModelProfile: z.string().nullable(),
  modes: z.array(OperatorModeDtoSchema),
  defaultMode: OperatorModeDtoSchema,
});
export type SessionOptionsResponse = z.infer<typeof SessionOptionsResponseSchema>;

export const GetSessionResponseSchema = SessionDtoSchema;
export type GetSessionResponse = z.infer<typeof GetSessionResponseSchema>;

/** Query of `GET /api/sessions/:id/events`: events with a sequence greater than `after`. */
export const EventsPageQuerySchema = z.strictObject({
  after: z.coerce.number().pipe(SequenceCursorSchema).default(0),
  limit: z.coerce.number().int().min(1).max(1_000).default(200),
});
export type EventsPageQuery = z.infer<typeof EventsPageQuerySchema>;

export const EventsPageResponseSchema = z.strictObject({
  events: z.array(EventDtoSchema),
  /** Pass as `after` to read the next page. */
  nextAfter: SequenceCursorSchema,
  /** The session's last sequence when the page was read; `nextAfter < lastSequence` means more. */
  lastSequence: SequenceCursorSchema,
});
export type EventsPageResponse = z.infer<typeof EventsPageResponseSchema>;

export const ListApprovalsResponseSchema = z.strictObject({
  approvals: z.array(PendingApprovalDetailsDtoSchema),
});
export type ListApprovalsResponse = z.infer<typeof ListApprovalsResponseSchema>;

export const DecideApprovalRequestSchema = z.discriminatedUnion('decision', [
  z.strictObject({
    decision: z.literal('approve'),
    reason: ReasonSchema.optional(),
    by: DeciderSchema.optional(),
  }),
  z.strictObject({
    decision: z.literal('deny'),
    reason: ReasonSchema,
    by: DeciderSchema.optional(),
  }),
]);
export type DecideApprovalRequest = z.infer<typeof DecideApprovalRequestSchema>;

export const SteeringNoteRequestSchema = z.strictObject({
  content: z.string().min(1).max(8_000),
  stageId: z.string().min(1).max(256).optional(),
});
export type SteeringNoteRequest = z.infer<typeof SteeringNoteRequestSchema>;

/** Body of pause, resume and cancel (all fields optional; an empty body is fine). */
export const LifecycleRequestSchema = z.strictObject({
  reason: ReasonSchema.optional(),
  by: DeciderSchema.optional(),
});
export type LifecycleRequest = z.infer<typeof LifecycleRequestSchema>;

/**
 * Body of a redirect: move the running session to stage `to`. Whether the workflow allows it is
 * decided by the session itself and arrives as an event (`stage_redirected` or
 * `redirect_rejected`).
 */
export const RedirectRequestSchema = z.strictObject({
  to: z.string().min(1).max(256),
  reason: ReasonSchema.optional(),
  by: DeciderSchema.optional(),
});
export type RedirectRequest = z.infer<typeof RedirectRequestSchema>;

/** What a recorded command became: its events (empty when nothing needed recording). */
/**
 * Body of `POST /api/sessions/:id/turns`: a follow-up turn of a session whose workflow ended
 * (as `correx continue`). `workflow` names a configured workflow (`chat`, …); default: the last
 * turn's. `mode` is the approval mode from this turn on.
 */
export const TurnRequestSchema = z.strictObject({
  text: z.string().min(1).max(20_000),
  by: DeciderSchema.optional(),
  workflow: z.string().min(1).max(256).optional(),
  mode: OperatorModeDtoSchema.optional(),
});
export type TurnRequest = z.infer<typeof TurnRequestSchema>;

/** The recorded request (`turn_requested`) of a turn the server now drives. */
export const TurnResponseSchema = z.strictObject({
  sessionId: IdentifierSchema,
  turn: z.number().int().min(2),
  events: z.array(EventDtoSchema),
});
export type TurnResponse = z.infer<typeof TurnResponseSchema>;

export const CommandResponseSchema = z.strictObject({
  events: z.array(EventDtoSchema),
  /** True when the session refused the command (a `lifecycle_rejected` event was recorded). */
  refused: z.boolean(),
});
export type CommandResponse = z.infer<typeof CommandResponseSchema>;

export const ReplayVerifyResponseSchema = z.discriminatedUnion('ok', [
  z.strictObject({ ok: z.literal(true), events: z.number().int().min(0) }),
  z.strictObject({
    ok: z.literal(false),
    events: z.number().int().min(0),
    divergence: z.strictObject({
      sequence: z.number().int(),
      reason: z.string(),
      expected: z.string().nullable(),
      actual: z.string().nullable(),
    }),
  }),
]);
export type ReplayVerifyResponse = z.infer<typeof ReplayVerifyResponseSchema>;

export const ErrorCodeSchema = z.enum([
  'unauthorized',
  'forbidden_host',
  'forbidden_origin',
  /** A body named a decider other than the server's authenticated identity. */
  'forbidden_decider',
  'invalid_request',
  'payload_too_large',
  'not_found',
  'session_not_found',
  /** `GET /api/evals/:evalId` names no saved eval run. */
  'eval_not_found',
  /** `GET /api/sessions/:sessionId/context/:call` names no model call of the session. */
  'model_call_not_found',
  'workspace_not_allowed',
  'conflict',
  /** Every WebSocket the server allows is open; REST still answers. */
  'too_many_sockets',
  'internal',
]);
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

/** Every non-2xx REST response. */
export const ErrorResponseSchema = z.strictObject({
  error: z.strictObject({ code: ErrorCodeSchema, message: z.string() }),
});
export type ErrorResponse = z.infer<typeof ErrorResponseSchema>;

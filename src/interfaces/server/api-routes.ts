import { type z } from 'zod';
import {
  CommandResponseSchema,
  CreateSessionRequestSchema,
  CreateSessionResponseSchema,
  DecideApprovalRequestSchema,
  ErrorResponseSchema,
  EventsPageQuerySchema,
  ForkSessionRequestSchema,
  ForkSessionResponseSchema,
  EventsPageResponseSchema,
  GetSessionResponseSchema,
  LifecycleRequestSchema,
  RedirectRequestSchema,
  TurnRequestSchema,
  TurnResponseSchema,
  ListApprovalsResponseSchema,
  ListSessionsQuerySchema,
  ListSessionsResponseSchema,
  ReplayVerifyResponseSchema,
  SessionOptionsResponseSchema,
  SteeringNoteRequestSchema,
} from '../protocol/rest-dto.js';
import {
  AddGrantRequestSchema,
  AddGrantResponseSchema,
  AlwaysAllowRequestSchema,
  AlwaysAllowResponseSchema,
  ListGrantsResponseSchema,
  RevokeGrantRequestSchema,
} from '../protocol/grants-dto.js';
import {
  SessionDiffQuerySchema,
  SessionDiffResponseSchema,
  UndoRefusedResponseSchema,
  UndoRequestSchema,
  UndoResponseSchema,
} from '../protocol/session-changes-dto.js';
import { CompareQuerySchema, CompareResponseSchema } from '../protocol/session-comparison-dto.js';
import { GetEvalResponseSchema, ListEvalsResponseSchema } from '../protocol/eval-report-dto.js';
import {
  ListModelCallsResponseSchema,
  ModelCallDtoSchema,
} from '../protocol/model-call-context-dto.js';

/** One REST route as the OpenAPI document describes it; handlers live in `rest-routes.ts`. */
export type ApiRoute = {
  readonly method: 'GET' | 'POST';
  /** Fastify syntax (`:id`); the document writes `{id}`. */
  readonly path: string;
  readonly summary: string;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  /** The success status and its body (null: none described, e.g. the WebSocket upgrade). */
  readonly success: readonly [status: number, body: z.ZodType | null];
  /** A refusal whose body is not the plain error (it carries what was refused). */
  readonly refusal?: readonly [status: number, body: z.ZodType];
};

const session = '/api/sessions/:sessionId';

/** Every REST route, listed once: the handlers and the OpenAPI document both follow it. */
export const apiRoutes = {
  createSession: {
    method: 'POST',
    path: '/api/sessions',
    summary: 'Start a session (the workspace must be inside an allowed root)',
    body: CreateSessionRequestSchema,
    success: [201, CreateSessionResponseSchema],
  },
  listSessions: {
    method: 'GET',
    path: '/api/sessions',
    summary:
      'List the sessions in the store with their status, stage, mode, tokens and pending approvals (optionally only those with one status)',
    query: ListSessionsQuerySchema,
    success: [200, ListSessionsResponseSchema],
  },
  getSession: {
    method: 'GET',
    path: session,
    summary: 'One session as its events say it stands',
    success: [200, GetSessionResponseSchema],
  },
  listEvents: {
    method: 'GET',
    path: `${session}/events`,
    summary: "A page of a session's events after a sequence",
    query: EventsPageQuerySchema,
    success: [200, EventsPageResponseSchema],
  },
  listApprovals: {
    method: 'GET',
    path: `${session}/approvals`,
    summary:
      'The tool calls that wait for a person, with their arguments, resolved targets and rule findings',
    success: [200, ListApprovalsResponseSchema],
  },
  decideApproval: {
    method: 'POST',
    path: `${session}/approvals/:callId`,
    summary: 'Approve or deny a pending tool call; a waiting session continues',
    body: DecideApprovalRequestSchema,
    success: [200, CommandResponseSchema],
  },
  alwaysAllow: {
    method: 'POST',
    path: `${session}/approvals/:callId/always-allow`,
    summary:
      'Always allow a pending call: record the exact grant the CLI\'s "always allow" records (its command line, its one path for its tool, or its one host, for the session), then approve the call; 409 when no single exact grant covers just it',
    body: AlwaysAllowRequestSchema,
    success: [200, AlwaysAllowResponseSchema],
  },
  listGrants: {
    method: 'GET',
    path: `${session}/grants`,
    summary: "The session's active standing approval grants (as `correx grants`)",
    success: [200, ListGrantsResponseSchema],
  },
  addGrant: {
    method: 'POST',
    path: `${session}/grants`,
    summary:
      'Allow one exact command, path pattern (for one tool) or host without asking again, for the session or one stage (as `correx grant`)',
    body: AddGrantRequestSchema,
    success: [200, AddGrantResponseSchema],
  },
  revokeGrant: {
    method: 'POST',
    path: `${session}/grants/:grantId/revoke`,
    summary: 'Revoke a standing approval grant (as `correx revoke`); later calls are asked again',
    body: RevokeGrantRequestSchema,
    success: [200, AddGrantResponseSchema],
  },
  addSteeringNote: {
    method: 'POST',
    path: `${session}/steering`,
    summary: "Add a steering note that the session's next context pack carries",
    body: SteeringNoteRequestSchema,
    success: [200, CommandResponseSchema],
  },
  pause: {
    method: 'POST',
    path: `${session}/pause`,
    summary: 'Pause a session once its running effect has finished',
    body: LifecycleRequestSchema,
    success: [200, CommandResponseSchema],
  },
  resume: {
    method: 'POST',
    path: `${session}/resume`,
    summary: 'Resume a paused session and drive it here',
    body: LifecycleRequestSchema,
    success: [200, CommandResponseSchema],
  },
  retry: {
    method: 'POST',
    path: `${session}/retry`,
    summary:
      'Retry a failed session from the stage that failed, in a new attempt, and drive it here (as `correx resume --retry`); `reason` is recorded. 400 when the session has not failed',
    body: LifecycleRequestSchema,
    success: [200, CommandResponseSchema],
  },
  continueSession: {
    method: 'POST',
    path: `${session}/turns`,
    summary:
      "Ask a session whose workflow ended (completed, failed or cancelled) for a follow-up turn and drive it here (as `correx continue`); its events arrive on the session's WebSocket feed. 409 while it runs",
    body: TurnRequestSchema,
    success: [202, TurnResponseSchema],
  },
  cancel: {
    method: 'POST',
    path: `${session}/cancel`,
    summary: 'Cancel a session; a running model or tool call is stopped',
    body: LifecycleRequestSchema,
    success: [200, CommandResponseSchema],
  },
  redirect: {
    method: 'POST',
    path: `${session}/redirect`,
    summary:
      'Move the running session to another stage, only along a transition its workflow declares; the outcome arrives as stage_redirected or redirect_rejected',
    body: RedirectRequestSchema,
    success: [200, CommandResponseSchema],
  },
  sessionDiff: {
    method: 'GET',
    path: `${session}/diff`,
    summary:
      "What the session changed in its workspace, call by call with the commands (exec change records, file writes, undos), as unified diffs of the stored pre-images; `stage` keeps one stage's calls (as `correx diff`)",
    query: SessionDiffQuerySchema,
    success: [200, SessionDiffResponseSchema],
  },
  undo: {
    method: 'POST',
    path: `${session}/undo`,
    summary:
      'Restore the workspace files the recorded changes touched to a recorded point (`to`: after that event; `stage`: since it last started; default: everything), all or nothing, and record `workspace_restored` (as `correx undo`). 409 lists files changed outside correx since, and refuses a running session',
    body: UndoRequestSchema,
    success: [200, UndoResponseSchema],
    refusal: [409, UndoRefusedResponseSchema],
  },
  forkSession: {
    method: 'POST',
    path: `${session}/fork`,
    summary:
      'Fork the session at an event, stage or call: a new session with its events up to there in a workspace rebuilt as it was then, started here on the asked model, profiles, workflow or mode',
    body: ForkSessionRequestSchema,
    success: [201, ForkSessionResponseSchema],
  },
  listModelCalls: {
    method: 'GET',
    path: `${session}/context`,
    summary:
      "What the model saw: every model call of the session with its context manifest rebuilt from the log (pack tokens against the budget, items in and left out, what came in and went since the stage's previous call), as `correx show --context --json` without its items",
    success: [200, ListModelCallsResponseSchema],
  },
  getModelCall: {
    method: 'GET',
    path: `${session}/context/:call`,
    summary:
      "One model call's whole context manifest, item by item (`call`: its request id, its position from 1, or `last`; as `correx show --context <call> --json`); 404 `model_call_not_found`",
    success: [200, ModelCallDtoSchema],
  },
  compareSessions: {
    method: 'GET',
    path: '/api/compare',
    summary:
      'Where sessions a and b first differ, then side by side: outcome, checks, files changed with diffs, tokens, cost, approvals asked, policy blocks, time (as `correx compare --json`); 404 `session_not_found` names an unknown one',
    query: CompareQuerySchema,
    success: [200, CompareResponseSchema],
  },
  listEvals: {
    method: 'GET',
    path: '/api/evals',
    summary:
      "The eval runs `correx eval run` saved under the server's correx home whose sessions are in this store, newest first, with each model's pass rate, tokens, cost, time, approvals that would have been asked and policy blocks",
    success: [200, ListEvalsResponseSchema],
  },
  getEval: {
    method: 'GET',
    path: '/api/evals/:evalId',
    summary:
      'One saved eval run: per model and per run (task, outcome, why it failed, the session that replays it); 404 `eval_not_found`',
    success: [200, GetEvalResponseSchema],
  },
  replayVerify: {
    method: 'POST',
    path: `${session}/replay-verify`,
    summary: 'Re-decide the session from its log, without model or tools, and compare bytes',
    success: [200, ReplayVerifyResponseSchema],
  },
  sessionOptions: {
    method: 'GET',
    path: '/api/options',
    summary:
      'What a new session may be started with: allowed roots, workflows, model profiles, modes and the defaults',
    success: [200, SessionOptionsResponseSchema],
  },
  openapi: {
    method: 'GET',
    path: '/api/openapi.json',
    summary: 'This document',
    success: [200, null],
  },
  websocket: {
    method: 'GET',
    path: '/api/ws',
    summary:
      'WebSocket (upgrade): send ClientMessage, receive ServerMessage, one JSON object per text frame: the events of a subscribed session, and `live` pieces of the model text and command output it is producing (never recorded). Authenticate with `Authorization: Bearer` or a `correx.token.<token>` subprotocol next to `correx.v1`.',
    success: [101, null],
  },
} as const satisfies Record<string, ApiRoute>;

export type ApiRouteName = keyof typeof apiRoutes;

export { ErrorResponseSchema };

import type { z } from 'zod';
import {
  CommandResponseSchema,
  TurnResponseSchema,
  CreateSessionResponseSchema,
  ErrorResponseSchema,
  EventsPageResponseSchema,
  ForkSessionResponseSchema,
  GetSessionResponseSchema,
  ListApprovalsResponseSchema,
  ListSessionsResponseSchema,
  ReplayVerifyResponseSchema,
  SessionOptionsResponseSchema,
  type CommandResponse,
  type CreateSessionRequest,
  type DecideApprovalRequest,
  type EventsPageResponse,
  type ForkSessionRequest,
  type ForkSessionResponse,
  type LifecycleRequest,
  type ListApprovalsResponse,
  type ListSessionsResponse,
  type ReplayVerifyResponse,
  type SessionOptionsResponse,
  type SteeringNoteRequest,
  type TurnRequest,
  type TurnResponse,
  type RedirectRequest,
} from '../../src/interfaces/protocol/rest-dto.js';
import {
  AddGrantResponseSchema,
  AlwaysAllowResponseSchema,
  ListGrantsResponseSchema,
  type AddGrantRequest,
  type AddGrantResponse,
  type AlwaysAllowResponse,
  type ListGrantsResponse,
} from '../../src/interfaces/protocol/grants-dto.js';
import type { SessionDto } from '../../src/interfaces/protocol/session-dto.js';
import {
  SessionDiffResponseSchema,
  UndoRefusedResponseSchema,
  UndoResponseSchema,
  type SessionDiffResponse,
  type UndoRefusedResponse,
  type UndoRequest,
  type UndoResponse,
} from '../../src/interfaces/protocol/session-changes-dto.js';
import type { SessionStatusDto } from '../../src/interfaces/protocol/wire-values.js';
import {
  ModelCallDtoSchema,
  type ModelCallDto,
} from '../../src/interfaces/protocol/model-call-context-dto.js';
import {
  CompareResponseSchema,
  type CompareResponse,
} from '../../src/interfaces/protocol/session-comparison-dto.js';
import {
  GetEvalResponseSchema,
  ListEvalsResponseSchema,
  type GetEvalResponse,
  type ListEvalsResponse,
} from '../../src/interfaces/protocol/eval-report-dto.js';

/**
 * A failed call. `status` 0 means the server could not be reached at all; otherwise `code` is
 * the server's ErrorCode (`unauthorized`, `session_not_found`...) or `invalid_response` when the
 * answer did not match the protocol.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export type Api = ReturnType<typeof createApi>;

const encode = encodeURIComponent;
const sessionPath = (sessionId: string) => `/api/sessions/${encode(sessionId)}`;

/** The REST API (`/api/...`) with the bearer token in the Authorization header, never the URL. */
export function createApi(token: string, base = '') {
  async function call<T extends z.ZodType>(
    method: 'GET' | 'POST',
    path: string,
    schema: T,
    body?: unknown,
    /** A refusal answered with its own body (returned, not thrown). */
    refusal?: readonly [status: number, schema: z.ZodType],
  ): Promise<z.infer<T>> {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        cache: 'no-store',
        credentials: 'omit',
      });
    } catch {
      throw new ApiError(
        0,
        'unreachable',
        'The correx server cannot be reached. Is `correx serve` running?',
      );
    }
    const json: unknown = await response.json().catch(() => undefined);
    if (!response.ok && refusal !== undefined && response.status === refusal[0]) {
      const refused = refusal[1].safeParse(json);
      if (refused.success) return refused.data as z.infer<T>;
    }
    if (!response.ok) {
      const error = ErrorResponseSchema.safeParse(json);
      throw error.success
        ? new ApiError(response.status, error.data.error.code, error.data.error.message)
        : new ApiError(response.status, 'http_error', `The server answered ${response.status}.`);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success)
      throw new ApiError(
        response.status,
        'invalid_response',
        `Unexpected answer from ${method} ${path}.`,
      );
    return parsed.data;
  }

  return {
    /** Every session's list row (stage, mode, tokens, pending count), optionally one status only. */
    listSessions: (status?: SessionStatusDto): Promise<ListSessionsResponse> =>
      call(
        'GET',
        status === undefined ? '/api/sessions' : `/api/sessions?status=${encode(status)}`,
        ListSessionsResponseSchema,
      ),
    /** What a new session may be started with: allowed roots, workflows, profiles, modes. */
    options: (): Promise<SessionOptionsResponse> =>
      call('GET', '/api/options', SessionOptionsResponseSchema),
    getSession: (sessionId: string): Promise<SessionDto> =>
      call('GET', sessionPath(sessionId), GetSessionResponseSchema),
    events: (sessionId: string, after: number, limit = 1000): Promise<EventsPageResponse> =>
      call(
        'GET',
        `${sessionPath(sessionId)}/events?after=${after}&limit=${limit}`,
        EventsPageResponseSchema,
      ),
    approvals: (sessionId: string): Promise<ListApprovalsResponse> =>
      call('GET', `${sessionPath(sessionId)}/approvals`, ListApprovalsResponseSchema),
    decide: (
      sessionId: string,
      callId: string,
      body: DecideApprovalRequest,
    ): Promise<CommandResponse> =>
      call(
        'POST',
        `${sessionPath(sessionId)}/approvals/${encode(callId)}`,
        CommandResponseSchema,
        body,
      ),
    steer: (sessionId: string, body: SteeringNoteRequest): Promise<CommandResponse> =>
      call('POST', `${sessionPath(sessionId)}/steering`, CommandResponseSchema, body),
    lifecycle: (
      sessionId: string,
      /** `retry`: a failed session from its failed stage (as `correx resume --retry`). */
      action: 'pause' | 'resume' | 'cancel' | 'retry',
      body: LifecycleRequest,
    ): Promise<CommandResponse> =>
      call('POST', `${sessionPath(sessionId)}/${action}`, CommandResponseSchema, body),
    /** A follow-up turn of a session whose workflow ended (as `correx continue`). */
    continueSession: (sessionId: string, body: TurnRequest): Promise<TurnResponse> =>
      call('POST', `${sessionPath(sessionId)}/turns`, TurnResponseSchema, body),
    /** Fork the session at an event, stage or call (as `correx fork`); the server starts the fork. */
    forkSession: (sessionId: string, body: ForkSessionRequest): Promise<ForkSessionResponse> =>
      call('POST', `${sessionPath(sessionId)}/fork`, ForkSessionResponseSchema, body),
    replayVerify: (sessionId: string): Promise<ReplayVerifyResponse> =>
      call('POST', `${sessionPath(sessionId)}/replay-verify`, ReplayVerifyResponseSchema, {}),
    /** The real diff of the session's recorded changes, call by call (as `correx diff`). */
    sessionDiff: (sessionId: string, stage?: string): Promise<SessionDiffResponse> =>
      call(
        'GET',
        `${sessionPath(sessionId)}/diff${stage === undefined ? '' : `?stage=${encode(stage)}`}`,
        SessionDiffResponseSchema,
      ),
    /** Undo the recorded changes (as `correx undo`); a refusal lists the files that stopped it. */
    undo: (sessionId: string, body: UndoRequest): Promise<UndoResponse | UndoRefusedResponse> =>
      call('POST', `${sessionPath(sessionId)}/undo`, UndoResponseSchema, body, [
        409,
        UndoRefusedResponseSchema,
      ]),
    /** "Always allow" a waiting call: the CLI's exact scoped grant, then the approval. */
    alwaysAllow: (sessionId: string, callId: string): Promise<AlwaysAllowResponse> =>
      call(
        'POST',
        `${sessionPath(sessionId)}/approvals/${encode(callId)}/always-allow`,
        AlwaysAllowResponseSchema,
        {},
      ),
    grants: (sessionId: string): Promise<ListGrantsResponse> =>
      call('GET', `${sessionPath(sessionId)}/grants`, ListGrantsResponseSchema),
    addGrant: (sessionId: string, body: AddGrantRequest): Promise<AddGrantResponse> =>
      call('POST', `${sessionPath(sessionId)}/grants`, AddGrantResponseSchema, body),
    revokeGrant: (sessionId: string, grantId: string): Promise<AddGrantResponse> =>
      call(
        'POST',
        `${sessionPath(sessionId)}/grants/${encode(grantId)}/revoke`,
        AddGrantResponseSchema,
        {},
      ),
    /** Ask the session to move to stage `to`; it decides (`stage_redirected` or `redirect_rejected`). */
    redirect: (sessionId: string, body: RedirectRequest): Promise<CommandResponse> =>
      call('POST', `${sessionPath(sessionId)}/redirect`, CommandResponseSchema, body),
    /** What one model call saw: its context manifest rebuilt from the log. */
    modelCall: (sessionId: string, ref: string): Promise<ModelCallDto> =>
      call('GET', `/api/sessions/${encode(sessionId)}/context/${encode(ref)}`, ModelCallDtoSchema),
    /** Where two sessions first differ and what each came to (as `correx compare`). */
    compare: (a: string, b: string): Promise<CompareResponse> =>
      call('GET', `/api/compare?a=${encode(a)}&b=${encode(b)}`, CompareResponseSchema),
    /** The eval runs `correx eval run` saved for this store, newest first. */
    evals: (): Promise<ListEvalsResponse> => call('GET', '/api/evals', ListEvalsResponseSchema),
    evalRun: (evalId: string): Promise<GetEvalResponse> =>
      call('GET', `/api/evals/${encode(evalId)}`, GetEvalResponseSchema),
    createSession: (body: CreateSessionRequest) =>
      call('POST', '/api/sessions', CreateSessionResponseSchema, body),
  };
}

/** A sentence for an error, for the page to show. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === 'unauthorized')
      return 'The token was not accepted. Log in again with the server token.';
    if (error.code === 'session_not_found') return 'No session with that id exists in this store.';
    if (error.code === 'eval_not_found')
      return 'No eval run with that id was saved for this store.';
    return error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

import { leaseColumns, lockColumns } from '../session-lease.js';
import { allowedWorkspace as checkWorkspace } from '../allowed-workspace.js';
import type { FastifyInstance } from 'fastify';
import type { CorrexEventStore } from '../../core/event-catalog.js';
import type { KernelCommand, RecordingContext } from '../../core/kernel/index.js';
import { IdentifierSchema } from '../protocol/wire-values.js';
import {
  CreateSessionRequestSchema,
  DecideApprovalRequestSchema,
  EventsPageQuerySchema,
  ForkSessionRequestSchema,
  LifecycleRequestSchema,
  RedirectRequestSchema,
  ListSessionsQuerySchema,
  SteeringNoteRequestSchema,
  TurnRequestSchema,
  type CommandResponse,
  type TurnResponse,
  type CreateSessionResponse,
  type EventsPageResponse,
  type ForkSessionResponse,
  type GetSessionResponse,
  type ListApprovalsResponse,
  type ListSessionsResponse,
  type SessionOptionsResponse,
} from '../protocol/rest-dto.js';
import { toEventDto } from '../protocol/to-event-dto.js';
import { recordedTurn } from '../recorded-turn.js';
import { describedStarter } from '../interrupted-call-driver.js';
import { toPendingApprovalDetailsDto } from '../protocol/to-pending-approval-dto.js';
import { OperatorModeDtoSchema } from '../protocol/wire-values.js';
import { readApprovalDetails } from '../pending-approval-details.js';
import {
  toReplayVerifyResponse,
  toSessionDto,
  toSessionListItemDto,
} from '../protocol/to-session-dto.js';
import type { SessionHost } from '../session-host.js';
import { apiRoutes, type ApiRouteName } from './api-routes.js';
import { ApiError } from './server-errors.js';
import { CorrexError } from '../../core/base/correx-error.js';
import type { SessionIndex } from './session-index.js';
import { reservedNameReason } from '../person-name.js';
import type { PreimageStore } from '../../infrastructure/sandbox/preimage-store.js';
import {
  SessionDiffQuerySchema,
  UndoRequestSchema,
  type SessionDiffResponse,
} from '../protocol/session-changes-dto.js';
import { describeSessionDiff } from '../session-diff.js';
import { undoSessionChanges } from '../session-undo.js';
import { pendingApprovalExtras, writesFile } from './pending-approval-extras.js';
import { grantHandlers } from './grant-routes.js';
import type { Handler, Request } from './rest-handler.js';
import { parseRequestPart as parse } from './parse-request-part.js';
import { refuseRunningUndo, undoResponse } from './undo-response.js';
import { spendOf } from '../../core/kernel/index.js';
import { nodeSha256 } from '../../infrastructure/system/node-sha256.js';
import { forkOnHost } from '../fork-on-host.js';
import { forkWorkspace } from './fork-workspace.js';
import {
  CompareQuerySchema,
  CompareResponseSchema,
  type CompareResponse,
} from '../protocol/session-comparison-dto.js';
import {
  EvalIdSchema,
  type EvalRecord,
  type GetEvalResponse,
  type ListEvalsResponse,
} from '../protocol/eval-report-dto.js';
import { compareStoredSessions } from '../stored-session-comparison.js';
import { findModelCall, ModelCallNotFoundError } from '../../core/inference/model-call-contexts.js';
import { createModelCallContextCache } from './model-call-context-cache.js';
import {
  ModelCallDtoSchema,
  ModelCallRefSchema,
  type ListModelCallsResponse,
  type ModelCallDto,
} from '../protocol/model-call-context-dto.js';
import { preimageText } from '../preimage-text.js';
import {
  EvalReportNotFoundError,
  listEvalReports,
  readEvalReport,
} from '../eval/eval-report-archive.js';

export type RestContext = {
  readonly store: CorrexEventStore;
  readonly host: SessionHost;
  readonly index: SessionIndex;
  /** Real paths (symlinks resolved) of the folders new sessions may work in. */
  readonly allowedRoots: readonly string[];
  /**
   * Who a person's command through this server is recorded as: the identity the server
   * authenticates (one bearer token, held by the user who runs `correx serve`).
   */
  readonly user: string;
  readonly openapi: Record<string, unknown>;
  /** The pre-images of exec change records (`<correx home>/preimages`); null: none kept. */
  readonly preimages: PreimageStore | null;
  /** Where `correx eval run` saved its reports (`<correx home>/evals`); null: none are shown. */
  readonly evalReports: string | null;
  /** Stamps and names the events a person's undo becomes. */
  readonly recording: RecordingContext;
  /** Settles the promise of a session started here (logs how it ended). */
  onStarted(sessionId: string, done: Promise<unknown>): void;
};

/** The REST API. Every route here is listed in `apiRoutes` and so in the OpenAPI document. */
export function registerRestRoutes(app: FastifyInstance, context: RestContext): void {
  const { host, store, index } = context;
  const modelCallsOf = createModelCallContextCache(store);

  const sessionOf = async (request: Request) => {
    const sessionId = parse(IdentifierSchema, request.params.sessionId, 'session id');
    const session = await index.get(sessionId);
    if (session === null) throw new ApiError(404, 'session_not_found', `no session ${sessionId}`);
    return { sessionId, session };
  };
  /**
   * The decider of a person's command: always the server's authenticated identity. A body may
   * repeat it; naming anyone else (`auto`, another person) is refused, never recorded.
   */
  const decider = (named: string | undefined): string => {
    if (named === undefined || named === context.user) return context.user;
    const reserved = reservedNameReason(named);
    throw new ApiError(
      403,
      'forbidden_decider',
      `${reserved === null ? `"${named}" is not who this server authenticates` : reserved}; decisions through this server are recorded as ${context.user}`,
    );
  };
  const record = async (
    request: Request,
    command: KernelCommand,
  ): Promise<{ body: CommandResponse }> => {
    const { sessionId } = await sessionOf(request);
    const events = await host.command(sessionId, command);
    return {
      body: {
        events: events.map(toEventDto),
        refused: events.some((event) => event.payload.type === 'lifecycle_rejected'),
      },
    };
  };
  const lifecycle =
    (type: 'pause' | 'resume' | 'cancel'): Handler =>
    async (request) => {
      const body = parse(LifecycleRequestSchema, request.body ?? {}, 'body');
      const by = decider(body.by);
      if (type === 'resume') return record(request, { type, by });
      return record(request, {
        type,
        by,
        ...(body.reason === undefined ? {} : { reason: body.reason }),
      });
    };

  const handlers: Record<ApiRouteName, Handler> = {
    async createSession(request) {
      const body = parse(CreateSessionRequestSchema, request.body, 'body');
      const workspace = await allowedWorkspace(body.workspace, context.allowedRoots);
      const run = await host.start({
        task: body.task,
        workspace,
        ...(body.workflow === undefined ? {} : { workflow: body.workflow }),
        ...(body.modelProfile === undefined ? {} : { modelProfile: body.modelProfile }),
        ...(body.mode === undefined ? {} : { mode: body.mode }),
        ...(body.worktree === true ? { worktree: true } : {}),
      });
      context.onStarted(run.sessionId, run.done);
      const response: CreateSessionResponse = { sessionId: run.sessionId };
      return { status: 201, body: response };
    },
    async listSessions(request) {
      const query = parse(ListSessionsQuerySchema, request.query, 'query');
      const running = new Set(host.running());
      const attending = new Set(host.attending?.() ?? []);
      const drivers = await host.drivers?.();
      const rows = await index.list();
      const response: ListSessionsResponse = {
        sessions: rows
          .filter(
            ({ session }) => query.status === undefined || session.state.status === query.status,
          )
          .map(({ summary, session }) => ({
            ...toSessionListItemDto(
              summary,
              session.state,
              running.has(summary.sessionId),
              session.mode,
              spendOf(session.spend).costUsd,
            ),
            attended: attending.has(summary.sessionId),
            ...(drivers === undefined
              ? lockColumns(host, summary.sessionId)
              : leaseColumns(drivers.get(summary.sessionId))),
          })),
      };
      return { body: response };
    },
    async getSession(request) {
      const { sessionId, session } = await sessionOf(request);
      const response: GetSessionResponse = toSessionDto(
        session.state,
        sessionId,
        host.running().includes(sessionId),
        session.mode,
        spendOf(session.spend).costUsd,
      );
      return { body: response };
    },
    async sessionOptions() {
      const options = await host.options();
      const response: SessionOptionsResponse = {
        allowedRoots: [...context.allowedRoots],
        workflows: [...options.workflows],
        defaultWorkflow: options.defaultWorkflow,
        modelProfiles: [...options.modelProfiles],
        defaultModelProfile: options.defaultModelProfile,
        modes: [...OperatorModeDtoSchema.options],
        defaultMode: options.defaultMode,
      };
      return { body: response };
    },
    async listEvents(request) {
      const { sessionId } = await sessionOf(request);
      const query = parse(EventsPageQuerySchema, request.query, 'query');
      const events = await store.read(sessionId, {
        afterSequence: query.after,
        limit: query.limit,
      });
      const response: EventsPageResponse = {
        events: events.map(toEventDto),
        nextAfter: events.at(-1)?.sequence ?? query.after,
        lastSequence: await store.lastSequence(sessionId),
      };
      return { body: response };
    },
    async listApprovals(request) {
      const { sessionId, session } = await sessionOf(request);
      const pending = session.state.pendingApprovals;
      // Read up to the folded state, so a call decided since is not described from newer events.
      const details = await readApprovalDetails(
        store,
        sessionId,
        pending.map((approval) => approval.callId),
        { upToSequence: session.state.lastSequence },
      );
      // The whole log only when a write waits: its card diffs against the recorded content.
      const log = [...details.values()].some(writesFile) ? await store.read(sessionId) : null;
      // Read at each listing, never cached: whether the lost driver has stopped is what changes.
      const takes = [...details.values()].some((entry) => entry.interrupted !== null)
        ? await host.driverTakes?.(sessionId)
        : undefined;
      const response: ListApprovalsResponse = {
        approvals: pending.map((approval) => {
          const entry = details.get(approval.callId);
          return toPendingApprovalDetailsDto(
            approval,
            entry,
            pendingApprovalExtras(entry, session.state.workspace, log),
            takes === undefined || entry?.interrupted == null
              ? null
              : describedStarter(takes, entry.interrupted.startedSequence),
          );
        }),
      };
      return { body: response };
    },
    async decideApproval(request) {
      const callId = parse(IdentifierSchema, request.params.callId, 'call id');
      const body = parse(DecideApprovalRequestSchema, request.body, 'body');
      const by = decider(body.by);
      return record(
        request,
        body.decision === 'approve'
          ? {
              type: 'approve',
              callId,
              by,
              ...(body.reason === undefined ? {} : { reason: body.reason }),
            }
          : { type: 'deny', callId, by, reason: body.reason },
      );
    },
    ...grantHandlers({ store, recording: context.recording, sessionOf, decider, record }),
    async addSteeringNote(request) {
      const body = parse(SteeringNoteRequestSchema, request.body, 'body');
      return record(request, {
        type: 'steer',
        content: body.content,
        ...(body.stageId === undefined ? {} : { stageId: body.stageId }),
      });
    },
    async redirect(request) {
      const body = parse(RedirectRequestSchema, request.body, 'body');
      return record(request, {
        type: 'redirect',
        to: body.to,
        by: decider(body.by),
        ...(body.reason === undefined ? {} : { reason: body.reason }),
      });
    },
    // What `correx resume --retry` records; the host drives a session whose retry was recorded.
    async retry(request) {
      const body = parse(LifecycleRequestSchema, request.body ?? {}, 'body');
      return record(request, {
        type: 'retry',
        by: decider(body.by),
        ...(body.reason === undefined ? {} : { reason: body.reason }),
      });
    },
    // What `correx continue` records; the host drives the turn, the feed carries its events.
    async continueSession(request) {
      const { sessionId } = await sessionOf(request);
      const body = parse(TurnRequestSchema, request.body, 'body');
      const before = await store.lastSequence(sessionId);
      const run = await host.continue(sessionId, {
        text: body.text,
        requestedBy: decider(body.by),
        ...(body.workflow === undefined ? {} : { workflow: body.workflow }),
        ...(body.mode === undefined ? {} : { mode: body.mode }),
      });
      context.onStarted(run.sessionId, run.done);
      const recorded = await recordedTurn(store, sessionId, before);
      const turn = recorded?.payload;
      const response: TurnResponse = {
        sessionId,
        turn: turn?.type === 'turn_requested' ? turn.turn : 2,
        events: recorded === undefined ? [] : [toEventDto(recorded)],
      };
      return { status: 202, body: response };
    },
    pause: lifecycle('pause'),
    resume: lifecycle('resume'),
    cancel: lifecycle('cancel'),
    async sessionDiff(request) {
      const { sessionId } = await sessionOf(request);
      const query = parse(SessionDiffQuerySchema, request.query, 'query');
      const response: SessionDiffResponse = {
        changes: describeSessionDiff(
          await store.read(sessionId),
          context.preimages,
          query.stage === undefined ? {} : { stageId: query.stage },
        ),
      };
      return { body: response };
    },
    async undo(request) {
      const { sessionId } = await sessionOf(request);
      const body = parse(UndoRequestSchema, request.body ?? {}, 'body');
      const by = decider(body.by);
      // A session driven in this process is running whatever its log says.
      if (host.running().includes(sessionId)) refuseRunningUndo(sessionId);
      const result = await undoSessionChanges(
        { store, recording: context.recording, preimages: context.preimages ?? noPreimages },
        {
          sessionId,
          by,
          ...(body.to === undefined ? {} : { toSequence: body.to }),
          ...(body.stage === undefined ? {} : { stageId: body.stage }),
        },
      );
      return undoResponse(sessionId, result);
    },
    async forkSession(request) {
      const { sessionId, session } = await sessionOf(request);
      const body = parse(ForkSessionRequestSchema, request.body, 'body');
      const forkSessionId = context.recording.ids.next();
      const workspace = forkWorkspace(
        body.workspace,
        session.state.workspace,
        forkSessionId,
        context.allowedRoots,
      );
      const fork = await forkOnHost(
        host,
        {
          store,
          preimages: context.preimages ?? noPreimages,
          clock: context.recording.clock,
          ids: context.recording.ids,
          sha256: nodeSha256,
        },
        {
          parentSessionId: sessionId,
          at: body.at,
          forkSessionId,
          workspace,
          by: context.user,
          ...(body.modelProfile === undefined ? {} : { model: body.modelProfile }),
          ...(body.profiles === undefined ? {} : { profiles: body.profiles }),
          ...(body.workflow === undefined ? {} : { workflow: body.workflow }),
          ...(body.mode === undefined ? {} : { mode: body.mode }),
          ...(body.allowMissing === true ? { allowMissing: true } : {}),
        },
      );
      const run = await host.resume(fork.sessionId);
      context.onStarted(run.sessionId, run.done);
      const response: ForkSessionResponse = {
        sessionId: fork.sessionId,
        parentSessionId: fork.parentSessionId,
        atSequence: fork.atSequence,
        named: fork.named,
        workspace: fork.workspace,
        restored: [...fork.restored],
        missing: [...fork.missing],
      };
      return { status: 201, body: response };
    },
    async listModelCalls(request) {
      const { sessionId } = await sessionOf(request);
      const calls = await modelCallsOf(sessionId);
      const response: ListModelCallsResponse = {
        calls: calls.map(({ manifest, ...call }) => ({
          ...call,
          toolNames: [...call.toolNames],
          change:
            call.change === null
              ? null
              : { added: [...call.change.added], dropped: [...call.change.dropped] },
          budgetTokens: manifest.budgetTokens,
          totalTokens: manifest.totalTokens,
          tokenizer: manifest.tokenizer,
          included: manifest.included.length,
          excluded: manifest.excluded.length,
        })),
      };
      return { body: response };
    },
    async getModelCall(request) {
      const { sessionId } = await sessionOf(request);
      const ref = parse(ModelCallRefSchema, request.params.call, 'model call');
      const calls = await modelCallsOf(sessionId);
      const call = findModelCall(calls, ref);
      if (call === undefined)
        throw new ApiError(
          404,
          'model_call_not_found',
          new ModelCallNotFoundError(sessionId, ref, calls.length).message,
        );
      // Parsed: the wire shape is the protocol's, checked, not whatever the object carries.
      const response: ModelCallDto = ModelCallDtoSchema.parse(call);
      return { body: response };
    },
    async compareSessions(request) {
      const query = parse(CompareQuerySchema, request.query, 'query');
      for (const [side, sessionId] of [
        ['a', query.a],
        ['b', query.b],
      ] as const)
        if ((await store.lastSequence(sessionId)) === 0)
          throw new ApiError(404, 'session_not_found', `no session ${sessionId} (${side})`);
      const comparison = await compareStoredSessions(
        store,
        query,
        preimageText(context.preimages ?? noPreimages),
        nodeSha256,
      );
      // Parsed: the wire shape is the protocol's, checked, not whatever the object carries.
      const response: CompareResponse = CompareResponseSchema.parse(comparison);
      return { body: response };
    },
    async listEvals() {
      const saved =
        context.evalReports === null
          ? { reports: [], unreadable: [] }
          : listEvalReports(context.evalReports);
      const evals: ListEvalsResponse['evals'] = [];
      for (const report of saved.reports) {
        // A report of another store's sessions is not this server's to show.
        if (!(await anyInStore(store, report.runs))) continue;
        const { runs, ...rest } = report;
        evals.push({ ...rest, runs: runs.length });
      }
      const response: ListEvalsResponse = { evals, unreadable: [...saved.unreadable] };
      return { body: response };
    },
    async getEval(request) {
      const evalId = parse(EvalIdSchema, request.params.evalId, 'eval id');
      const notFound = () => new ApiError(404, 'eval_not_found', `no eval run ${evalId}`);
      if (context.evalReports === null) throw notFound();
      let report: EvalRecord;
      try {
        report = readEvalReport(context.evalReports, evalId);
      } catch (error) {
        if (error instanceof EvalReportNotFoundError) throw notFound();
        // The server's own file is damaged: say which, rather than blame the request.
        if (CorrexError.isInstance(error) && error.code === 'eval_report_unreadable')
          throw new ApiError(500, 'internal', error.message);
        throw error;
      }
      const runs = [];
      for (const run of report.runs)
        runs.push({ ...run, inStore: (await store.lastSequence(run.sessionId)) > 0 });
      if (!runs.some((run) => run.inStore)) throw notFound();
      const response: GetEvalResponse = { ...report, runs };
      return { body: response };
    },
    async replayVerify(request) {
      const { sessionId } = await sessionOf(request);
      return { body: toReplayVerifyResponse(await host.replayVerify(sessionId)) };
    },
    async openapi() {
      return { body: context.openapi };
    },
    websocket() {
      // Reached only by a plain GET: the upgrade is served by the WebSocket handler.
      throw new ApiError(400, 'invalid_request', 'this path only accepts WebSocket upgrades');
    },
  };

  for (const [name, route] of Object.entries(apiRoutes) as [
    ApiRouteName,
    (typeof apiRoutes)[ApiRouteName],
  ][]) {
    if (name === 'websocket') continue;
    const handler = handlers[name];
    app.route({
      method: route.method,
      url: route.path,
      handler: async (request, reply) => {
        const { status, body } = await handler(request as Request);
        return reply.code(status ?? 200).send(body);
      },
    });
  }
}

/** Whether any of the runs' sessions is in the store. */
async function anyInStore(
  store: CorrexEventStore,
  runs: readonly { readonly sessionId: string }[],
): Promise<boolean> {
  for (const run of runs) if ((await store.lastSequence(run.sessionId)) > 0) return true;
  return false;
}

/** Without a pre-image folder nothing was kept: an undo that needs bytes is refused. */
const noPreimages: PreimageStore = {
  directory: '',
  put: () => {
    throw new Error('this server keeps no pre-images');
  },
  get: () => null,
  has: () => false,
};

/** The workspace's real path, when it is an existing folder inside an allowed root. */
async function allowedWorkspace(path: string, roots: readonly string[]): Promise<string> {
  const allowed = await checkWorkspace(path, roots);
  if (allowed.ok) return allowed.path;
  throw allowed.reason === 'outside'
    ? new ApiError(403, 'workspace_not_allowed', allowed.message)
    : new ApiError(400, 'invalid_request', allowed.message);
}

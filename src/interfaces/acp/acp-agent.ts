import { realpathSync } from 'node:fs';
import {
  PROTOCOL_VERSION,
  RequestError,
  agent,
  type AgentApp,
  type AgentContext,
  type ContentBlock,
  type PermissionOption,
  type SessionConfigOption,
  type SessionModeState,
  type SessionUpdate,
  type StopReason,
} from '@agentclientprotocol/sdk';
import { basename } from 'node:path';
import { OperatorModeSchema, type OperatorMode } from '../../core/approvals/approval-tier.js';
import type { GrantScope } from '../../core/approvals/approval-events.js';
import { CorrexError } from '../../core/base/correx-error.js';
import type { CorrexEvent, CorrexEventStore } from '../../core/event-catalog.js';
import type { RecordingContext, RunOutcome } from '../../core/kernel/index.js';
import type { McpServersConfig } from '../../infrastructure/mcp/mcp-server-config.js';
import { allowedWorkspace } from '../allowed-workspace.js';
import { alwaysAllowScope, describeGrantScope } from '../always-allow-scope.js';
import { readApprovalDetails } from '../pending-approval-details.js';
import { ALWAYS_ALLOW_REASON, recordGrant } from '../record-grant.js';
import type { HostedRun, SessionHost } from '../session-host.js';
import { clientMcpServers } from './acp-mcp-servers.js';
import { createAcpUpdateMapper, permissionToolCall, type AcpUpdateMapper } from './acp-updates.js';

/** What `correx acp` hands the agent. */
export type AcpAgentDeps = {
  readonly version: string;
  readonly store: CorrexEventStore;
  readonly host: SessionHost;
  /** Stamps the grants "allow always" records. */
  readonly recording: RecordingContext;
  /** Folders sessions may work in (real paths). */
  readonly allowedRoots: readonly string[];
  /** The workflow, model profile and mode a new session starts with unless the client picks. */
  readonly defaults: {
    readonly workflow?: string;
    readonly modelProfile?: string;
    readonly mode?: OperatorMode;
  };
  /** Subscribes to the events the host's runs append; returns the unsubscribe. */
  readonly onHostEvent: (listener: (event: CorrexEvent) => void) => () => void;
  /** stderr: stdout is the protocol's. */
  readonly log: (line: string) => void;
};

/** The ACP option ids of a permission request. */
const ALLOW_ONCE = 'allow-once';
const ALLOW_ALWAYS = 'allow-always';
const REJECT_ONCE = 'reject-once';
const REJECT_ALWAYS = 'reject-always';

const MODE_DESCRIPTIONS: Readonly<Record<OperatorMode, string>> = {
  prompt: 'ask before anything above reading (T0)',
  auto: 'run workspace writes and commands (up to T2), ask above',
  yolo: 'run every tier without asking (policy blocks still hold)',
  deny: 'refuse everything above reading',
};

type Turn = {
  cancelled: boolean;
  /** Aborts a permission request in flight. */
  readonly abort: AbortController;
};

type AcpSession = {
  readonly id: string;
  readonly cwd: string;
  mode: OperatorMode;
  modelProfile: string | null;
  workflow: string;
  /** What the client changed since the session's last turn: the next follow-up asks for it. */
  readonly changed: { mode: boolean; workflow: boolean };
  readonly mcpServers: McpServersConfig;
  /** The correx session exists in the log (its first prompt started it). */
  started: boolean;
  turn: Turn | null;
  /** Scopes the client answered "reject always" for: later calls of that scope are denied. */
  readonly rejectedAlways: Set<string>;
  /** Events mapped so far (sequence); the live mapper has seen everything up to here. */
  cursor: number;
  readonly mapper: AcpUpdateMapper;
  /** Serializes reads of the log and the notifications they become. */
  pumping: Promise<void>;
  client: AgentContext | null;
};

/**
 * correx as an ACP v1 agent: each ACP session is one correx session, started by its first
 * prompt in `cwd` and driven here through the session host; its events stream back as
 * `session/update`s (acp-updates.ts), every approval correx would ask a person for becomes a
 * `session/request_permission`, and the client's name is recorded as the approver.
 */
export function createAcpAgent(deps: AcpAgentDeps): AgentApp {
  const sessions = new Map<string, AcpSession>();
  let clientName = 'acp-client';
  const host = deps.host;

  deps.onHostEvent((event) => {
    const session = sessions.get(event.sessionId);
    if (session?.turn != null) void pump(session);
  });

  /** Sends every event logged after the session's cursor, in order, as updates. */
  const pump = (session: AcpSession, options: { replay?: boolean } = {}): Promise<void> => {
    const next = session.pumping.then(async () => {
      for (;;) {
        const events = await deps.store.read(session.id, {
          afterSequence: session.cursor,
          limit: 500,
        });
        if (events.length === 0) return;
        for (const event of events) {
          session.cursor = event.sequence;
          for (const update of session.mapper.map(event)) {
            // A live turn does not echo the prompt the client just sent.
            if (options.replay !== true && update.sessionUpdate === 'user_message_chunk') continue;
            await send(session, update);
          }
        }
      }
    });
    session.pumping = next.catch((error: unknown) =>
      deps.log(`session ${session.id}: ${(error as Error).message}`),
    );
    return next;
  };

  const send = async (session: AcpSession, update: SessionUpdate) => {
    await session.client?.notify('session/update', { sessionId: session.id, update });
  };

  const options = async (session: AcpSession): Promise<SessionConfigOption[]> => {
    const offered = await host.options();
    const workflows = [...new Set([session.workflow, ...offered.workflows])];
    const models = offered.modelProfiles;
    return [
      {
        id: 'mode',
        name: 'Approval mode',
        category: 'mode',
        type: 'select',
        currentValue: session.mode,
        options: OperatorModeSchema.options.map((mode) => ({
          value: mode,
          name: mode,
          description: MODE_DESCRIPTIONS[mode],
        })),
      },
      {
        id: 'model',
        name: 'Model profile',
        category: 'model',
        type: 'select',
        currentValue: session.modelProfile ?? 'default',
        options: [
          { value: 'default', name: 'default', description: 'the configured routing' },
          ...models.map((model) => ({ value: model, name: model })),
        ],
      },
      {
        id: 'workflow',
        name: 'Workflow',
        category: '_workflow',
        type: 'select',
        currentValue: session.workflow,
        options: workflows.map((workflow) => ({
          value: workflow,
          name: workflow.includes('/') ? basename(workflow) : workflow,
        })),
      },
    ];
  };

  const modes = (session: AcpSession): SessionModeState => ({
    currentModeId: session.mode,
    availableModes: OperatorModeSchema.options.map((mode) => ({
      id: mode,
      name: mode,
      description: MODE_DESCRIPTIONS[mode],
    })),
  });

  const workspaceOf = async (cwd: string): Promise<string> => {
    const workspace = await allowedWorkspace(cwd, deps.allowedRoots);
    if (!workspace.ok)
      throw RequestError.invalidParams(
        { cwd },
        `${workspace.message}${workspace.reason === 'outside' ? ` (correx acp --allow-root; allowed: ${deps.allowedRoots.join(', ')})` : ''}`,
      );
    return workspace.path;
  };

  const newSession = async (
    id: string,
    cwd: string,
    servers: Parameters<typeof clientMcpServers>[0],
    started: boolean,
  ): Promise<AcpSession> => {
    const offered = await host.options();
    const chat = offered.workflows.includes('chat') ? 'chat' : undefined;
    const session: AcpSession = {
      id,
      cwd,
      mode: deps.defaults.mode ?? offered.defaultMode,
      modelProfile: deps.defaults.modelProfile ?? offered.defaultModelProfile,
      workflow: deps.defaults.workflow ?? chat ?? offered.defaultWorkflow,
      mcpServers: clientMcpServers(servers),
      changed: { mode: false, workflow: false },
      started,
      turn: null,
      rejectedAlways: new Set(),
      cursor: 0,
      mapper: createAcpUpdateMapper(),
      pumping: Promise.resolve(),
      client: null,
    };
    sessions.set(id, session);
    return session;
  };

  const existing = (sessionId: string): AcpSession => {
    const session = sessions.get(sessionId);
    if (session === undefined) throw RequestError.sessionNotFound(sessionId);
    return session;
  };

  /** Opens a recorded correx session as an ACP session here (load or resume). */
  const reopen = async (
    sessionId: string,
    cwd: string,
    servers: Parameters<typeof clientMcpServers>[0],
  ): Promise<AcpSession> => {
    if ((await deps.store.lastSequence(sessionId)) === 0)
      throw RequestError.sessionNotFound(sessionId);
    const recorded = await createdOf(sessionId);
    const workspace = await workspaceOf(cwd);
    if (recorded !== undefined && realpathSync(recorded.workspace) !== workspace)
      throw RequestError.invalidParams(
        { cwd, workspace: recorded.workspace },
        `session ${sessionId} works in ${recorded.workspace}, not ${cwd}`,
      );
    sessions.get(sessionId)?.turn?.abort.abort();
    const session = await newSession(sessionId, workspace, servers, true);
    if (recorded !== undefined) {
      session.workflow = recorded.workflowId;
      session.mode = recorded.mode;
      if (recorded.modelProfile !== undefined) session.modelProfile = recorded.modelProfile;
    }
    return session;
  };

  /** Asks the client about the call the session waits for and records the answer. */
  const decide = async (
    session: AcpSession,
    turn: Turn,
    waiting: { readonly callId: string; readonly sessionId?: string },
  ): Promise<'decided' | 'cancelled'> => {
    const target = waiting.sessionId ?? session.id;
    const { callId } = waiting;
    const details = (await readApprovalDetails(deps.store, target, [callId])).get(callId);
    const scope = details === undefined ? null : alwaysAllowScope(details, session.cwd);
    const scopeWords = scope === null ? null : describeGrantScope(scope);
    if (scopeWords !== null && session.rejectedAlways.has(scopeWords)) {
      await host.command(target, {
        type: 'deny',
        callId,
        by: clientName,
        reason: `rejected always in ${clientName}: ${scopeWords}`,
      });
      return 'decided';
    }
    const offered: PermissionOption[] = [
      { optionId: ALLOW_ONCE, name: 'Allow once', kind: 'allow_once' },
      ...(scopeWords === null
        ? []
        : [
            {
              optionId: ALLOW_ALWAYS,
              name: `Always allow ${scopeWords}`,
              kind: 'allow_always' as const,
            },
          ]),
      { optionId: REJECT_ONCE, name: 'Reject', kind: 'reject_once' },
      ...(scopeWords === null
        ? []
        : [
            {
              optionId: REJECT_ALWAYS,
              name: `Always reject ${scopeWords}`,
              kind: 'reject_always' as const,
            },
          ]),
    ];
    const answer = await session.client!.request(
      'session/request_permission',
      {
        sessionId: session.id,
        toolCall: permissionToolCall(callId, details),
        options: offered,
        _meta: { correx: { sessionId: target, callId, grant: scope } },
      },
      { cancellationSignal: turn.abort.signal },
    );
    if (answer.outcome.outcome === 'cancelled' || turn.cancelled) return 'cancelled';
    switch (answer.outcome.optionId) {
      case ALLOW_ONCE:
        await host.command(target, { type: 'approve', callId, by: clientName });
        return 'decided';
      case ALLOW_ALWAYS: {
        const { grantId } = await recordGrant(deps.recording, deps.store, target, {
          scope: scope as GrantScope,
          stageId: null,
          expiresAt: null,
          by: clientName,
          reason: ALWAYS_ALLOW_REASON,
        });
        await host.command(target, {
          type: 'approve',
          callId,
          by: clientName,
          reason: `always allowed: ${grantId}`,
        });
        return 'decided';
      }
      case REJECT_ALWAYS:
        session.rejectedAlways.add(scopeWords!);
        await host.command(target, {
          type: 'deny',
          callId,
          by: clientName,
          reason: `rejected always in ${clientName}: ${scopeWords}`,
        });
        return 'decided';
      case REJECT_ONCE:
        await host.command(target, {
          type: 'deny',
          callId,
          by: clientName,
          reason: `rejected in ${clientName}`,
        });
        return 'decided';
      default:
        throw RequestError.invalidParams(
          { optionId: answer.outcome.optionId },
          `the client chose an option correx did not offer: ${answer.outcome.optionId}`,
        );
    }
  };

  /** Drives one prompt turn to its end and says why it ended. */
  const runTurn = async (
    session: AcpSession,
    turn: Turn,
    first: HostedRun,
  ): Promise<StopReason> => {
    let run = first;
    for (;;) {
      const outcome = await run.done;
      await pump(session);
      if (turn.cancelled) return 'cancelled';
      if (outcome.waiting?.kind === 'approval') {
        const answered = await decide(session, turn, outcome.waiting);
        if (answered === 'cancelled') {
          await cancelSession(session, 'the client cancelled the permission request');
          await pump(session);
          return 'cancelled';
        }
        run = await host.resume(session.id);
        continue;
      }
      return stopReason(outcome, await deps.store.read(session.id));
    }
  };

  const cancelSession = async (session: AcpSession, reason: string) => {
    if (!session.started) return;
    await host
      .command(session.id, { type: 'cancel', by: clientName, reason })
      .catch((error: unknown) => deps.log(`cancel ${session.id}: ${(error as Error).message}`));
  };

  return agent({ name: 'correx' })
    .onRequest('initialize', ({ params }) => {
      clientName = params.clientInfo?.name ?? clientName;
      return {
        protocolVersion: PROTOCOL_VERSION,
        agentInfo: { name: 'correx', title: 'correx', version: deps.version },
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { embeddedContext: true, image: false, audio: false },
          mcpCapabilities: { http: true, sse: false },
          sessionCapabilities: { list: {}, resume: {}, close: {} },
        },
        authMethods: [
          {
            id: 'correx-config',
            name: 'Provider keys from the environment or correx configuration',
            description:
              'correx reads model keys from its environment (OPENAI_API_KEY, ANTHROPIC_API_KEY, OPENAI_BASE_URL) or from models: in $CORREX_HOME/harness.yaml; `correx doctor` checks them. Nothing is sent through the editor.',
          },
        ],
      };
    })
    .onRequest('authenticate', async ({ params }) => {
      if (params.methodId !== 'correx-config')
        throw RequestError.invalidParams({ methodId: params.methodId }, 'unknown auth method');
      await requireModel();
      return {};
    })
    .onRequest('session/new', async ({ params, client }) => {
      await requireModel();
      const cwd = await workspaceOf(params.cwd);
      const session = await newSession(deps.recording.ids.next(), cwd, params.mcpServers, false);
      session.client = client;
      return {
        sessionId: session.id,
        modes: modes(session),
        configOptions: await options(session),
      };
    })
    .onRequest('session/load', async ({ params, client }) => {
      const session = await reopen(params.sessionId, params.cwd, params.mcpServers);
      session.client = client;
      const verified = await host.replayVerify(session.id);
      if (!verified.ok)
        throw new RequestError(
          -32603,
          `session ${session.id} does not replay from its log (first divergence at sequence ${verified.divergence.sequence}); not loaded`,
          { sessionId: session.id, divergence: verified.divergence },
        );
      await pump(session, { replay: true });
      deps.log(`loaded session ${session.id}: ${verified.events} events, replay verified`);
      return {
        modes: modes(session),
        configOptions: await options(session),
        _meta: { correx: { replayVerified: true, events: verified.events } },
      };
    })
    .onRequest('session/resume', async ({ params, client }) => {
      const session = await reopen(params.sessionId, params.cwd, params.mcpServers ?? []);
      session.client = client;
      // The client holds the conversation already: nothing is streamed back.
      session.cursor = await deps.store.lastSequence(session.id);
      for (const event of await deps.store.read(session.id)) session.mapper.map(event);
      return { modes: modes(session), configOptions: await options(session) };
    })
    .onRequest('session/list', async ({ params }) => {
      const summaries = await deps.store.listSessions();
      const listed = [];
      for (const summary of summaries) {
        const created = await createdOf(summary.sessionId);
        if (created === undefined || created.parent !== undefined) continue;
        if (params.cwd != null && created.workspace !== params.cwd) continue;
        listed.push({
          sessionId: summary.sessionId,
          cwd: created.workspace,
          title: created.task.split('\n')[0]!.slice(0, 120),
          updatedAt: summary.lastTimestamp,
        });
      }
      listed.sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : -1));
      return { sessions: listed };
    })
    .onRequest('session/close', async ({ params }) => {
      const session = existing(params.sessionId);
      if (session.turn !== null) {
        session.turn.cancelled = true;
        session.turn.abort.abort();
        await cancelSession(session, `the session was closed in ${clientName}`);
      }
      sessions.delete(session.id);
      return {};
    })
    .onRequest('session/set_mode', async ({ params }) => {
      const session = existing(params.sessionId);
      const mode = OperatorModeSchema.safeParse(params.modeId);
      if (!mode.success)
        throw RequestError.invalidParams(
          { modeId: params.modeId },
          `no mode ${params.modeId} (modes: ${OperatorModeSchema.options.join(', ')})`,
        );
      session.mode = mode.data;
      session.changed.mode = true;
      await send(session, { sessionUpdate: 'current_mode_update', currentModeId: mode.data });
      return {};
    })
    .onRequest('session/set_config_option', async ({ params }) => {
      const session = existing(params.sessionId);
      const current = await options(session);
      const option = current.find((candidate) => candidate.id === params.configId);
      if (option === undefined || option.type !== 'select')
        throw RequestError.invalidParams(
          { configId: params.configId },
          `no config option ${params.configId} (options: ${current.map((o) => o.id).join(', ')})`,
        );
      const values = (option.options as { value: string }[]).map((choice) => choice.value);
      if (typeof params.value !== 'string' || !values.includes(params.value))
        throw RequestError.invalidParams(
          { configId: params.configId, value: params.value },
          `${String(params.value)} is not a value of ${params.configId} (values: ${values.join(', ')})`,
        );
      if (params.configId === 'mode') {
        session.mode = params.value as OperatorMode;
        session.changed.mode = true;
        await send(session, { sessionUpdate: 'current_mode_update', currentModeId: session.mode });
      } else if (params.configId === 'model') {
        if (session.started && params.value !== (session.modelProfile ?? 'default'))
          throw RequestError.invalidParams(
            { configId: 'model' },
            'a session keeps the model profile it started with (its configuration is recorded); start a new session for another',
          );
        session.modelProfile = params.value === 'default' ? null : params.value;
      } else {
        session.workflow = params.value;
        session.changed.workflow = true;
      }
      return { configOptions: await options(session) };
    })
    .onRequest('session/prompt', async ({ params, client }) => {
      const session = existing(params.sessionId);
      if (session.turn !== null)
        throw RequestError.invalidRequest(
          { sessionId: session.id },
          'a prompt turn is still running in this session; cancel it or wait for its end',
        );
      session.client = client;
      const text = promptText(params.prompt);
      if (text.trim() === '') throw RequestError.invalidParams({}, 'the prompt has no text');
      const turn: Turn = { cancelled: false, abort: new AbortController() };
      session.turn = turn;
      try {
        let run: HostedRun;
        if (!session.started) {
          run = await host.start({
            task: text,
            workspace: session.cwd,
            sessionId: session.id,
            workflow: session.workflow,
            mode: session.mode,
            ...(session.modelProfile === null ? {} : { modelProfile: session.modelProfile }),
            ...(Object.keys(session.mcpServers).length === 0
              ? {}
              : { mcpServers: session.mcpServers }),
          });
          session.started = true;
        } else {
          // A follow-up turn: recorded as `turn_requested` by the client, in the same session.
          run = await host.continue(session.id, {
            text,
            requestedBy: clientName,
            ...(session.changed.workflow ? { workflow: session.workflow } : {}),
            ...(session.changed.mode ? { mode: session.mode } : {}),
          });
          session.changed.mode = false;
          session.changed.workflow = false;
        }
        // A cancel that came while the session was being set up takes effect now.
        if (turn.cancelled) await cancelSession(session, `cancelled in ${clientName}`);
        return { stopReason: await runTurn(session, turn, run) };
      } catch (error) {
        throw asRequestError(error);
      } finally {
        session.turn = null;
      }
    })
    .onNotification('session/cancel', async ({ params }) => {
      const session = sessions.get(params.sessionId);
      const turn = session?.turn;
      if (session === undefined || turn == null || turn.cancelled) return;
      turn.cancelled = true;
      // A permission request still open is answered `cancelled` by the client.
      turn.abort.abort();
      await cancelSession(session, `cancelled in ${clientName}`);
    });

  /** The `session_created` a session's log opens with (among its first events). */
  async function createdOf(sessionId: string) {
    for (const event of await deps.store.read(sessionId, { afterSequence: 0, limit: 5 }))
      if (event.payload.type === 'session_created') return event.payload;
    return undefined;
  }

  async function requireModel(): Promise<void> {
    const offered = await host.options();
    if (offered.modelProfiles.length === 0)
      throw RequestError.authRequired(
        {},
        'no model is configured: set OPENAI_API_KEY / ANTHROPIC_API_KEY (or OPENAI_BASE_URL and CORREX_MODEL) in the environment correx acp starts with, or models: in $CORREX_HOME/harness.yaml',
      );
  }
}

/**
 * The request a prompt's blocks make: its text, with embedded resources (an editor's open
 * buffer, a selection) given as context after it and resource links named.
 */
export function promptText(blocks: readonly ContentBlock[]): string {
  const parts: string[] = [];
  for (const block of blocks) {
    if (block.type === 'text') parts.push(block.text);
    else if (block.type === 'resource_link') parts.push(`[${block.name}](${block.uri})`);
    else if (block.type === 'resource' && 'text' in block.resource)
      parts.push(`\n<context uri="${block.resource.uri}">\n${block.resource.text}\n</context>`);
    else
      throw RequestError.invalidParams(
        { type: block.type },
        `correx takes text, resource links and embedded text resources, not ${block.type} content`,
      );
  }
  return parts.join('\n');
}

/** Why a turn ended, in ACP's words, from how correx's run ended. */
export function stopReason(outcome: RunOutcome, events: readonly CorrexEvent[]): StopReason {
  if (outcome.status === 'cancelled') return 'cancelled';
  if (outcome.waiting?.kind === 'budget')
    return outcome.waiting.budget === 'tokens' ? 'max_tokens' : 'max_turn_requests';
  if (outcome.waiting?.kind === 'paused' || outcome.waiting?.kind === 'stopped') return 'cancelled';
  if (outcome.status === 'failed') {
    const failure = outcome.state.session.failure;
    if (failure?.category === 'budget') return 'max_turn_requests';
    const refused = events.some(
      (event) =>
        event.payload.type === 'inference_completed' &&
        event.payload.result.finishReason === 'content_filter',
    );
    if (refused) return 'refusal';
  }
  return 'end_turn';
}

function asRequestError(error: unknown): unknown {
  if (error instanceof RequestError) return error;
  if (CorrexError.isInstance(error))
    return new RequestError(error.code === 'usage' ? -32602 : -32603, error.message, {
      code: error.code,
    });
  return error;
}

import { answerCallArgs } from '../../core/inference/answer-call-args.js';
import { isAbsolute, resolve } from 'node:path';
import type {
  SessionUpdate,
  ToolCallContent,
  ToolCallUpdate,
  ToolKind,
} from '@agentclientprotocol/sdk';
import type { CorrexEvent } from '../../core/event-catalog.js';
import { sessionSpendProjection, spendOf, type SpendState } from '../../core/kernel/index.js';
import type { InferenceResult } from '../../core/inference/inference-result.js';
import { builtinFileChange, describesFileChange } from '../../core/tools/builtin-tools.js';
import { contentAfter } from '../../core/tools/file-change.js';
import type { PendingApprovalDetails } from '../pending-approval-details.js';
import { recordedFileContent } from '../recorded-file-content.js';

/**
 * correx's events as ACP v1 `session/update`s: the one place that knows both. Everything else in
 * `correx acp` hands events in and sends what comes out, so ACP v2 is a change of this file (and
 * of the SDK entry point), not of the agent.
 *
 * Deterministic: the same events in the same order give the same updates, whoever folds them —
 * a live prompt turn and a `session/load` that streams the conversation back from the log.
 */
export type AcpUpdateMapper = {
  /** The updates one event becomes (none for most kernel bookkeeping). */
  map(event: CorrexEvent): SessionUpdate[];
};

/** The most of a command's output or an error shown in one tool call's content. */
const MAX_OUTPUT_CHARS = 8_000;

type Call = {
  readonly tool: string;
  readonly args: Record<string, unknown>;
};

/**
 * A mapper for one session's log, fed its events in sequence order. The person's requests (the
 * task, a follow-up's text) come out as `user_message_chunk`s: a `session/load` streams them
 * back, a live turn drops them (the client shows the prompt it sent).
 */
export function createAcpUpdateMapper(): AcpUpdateMapper {
  let workspace = '/';
  let stages: string[] = [];
  const stageStatus = new Map<string, 'pending' | 'in_progress' | 'completed'>();
  const calls = new Map<string, Call>();
  /** Receipts of file tools, in order: what `recordedFileContent` folds for a diff's old text. */
  const fileReceipts: CorrexEvent[] = [];
  /** Model answers by event id: an accepted artifact's message is read from its answer. */
  const answers = new Map<string, InferenceResult>();
  /** The answer event each proposed artifact came from, by artifact hash. */
  const artifactAnswers = new Map<string, string | null>();
  let spend: SpendState = sessionSpendProjection.initial();
  const contextWindows = new Map<string, number>();
  let contextWindow = 0;

  const plan = (): SessionUpdate[] =>
    stages.length < 2
      ? []
      : [
          {
            sessionUpdate: 'plan',
            entries: stages.map((stage) => ({
              content: stage,
              priority: 'medium' as const,
              status: stageStatus.get(stage) ?? 'pending',
            })),
          },
        ];

  const message = (text: string, messageId: string): SessionUpdate[] =>
    text.trim() === ''
      ? []
      : [{ sessionUpdate: 'agent_message_chunk', messageId, content: { type: 'text', text } }];

  const absolute = (path: string): string => (isAbsolute(path) ? path : resolve(workspace, path));

  return {
    map(event) {
      const payload = event.payload;
      spend = sessionSpendProjection.evolve(spend, event);
      switch (payload.type) {
        case 'session_created':
          workspace = payload.workspace;
          return [
            {
              sessionUpdate: 'session_info_update',
              title: payload.task.split('\n')[0]!.slice(0, 120),
              updatedAt: event.timestamp,
            },
            userMessage(payload.task, event.eventId),
          ];
        case 'session_configured': {
          const configuration = payload.configuration as {
            workflow?: { stages?: { id?: unknown }[] };
            models?: { id?: unknown; contextWindow?: unknown }[];
          };
          stages = (configuration.workflow?.stages ?? [])
            .map((stage) => stage.id)
            .filter((id): id is string => typeof id === 'string');
          for (const model of configuration.models ?? [])
            if (typeof model.id === 'string' && typeof model.contextWindow === 'number')
              contextWindows.set(model.id, model.contextWindow);
          return [];
        }
        case 'stage_started':
          for (const [stage, status] of stageStatus)
            if (status === 'in_progress') stageStatus.set(stage, 'pending');
          stageStatus.set(payload.stageId, 'in_progress');
          return plan();
        case 'stage_completed':
          stageStatus.set(payload.stageId, 'completed');
          return plan();
        case 'inference_requested':
          contextWindow = contextWindows.get(payload.profileId) ?? contextWindow;
          return [];
        case 'inference_completed': {
          answers.set(event.eventId, payload.result);
          const { usage } = payload.result;
          const cost = spendOf(spend).costUsd;
          return [
            ...message(payload.result.text, payload.requestId),
            {
              sessionUpdate: 'usage_update',
              used: usage.inputTokens + usage.outputTokens,
              size: contextWindow,
              ...(cost === null ? {} : { cost: { amount: cost, currency: 'USD' } }),
            },
          ];
        }
        case 'artifact_proposed':
          artifactAnswers.set(payload.hash, payload.inferenceEventId);
          return [];
        case 'artifact_accepted': {
          const answerId = artifactAnswers.get(payload.hash);
          const answer = answerId == null ? undefined : answers.get(answerId);
          return answer === undefined ? [] : message(answerMessage(answer), payload.hash);
        }
        case 'tool_call_proposed': {
          const args = parseArgs(payload.argsRaw);
          calls.set(payload.callId, { tool: payload.tool, args });
          const path = pathOf(args);
          return [
            {
              sessionUpdate: 'tool_call',
              toolCallId: payload.callId,
              title: titleOf(payload.tool, args),
              name: payload.tool,
              kind: kindOf(payload.tool),
              status: 'pending',
              locations: path === undefined ? [] : [{ path: absolute(path) }],
              rawInput: args,
            },
          ];
        }
        case 'tool_call_rejected':
          return [failed(payload.callId, payload.message)];
        case 'approval_denied':
          return [failed(payload.callId, `denied by ${payload.by.id}: ${payload.reason}`)];
        case 'tool_call_started':
          return [
            {
              sessionUpdate: 'tool_call_update',
              toolCallId: payload.callId,
              status: 'in_progress',
              ...(payload.targets.length === 0
                ? {}
                : { locations: payload.targets.map((target) => ({ path: target.path })) }),
            },
          ];
        case 'tool_receipt': {
          const ok = payload.outcome === 'succeeded';
          const content = ok
            ? receiptContent(event, calls.get(payload.callId), fileReceipts)
            : textContent(payload.error ?? payload.outcome);
          if (isFileTool(payload.tool)) fileReceipts.push(event);
          const written = payload.files.filter((file) => file.access !== 'read');
          return [
            {
              sessionUpdate: 'tool_call_update',
              toolCallId: payload.callId,
              status: ok ? 'completed' : 'failed',
              content,
              ...(payload.files.length === 0
                ? {}
                : {
                    locations: (written.length > 0 ? written : payload.files).map((file) => ({
                      path: file.path,
                    })),
                  }),
              rawOutput: {
                outcome: payload.outcome,
                exitCode: payload.exitCode,
                truncated: payload.truncated,
              },
            },
          ];
        }
        case 'turn_requested':
          return [userMessage(payload.text, event.eventId)];
        case 'turn_workspace_checked':
          return payload.changed.length === 0
            ? []
            : message(
                `correx: ${payload.changed.length} file(s) changed outside the session since the last turn, taken as they are now: ${payload.changed.map((change) => `${change.path} (${change.kind})`).join(', ')}`,
                event.eventId,
              );
        case 'turn_reply_recorded':
          // The reply itself came with its accepted artifact; the checks it ran come with it.
          return payload.checks.length === 0
            ? []
            : message(
                `\n\nChecks: ${payload.checks.map((check) => `${check.name} ${check.passed ? 'passed' : 'FAILED'}`).join(', ')}`,
                payload.artifactHash,
              );
        case 'workflow_failed':
          return message(`correx: the session failed: ${payload.message}`, event.eventId);
        default:
          return [];
      }
    },
  };
}

/**
 * The tool call a `session/request_permission` is about: what the model proposed, the tier it
 * was assessed at and why correx asks.
 */
export function permissionToolCall(
  callId: string,
  details: PendingApprovalDetails | undefined,
): ToolCallUpdate {
  const tool = details?.proposal?.tool ?? details?.request?.tool;
  const args =
    details?.proposal === undefined || details.proposal === null
      ? {}
      : parseArgs(details.proposal.argsRaw);
  const why =
    details?.request === null || details?.request === undefined
      ? undefined
      : `${details.request.tier}: ${details.request.reason}`;
  return {
    toolCallId: callId,
    status: 'pending',
    ...(tool === undefined ? {} : { title: titleOf(tool, args), kind: kindOf(tool), name: tool }),
    rawInput: args,
    ...(why === undefined ? {} : { content: textContent(why) }),
    ...(details?.assessment == null
      ? {}
      : {
          locations: details.assessment.targets
            .filter((target) => target.role !== 'URL' && target.param !== 'command')
            .map((target) => ({ path: target.realPath ?? target.resolved })),
        }),
  };
}

function userMessage(text: string, messageId: string): SessionUpdate {
  return { sessionUpdate: 'user_message_chunk', messageId, content: { type: 'text', text } };
}

function failed(callId: string, text: string): SessionUpdate {
  return {
    sessionUpdate: 'tool_call_update',
    toolCallId: callId,
    status: 'failed',
    content: textContent(text),
  };
}

function textContent(text: string): ToolCallContent[] {
  const shown =
    text.length > MAX_OUTPUT_CHARS
      ? `${text.slice(0, MAX_OUTPUT_CHARS)}\n… (more in the log)`
      : text;
  return shown === '' ? [] : [{ type: 'content', content: { type: 'text', text: shown } }];
}

/**
 * What a successful call shows: a diff `{path, oldText, newText}` for a file it wrote (the old
 * text as the log last held the whole file; null for a file it created), a command's output,
 * nothing for a read (the editor opens the location).
 */
function receiptContent(
  event: CorrexEvent,
  call: Call | undefined,
  fileReceipts: readonly CorrexEvent[],
): ToolCallContent[] {
  const payload = event.payload;
  if (payload.type !== 'tool_receipt') return [];
  const args = call?.args ?? payload.args;
  if (describesFileChange(payload.tool)) {
    const file = payload.files.find((touched) => touched.access === 'write');
    if (file === undefined) return [];
    const known = recordedFileContent(fileReceipts, file.path, event.sequence);
    const change = builtinFileChange(payload.tool, args);
    if (change === undefined) return [];
    if (change.kind === 'whole') {
      if (file.before === null)
        return [{ type: 'diff', path: file.path, oldText: null, newText: change.content }];
      if (known !== undefined)
        return [{ type: 'diff', path: file.path, oldText: known, newText: change.content }];
      return textContent(`overwrote ${file.path} (its earlier content is not in the log)`);
    }
    return known === undefined
      ? [{ type: 'diff', path: file.path, oldText: change.search, newText: change.replace }]
      : [{ type: 'diff', path: file.path, oldText: known, newText: contentAfter(change, known) }];
  }
  if (kindOf(payload.tool) === 'read' || kindOf(payload.tool) === 'search')
    return payload.tool === 'read_file' ? [] : textContent(payload.output);
  return textContent(payload.output);
}

/** A tool whose receipts the recorded content of a file is rebuilt from (reads and described changes). */
function isFileTool(tool: string): boolean {
  return tool === 'read_file' || describesFileChange(tool);
}

function parseArgs(raw: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(raw);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

function pathOf(args: Record<string, unknown>): string | undefined {
  for (const key of ['path', 'destination', 'cwd'])
    if (typeof args[key] === 'string' && args[key] !== '') return args[key];
  return undefined;
}

const KINDS: Readonly<Record<string, ToolKind>> = {
  read_file: 'read',
  list_dir: 'read',
  write_file: 'edit',
  edit_file: 'edit',
  copy_file: 'edit',
  move_file: 'move',
  glob: 'search',
  grep: 'search',
  exec: 'execute',
  http_fetch: 'fetch',
};

/** The ACP kind of a correx tool (an MCP server's tools are `other`). */
export function kindOf(tool: string): ToolKind {
  return KINDS[tool] ?? 'other';
}

function titleOf(tool: string, args: Record<string, unknown>): string {
  const text = (key: string) => (typeof args[key] === 'string' ? args[key] : '');
  switch (tool) {
    case 'read_file':
      return `Read ${text('path')}`;
    case 'write_file':
      return `Write ${text('path')}`;
    case 'edit_file':
      return `Edit ${text('path')}`;
    case 'list_dir':
      return `List ${text('path')}`;
    case 'glob':
    case 'grep':
      return `Search ${text('pattern')}`;
    case 'exec':
      return `Run ${typeof args.command === 'string' ? args.command : Array.isArray(args.argv) ? args.argv.join(' ') : ''}`;
    case 'http_fetch':
      return `Fetch ${text('url')}`;
    case 'copy_file':
      return `Copy ${text('source')} to ${text('destination')}`;
    case 'move_file':
      return `Move ${text('source')} to ${text('destination')}`;
    default:
      return tool;
  }
}

/**
 * The message a stage's accepted answer carries for the person: its `message`, `reply` or
 * `summary` field, else the answer's text, else its JSON.
 */
function answerMessage(answer: InferenceResult): string {
  const finishing = answer.toolCalls.find((call) => call.name.startsWith('finish_'));
  const args = finishing === undefined ? undefined : answerCallArgs(finishing);
  if (args !== undefined) {
    for (const key of ['message', 'reply', 'summary'])
      if (typeof args[key] === 'string') return args[key];
    return JSON.stringify(args);
  }
  return '';
}

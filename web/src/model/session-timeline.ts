import type { EventDto } from '../../../src/interfaces/protocol/event-dto.js';
import { builtinFileChange, describesFileChange } from '../../../src/core/tools/builtin-tools.js';
import { contentAfter } from '../../../src/core/tools/file-change.js';
import { diffLines } from './line-diff.js';
import {
  num,
  parseArgs,
  record,
  records,
  shownLines,
  text,
  type Payload,
} from './payload-fields.js';
import type {
  AssessedTarget,
  FileChange,
  Finding,
  StageSection,
  TimelineItem,
  ToolCallItem,
  WorkflowGraph,
} from './timeline-types.js';
import { readWorkflowGraph } from './workflow-graph.js';
import { answerText, artifactContent, readArtifact } from './artifact-item.js';

/**
 * A session's timeline, folded event by event (in sequence order) as they arrive over the
 * WebSocket: stages as sections, each tool call one entry from proposal to receipt, plus what
 * the page shows beside it (workflow graph, rework cycles, per-stage time and tokens, file
 * changes). Mutable on purpose: a live session adds events one at a time.
 */
export type SessionTimeline = {
  readonly sections: StageSection[];
  readonly calls: Map<string, ToolCallItem>;
  readonly fileChanges: FileChange[];
  graph: WorkflowGraph | null;
  mode: string | null;
  modelProfile: string | null;
  /** The parent's id, when the session is a fork (its `session_forked` names it). */
  forkedFrom: string | null;
  currentStageId: string | null;
  reworkCycles: number;
  lastSequence: number;
  lastTimestamp: string | null;
  eventCount: number;
};

export function createTimeline(): SessionTimeline {
  return {
    sections: [],
    calls: new Map(),
    fileChanges: [],
    graph: null,
    mode: null,
    modelProfile: null,
    forkedFrom: null,
    currentStageId: null,
    reworkCycles: 0,
    lastSequence: 0,
    lastTimestamp: null,
    eventCount: 0,
  };
}

/** Known file contents by real path, to diff a write against (reads and earlier writes). */
const knownContent = new WeakMap<SessionTimeline, Map<string, string>>();
/** Model answers by event id (text and entry), until the artifact made from each is proposed. */
const answers = new WeakMap<
  SessionTimeline,
  Map<string, { text: string; item: { artifactKind?: string } }>
>();
/** Artifact entries by hash, to mark them accepted. */
const artifactItems = new WeakMap<SessionTimeline, Map<string, { accepted: boolean }>>();
/** Each stage's position in the order stages were first entered. */
const firstVisits = new WeakMap<SessionTimeline, Map<string, number>>();

function currentSection(timeline: SessionTimeline, event: EventDto): StageSection {
  const last = timeline.sections.at(-1);
  if (last) return last;
  const preamble: StageSection = {
    key: 'session',
    stageId: null,
    attempt: 0,
    startedAt: event.timestamp,
    outcome: 'preamble',
    failedChecks: [],
    inputTokens: 0,
    outputTokens: 0,
    items: [],
    revision: 0,
  };
  timeline.sections.push(preamble);
  return preamble;
}

/** The section each tool call entry sits in, to mark it changed when a later event updates the call. */
const callSections = new WeakMap<ToolCallItem, StageSection>();

function push(timeline: SessionTimeline, event: EventDto, item: TimelineItem): void {
  const section = currentSection(timeline, event);
  section.items.push(item);
  section.revision++;
  if (item.kind === 'tool_call') callSections.set(item, section);
}

function lifecycle(
  timeline: SessionTimeline,
  event: EventDto,
  label: string,
  tone: 'info' | 'good' | 'bad',
  detail?: string,
): void {
  push(timeline, event, {
    kind: 'lifecycle',
    sequence: event.sequence,
    timestamp: event.timestamp,
    type: event.type,
    label,
    tone,
    ...(detail ? { detail } : {}),
  });
}

function callFor(timeline: SessionTimeline, event: EventDto, payload: Payload): ToolCallItem {
  const callId = text(payload, 'callId') ?? `#${event.sequence}`;
  let call = timeline.calls.get(callId);
  if (!call) {
    call = {
      kind: 'tool_call',
      sequence: event.sequence,
      timestamp: event.timestamp,
      callId,
      tool: text(payload, 'tool') ?? 'unknown',
      stageId: text(payload, 'stageId') ?? timeline.currentStageId,
      argsRaw: text(payload, 'argsRaw') ?? '',
    };
    timeline.calls.set(callId, call);
    push(timeline, event, call);
  }
  const section = callSections.get(call);
  if (section) section.revision++;
  return call;
}

function by(payload: Payload): string | undefined {
  const approver = record(payload, 'by');
  if (approver) return `${text(approver, 'kind') ?? ''}:${text(approver, 'id') ?? ''}`;
  return text(payload, 'by');
}

/** The file change a write call proposes, diffed against what the log knows of the file. */
export function proposedChange(
  timeline: SessionTimeline,
  call: ToolCallItem,
): FileChange | undefined {
  return proposedChangeAgainst(call, (path) => knownContent.get(timeline)?.get(path));
}

/** The file change a write call proposes, diffed against the content `known` gives for its path. */
export function proposedChangeAgainst(
  call: ToolCallItem,
  knownOf: (path: string) => string | undefined,
): FileChange | undefined {
  if (!describesFileChange(call.tool)) return undefined;
  const args = parseArgs(call.argsRaw);
  if (!args) return undefined;
  // What the tool says its arguments change (its `describeChange`); none shown for other tools.
  const change = builtinFileChange(call.tool, args);
  if (change === undefined) return undefined;
  const target = call.assessment?.targets.find((t) => t.write);
  const path = target?.realPath ?? target?.resolved ?? change.path;
  const known = knownOf(path);
  let before: string;
  let after: string;
  let beforeKnown: boolean;
  if (change.kind === 'whole') {
    after = change.content;
    beforeKnown = known !== undefined;
    before = known ?? '';
  } else {
    beforeKnown = known !== undefined && known.includes(change.search);
    before = beforeKnown ? known! : change.search;
    after = beforeKnown ? contentAfter(change, known!) : change.replace;
  }
  return {
    path,
    tool: call.tool,
    callId: call.callId,
    sequence: call.sequence,
    beforeKnown,
    lines: diffLines(before, after),
  };
}

function recordReceipt(timeline: SessionTimeline, call: ToolCallItem, payload: Payload): void {
  const outcome = text(payload, 'outcome') ?? 'unknown';
  call.receipt = {
    outcome,
    exitCode: num(payload, 'exitCode') ?? null,
    error: text(payload, 'error') ?? null,
    durationMs: num(payload, 'durationMs') ?? 0,
    output: text(payload, 'output') ?? '',
    truncated: payload.truncated === true,
  };
  if (outcome !== 'succeeded') return;
  const contents = knownContent.get(timeline) ?? new Map<string, string>();
  knownContent.set(timeline, contents);
  const file = records(payload, 'files')[0];
  const path = file ? text(file, 'path') : undefined;
  const args = record(payload, 'args') ?? {};
  if (
    call.tool === 'read_file' &&
    path &&
    !call.receipt.truncated &&
    args.startLine === undefined &&
    args.endLine === undefined
  )
    contents.set(path, call.receipt.output);
  if (describesFileChange(call.tool)) {
    const change = proposedChange(timeline, call);
    if (change) {
      call.change = change;
      timeline.fileChanges.push(change);
    }
    const described = builtinFileChange(call.tool, args);
    const after = path && described ? contentAfter(described, contents.get(path)) : undefined;
    if (path && after !== undefined) contents.set(path, after);
  }
}

function startStage(timeline: SessionTimeline, event: EventDto, payload: Payload): void {
  const stageId = text(payload, 'stageId') ?? '?';
  timeline.currentStageId = stageId;
  timeline.sections.push({
    key: `${stageId}#${timeline.sections.length}`,
    stageId,
    attempt: num(payload, 'attempt') ?? 1,
    startedAt: event.timestamp,
    outcome: 'running',
    failedChecks: [],
    inputTokens: 0,
    outputTokens: 0,
    items: [],
    revision: 0,
  });
  const visits = firstVisits.get(timeline) ?? new Map<string, number>();
  firstVisits.set(timeline, visits);
  if (!visits.has(stageId)) visits.set(stageId, visits.size);
}

/** Folds one event (the next in sequence) into the timeline. */
export function addEvent(timeline: SessionTimeline, event: EventDto): void {
  if (event.sequence <= timeline.lastSequence) return;
  timeline.lastSequence = event.sequence;
  timeline.lastTimestamp = event.timestamp;
  timeline.eventCount++;
  const last = timeline.sections.at(-1);
  if (last) last.revision++;
  const payload: Payload = event.payload;
  const at = { sequence: event.sequence, timestamp: event.timestamp };
  switch (event.type) {
    case 'session_created':
      timeline.mode = text(payload, 'mode') ?? null;
      timeline.modelProfile = text(payload, 'modelProfile') ?? null;
      return lifecycle(timeline, event, 'Session created', 'info', shownLines(payload, 'task'));
    case 'session_configured': {
      const configuration = record(payload, 'configuration');
      timeline.graph = configuration ? readWorkflowGraph(configuration) : null;
      return;
    }
    case 'session_forked': {
      const profile = text(payload, 'modelProfile');
      timeline.forkedFrom = text(payload, 'parentSessionId') ?? null;
      return lifecycle(
        timeline,
        event,
        `Forked from ${text(payload, 'parentSessionId') ?? '?'} at #${String(payload.atSequence ?? '?')}`,
        'info',
        `by ${text(payload, 'by') ?? '?'}${profile === undefined ? '' : `, onto ${profile}`}, workspace ${text(payload, 'workspace') ?? '?'}`,
      );
    }
    case 'workflow_started':
      return lifecycle(timeline, event, 'Workflow started', 'info', text(payload, 'workflowId'));
    case 'workflow_completed':
      timeline.currentStageId = null;
      return lifecycle(timeline, event, 'Workflow completed', 'good', text(payload, 'summary'));
    case 'workflow_failed':
      return lifecycle(
        timeline,
        event,
        `Workflow failed (${text(payload, 'category') ?? '?'})`,
        'bad',
        shownLines(payload, 'message'),
      );
    case 'workflow_cancelled':
      return lifecycle(
        timeline,
        event,
        `Cancelled by ${text(payload, 'by') ?? '?'}`,
        'bad',
        shownLines(payload, 'reason'),
      );
    case 'orchestration_paused':
      return lifecycle(
        timeline,
        event,
        `Paused by ${text(payload, 'by') ?? '?'}`,
        'info',
        shownLines(payload, 'reason'),
      );
    case 'orchestration_resumed':
      return lifecycle(timeline, event, `Resumed by ${text(payload, 'by') ?? '?'}`, 'info');
    case 'session_retried':
      return lifecycle(
        timeline,
        event,
        `Retried by ${text(payload, 'by') ?? '?'} from stage ${text(payload, 'stageId') ?? '?'} (attempt ${num(payload, 'attempt') ?? '?'})`,
        'info',
        shownLines(payload, 'reason'),
      );
    case 'turn_requested':
      return lifecycle(
        timeline,
        event,
        `Turn ${num(payload, 'turn') ?? '?'} asked by ${text(payload, 'requestedBy') ?? '?'} (workflow ${text(payload, 'workflowId') ?? '?'})`,
        'info',
        shownLines(payload, 'text'),
      );
    case 'turn_workspace_checked': {
      const changed = records(payload, 'changed');
      return lifecycle(
        timeline,
        event,
        changed.length === 0
          ? `Workspace as the last turn left it (${num(payload, 'compared') ?? 0} file(s) compared)`
          : `${changed.length} file(s) changed outside correx since the last turn, kept as they are`,
        changed.length === 0 ? 'info' : 'bad',
        changed.length === 0
          ? undefined
          : changed
              .map((change) => `${text(change, 'path') ?? '?'} (${text(change, 'kind') ?? '?'})`)
              .join('\n'),
      );
    }
    case 'turn_reply_recorded':
      return lifecycle(
        timeline,
        event,
        `Reply (turn ${num(payload, 'turn') ?? '?'})`,
        'good',
        shownLines(payload, 'message'),
      );
    case 'lifecycle_rejected':
      return lifecycle(
        timeline,
        event,
        `Refused: ${text(payload, 'command') ?? '?'}`,
        'bad',
        shownLines(payload, 'message'),
      );
    case 'stage_started':
      return startStage(timeline, event, payload);
    case 'stage_completed': {
      const section = currentSection(timeline, event);
      section.outcome = 'completed';
      section.endedAt = event.timestamp;
      const verdict = text(payload, 'verdict');
      if (verdict) section.verdict = verdict;
      return lifecycle(
        timeline,
        event,
        `Stage ${text(payload, 'stageId') ?? ''} completed`,
        'good',
        verdict && `verdict: ${verdict}`,
      );
    }
    case 'stage_failed': {
      const section = currentSection(timeline, event);
      section.outcome = 'failed';
      section.endedAt = event.timestamp;
      section.failure = `${text(payload, 'category') ?? '?'}: ${shownLines(payload, 'message') ?? ''}`;
      return lifecycle(
        timeline,
        event,
        `Stage ${text(payload, 'stageId') ?? ''} failed (${text(payload, 'category') ?? '?'})`,
        'bad',
        shownLines(payload, 'message'),
      );
    }
    case 'transition_taken': {
      const to = text(payload, 'to');
      const from = text(payload, 'from') ?? '?';
      // A rework cycle: a move back to a stage first entered before the one being left.
      const visits = firstVisits.get(timeline);
      const rework =
        to !== undefined &&
        to !== from &&
        (visits?.get(to) ?? Infinity) < (visits?.get(from) ?? -Infinity);
      if (rework) timeline.reworkCycles++;
      const end = text(payload, 'end');
      return push(timeline, event, {
        kind: 'transition',
        ...at,
        from,
        ...(to === undefined ? {} : { to }),
        ...(end === undefined ? {} : { end }),
        condition: text(payload, 'condition') ?? '',
        traversal: num(payload, 'traversal') ?? 1,
        rework,
      });
    }
    case 'transition_rejected':
      return lifecycle(
        timeline,
        event,
        `Transition refused (${shownLines(payload, 'reason') ?? '?'})`,
        'bad',
        shownLines(payload, 'message'),
      );
    case 'steering_note_added': {
      const stageId = text(payload, 'stageId');
      return push(timeline, event, {
        kind: 'steering',
        ...at,
        content: shownLines(payload, 'content') ?? '',
        ...(stageId ? { stageId } : {}),
      });
    }
    case 'validation_failed':
      return push(timeline, event, {
        kind: 'validation',
        ...at,
        phase: text(payload, 'phase') ?? '',
        validator: text(payload, 'validator') ?? '',
        message: shownLines(payload, 'message') ?? '',
      });
    case 'inference_completed': {
      const result = record(payload, 'result') ?? {};
      const kept = answers.get(timeline) ?? new Map();
      answers.set(timeline, kept);
      const usage = record(result, 'usage') ?? {};
      const inputTokens = num(usage, 'inputTokens') ?? 0;
      const outputTokens = num(usage, 'outputTokens') ?? 0;
      const section = currentSection(timeline, event);
      section.inputTokens += inputTokens;
      section.outputTokens += outputTokens;
      const item: TimelineItem & { kind: 'inference' } = {
        kind: 'inference',
        ...at,
        requestId: text(payload, 'requestId') ?? '',
        model: text(result, 'modelId') ?? '',
        inputTokens,
        outputTokens,
        latencyMs: num(result, 'latencyMs') ?? 0,
        text: text(result, 'text') ?? '',
      };
      kept.set(event.eventId, { text: answerText(result), item });
      return push(timeline, event, item);
    }
    case 'inference_failed':
      return push(timeline, event, {
        kind: 'inference',
        ...at,
        requestId: text(payload, 'requestId') ?? '',
        model: text(payload, 'model') ?? '',
        inputTokens: 0,
        outputTokens: 0,
        latencyMs: 0,
        text: '',
        failure: `${text(payload, 'category') ?? '?'}: ${shownLines(payload, 'message') ?? ''}`,
      });
    case 'tool_call_proposed':
      callFor(timeline, event, payload);
      return;
    case 'tool_call_rejected':
      callFor(timeline, event, payload).rejection = {
        reason: shownLines(payload, 'reason') ?? '',
        message: shownLines(payload, 'message') ?? '',
      };
      return;
    case 'tool_call_assessed':
      callFor(timeline, event, payload).assessment = {
        verdict: text(payload, 'verdict') ?? '?',
        tier: text(payload, 'tier') ?? '?',
        risk: text(payload, 'risk') ?? '?',
        findings: records(payload, 'findings').map(readFinding),
        targets: records(payload, 'targets').map(readTarget),
      };
      return;
    case 'approval_requested':
      callFor(timeline, event, payload).approval = {
        state: 'pending',
        tier: text(payload, 'tier') ?? '?',
        reason: shownLines(payload, 'reason') ?? '',
        sequence: event.sequence,
      };
      return;
    case 'approval_granted':
    case 'approval_denied':
    case 'approval_bypassed': {
      const call = callFor(timeline, event, payload);
      const decider = by(payload);
      call.approval = {
        tier: call.approval?.tier ?? text(payload, 'tier') ?? '?',
        reason: call.approval?.reason ?? '',
        state:
          event.type === 'approval_granted'
            ? 'granted'
            : event.type === 'approval_denied'
              ? 'denied'
              : 'bypassed',
        sequence: event.sequence,
        ...(decider ? { by: decider } : {}),
        ...(shownLines(payload, 'reason')
          ? { decisionReason: shownLines(payload, 'reason')! }
          : {}),
      };
      return;
    }
    case 'tool_receipt':
      return recordReceipt(timeline, callFor(timeline, event, payload), payload);
    case 'artifact_proposed': {
      const kind = text(payload, 'kind') ?? '?';
      const hash = text(payload, 'hash') ?? '';
      const from = text(payload, 'inferenceEventId');
      const answer = from === undefined ? undefined : answers.get(timeline)?.get(from);
      if (from !== undefined) answers.get(timeline)?.delete(from);
      if (answer !== undefined) answer.item.artifactKind = kind;
      const item = {
        kind: 'artifact' as const,
        ...at,
        artifactKind: kind,
        hash,
        body: readArtifact(kind, answer === undefined ? undefined : artifactContent(answer.text)),
        accepted: false,
      };
      const byHash = artifactItems.get(timeline) ?? new Map<string, { accepted: boolean }>();
      artifactItems.set(timeline, byHash);
      byHash.set(hash, item);
      return push(timeline, event, item);
    }
    case 'artifact_accepted': {
      const item = artifactItems.get(timeline)?.get(text(payload, 'hash') ?? '');
      if (item) item.accepted = true;
      return;
    }
    case 'dod_check_ran': {
      const exitCode = num(payload, 'exitCode') ?? null;
      const outcome = text(payload, 'outcome') ?? '?';
      const passed = outcome === 'completed' && exitCode === 0;
      const name = text(payload, 'name') ?? '?';
      if (!passed) currentSection(timeline, event).failedChecks.push(name);
      return push(timeline, event, {
        kind: 'check',
        ...at,
        name,
        command: text(payload, 'command') ?? '',
        passed,
        outcome,
        exitCode,
        output: shownLines(payload, 'output') ?? '',
      });
    }
    case 'journal_compacted':
      return lifecycle(
        timeline,
        event,
        `Journal compacted: ${num(payload, 'entries') ?? '?'} older entries folded into a summary${
          text(payload, 'requestId') === undefined ? '' : ' the model wrote'
        }`,
        'info',
        shownLines(payload, 'summary'),
      );
    case 'tool_call_started':
    case 'world_observed':
    case 'inference_requested':
    case 'journal_summary_requested':
      return;
    default:
      return push(timeline, event, { kind: 'other', ...at, type: event.type });
  }
}

function readFinding(payload: Payload): Finding {
  return {
    ruleId: text(payload, 'ruleId') ?? '',
    severity: text(payload, 'severity') ?? '',
    code: text(payload, 'code') ?? '',
    message: shownLines(payload, 'message') ?? '',
    tier: text(payload, 'tier') ?? '',
  };
}

function readTarget(payload: Payload): AssessedTarget {
  return {
    param: text(payload, 'param') ?? '',
    raw: text(payload, 'raw') ?? '',
    resolved: text(payload, 'resolved') ?? '',
    realPath: text(payload, 'realPath') ?? null,
    write: payload.write === true,
  };
}

/** The tool calls that wait for a person now. */
export function pendingCalls(timeline: SessionTimeline): ToolCallItem[] {
  return [...timeline.calls.values()].filter((call) => call.approval?.state === 'pending');
}

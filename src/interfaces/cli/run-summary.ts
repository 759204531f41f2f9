import type { ApprovalTier } from '../../core/approvals/approval-tier.js';
import type { CorrexEvent, CorrexEventStore } from '../../core/event-catalog.js';
import {
  eventsOfTurn,
  evolveBudget,
  INITIAL_BUDGET,
  recordedChanges,
  sessionSpend,
  sessionTurns,
} from '../../core/kernel/index.js';
import type { BudgetKind } from '../../core/sessions/budget-events.js';
import type { FailureCategory } from '../../core/sessions/failure-category.js';
import { sessionProjection } from '../../core/sessions/session-projection.js';
import type { SessionStatus } from '../../core/sessions/session-status.js';
import { recordedFileContent } from '../recorded-file-content.js';
import { EXIT_CODES } from './exit-codes.js';
import { unifiedDiff } from '../unified-diff.js';

/** One file the session changed, from its first recorded change to its last. */
export type ChangedFile = {
  readonly path: string;
  readonly change: 'created' | 'modified' | 'deleted';
  /** Lines added and removed; null when the bytes of either side are neither kept nor in the log. */
  readonly added: number | null;
  readonly removed: number | null;
};

/** The latest recorded run of one check. */
export type CheckResult = {
  readonly name: string;
  readonly command: string;
  readonly stageId: string;
  readonly passed: boolean;
  readonly exitCode: number | null;
  /** The `dod_check_ran` event's sequence (in the session that ran it). */
  readonly sequence: number;
  readonly sessionId: string;
};

/** What an open session waits for. */
export type WaitingFor =
  | {
      readonly kind: 'approval';
      /** The session the calls wait in: this one, or a stage's sub-session. */
      readonly sessionId: string;
      readonly calls: readonly {
        readonly callId: string;
        readonly tool: string;
        readonly tier: ApprovalTier;
      }[];
    }
  | { readonly kind: 'budget'; readonly budget: BudgetKind; readonly limit: number }
  | { readonly kind: 'resume' };

/**
 * How a run (or any read of a session) ended, from the logs alone: the session's and those of
 * the sub-sessions its stages ran. Documented in docs/headless.md; `correx run --json` prints it
 * as the last line.
 */
export type RunSummary = {
  readonly type: 'summary';
  readonly sessionId: string;
  readonly workspace: string | null;
  readonly status: SessionStatus;
  readonly exitCode: number;
  readonly failureReason: { readonly category: FailureCategory; readonly message: string } | null;
  readonly waitingFor: WaitingFor | null;
  readonly checks: readonly CheckResult[];
  readonly filesChanged: readonly ChangedFile[];
  /** Summed over the session and its sub-sessions. */
  readonly tokens: { readonly input: number; readonly output: number };
  /** US dollars by the recorded profiles' prices; null when no profile has prices. */
  readonly cost: number | null;
  readonly subSessions: readonly string[];
  readonly lastSequence: number;
  /** Commands that inspect or continue the session. */
  readonly next: readonly string[];
  /**
   * The turn this summary covers (its outcome, checks, files, tokens and cost are that turn's),
   * in a session with follow-up turns; absent for the whole session or one without follow-ups.
   */
  readonly turn?: number;
  /** Each turn on its own, in a session with follow-up turns (absent with one turn). */
  readonly turns?: readonly TurnSummary[];
};

/** One turn of a session with follow-up turns, on its own. */
export type TurnSummary = {
  readonly turn: number;
  readonly text: string;
  readonly requestedBy: string;
  readonly workflowId: string;
  readonly outcome: 'completed' | 'failed' | 'cancelled' | null;
  readonly message: string | null;
  readonly reply: string | null;
  readonly fromSequence: number;
  readonly toSequence: number;
  /** Files edited outside correx that the turn found before it ran. */
  readonly workspaceChanged: readonly string[];
  readonly filesChanged: number;
  readonly tokens: { readonly input: number; readonly output: number };
  readonly cost: number | null;
};

/** Which part of a session a summary covers: all of it, one turn, or its latest turn. */
export type SummaryScope = { readonly turn?: number | 'latest' };

/** The text of file content stored under a hash (the pre-image store), or null. */
export type StoredText = (sha256: string) => string | null;

/** Reads a session's log and those of its sub-sessions, depth first, keyed by session id. */
export async function readSessionLogs(
  store: CorrexEventStore,
  sessionId: string,
): Promise<Map<string, readonly CorrexEvent[]>> {
  const logs = new Map<string, readonly CorrexEvent[]>();
  const visit = async (id: string) => {
    if (logs.has(id)) return;
    const events = await store.read(id);
    logs.set(id, events);
    for (const event of events)
      if (event.payload.type === 'subagent_started') await visit(event.payload.childSessionId);
  };
  await visit(sessionId);
  return logs;
}

/**
 * The summary of session `sessionId` from its logs (see `readSessionLogs`). Pure: the same logs
 * and stored texts give the same object, whoever reads them and whenever.
 */
export function runSummary(
  sessionId: string,
  sessionLogs: ReadonlyMap<string, readonly CorrexEvent[]>,
  stored: StoredText,
  sha256: (text: string) => string,
  scope: SummaryScope = {},
): RunSummary {
  const whole = sessionLogs.get(sessionId) ?? [];
  const turns = sessionTurns(whole);
  const turn =
    turns.length < 2 || scope.turn === undefined
      ? undefined
      : scope.turn === 'latest'
        ? turns.at(-1)!.turn
        : scope.turn;
  const logs = turn === undefined ? sessionLogs : turnLogs(sessionId, sessionLogs, turn);
  const root = logs.get(sessionId) ?? [];
  let state = sessionProjection.initial();
  let budget = INITIAL_BUDGET;
  for (const event of root) {
    state = sessionProjection.evolve(state, event);
    budget = evolveBudget(budget, event);
  }
  const subSessions = [...logs.keys()].filter((id) => id !== sessionId);
  const tokens = { input: 0, output: 0 };
  let cost: number | null = null;
  const checks = new Map<string, CheckResult>();
  const files = new Map<string, ChangedFile>();
  for (const [id, events] of logs) {
    const spend = sessionSpend(events);
    tokens.input += spend.tokens.input;
    tokens.output += spend.tokens.output;
    if (spend.costUsd !== null) cost = (cost ?? 0) + spend.costUsd;
    for (const event of events) {
      const payload = event.payload;
      if (payload.type !== 'dod_check_ran') continue;
      checks.delete(payload.name);
      checks.set(payload.name, {
        name: payload.name,
        command: payload.command,
        stageId: payload.stageId,
        passed: payload.outcome === 'completed' && payload.exitCode === 0,
        exitCode: payload.exitCode,
        sequence: event.sequence,
        sessionId: id,
      });
    }
    for (const file of changedFiles(events, stored, sha256)) files.set(file.path, file);
  }
  const waitingFor = waitingOf(state, budget.stop, logs, subSessions);
  const summary = {
    type: 'summary' as const,
    sessionId,
    workspace: state.workspace,
    status: state.status,
    failureReason: state.failure && { ...state.failure },
    waitingFor,
    checks: [...checks.values()],
    filesChanged: [...files.values()].sort((a, b) => (a.path < b.path ? -1 : 1)),
    tokens,
    cost,
    subSessions,
    lastSequence: state.lastSequence,
  };
  return {
    ...summary,
    exitCode: exitCodeOf(summary.status, summary.failureReason?.category ?? null),
    next: nextCommands(
      sessionId,
      summary.status,
      waitingFor,
      summary.filesChanged.length > 0,
      turn,
      turns.length > 1,
    ),
    ...(turn === undefined ? {} : { turn }),
    ...(turns.length < 2
      ? {}
      : {
          turns: turns.map((each) => {
            const scoped = turnLogs(sessionId, sessionLogs, each.turn);
            let spent = { input: 0, output: 0 };
            let cost: number | null = null;
            let changed = 0;
            for (const events of scoped.values()) {
              const spend = sessionSpend(events);
              spent = {
                input: spent.input + spend.tokens.input,
                output: spent.output + spend.tokens.output,
              };
              if (spend.costUsd !== null) cost = (cost ?? 0) + spend.costUsd;
              changed += changedFiles(events, stored, sha256).length;
            }
            return {
              turn: each.turn,
              text: each.text,
              requestedBy: each.requestedBy,
              workflowId: each.workflowId,
              outcome: each.outcome,
              message: each.message,
              reply: each.reply,
              fromSequence: each.fromSequence,
              toSequence: each.toSequence,
              workspaceChanged: each.workspaceChanged,
              filesChanged: changed,
              tokens: spent,
              cost,
            };
          }),
        }),
  };
}

/**
 * The logs of one turn: the session's events of the turn (with its configuration and start),
 * and the sub-sessions its stages started in it. A turn the session does not have reads as empty.
 */
function turnLogs(
  sessionId: string,
  logs: ReadonlyMap<string, readonly CorrexEvent[]>,
  turn: number,
): Map<string, readonly CorrexEvent[]> {
  const root = eventsOfTurn(logs.get(sessionId) ?? [], turn) ?? [];
  const scoped = new Map<string, readonly CorrexEvent[]>([[sessionId, root]]);
  const visit = (events: readonly CorrexEvent[]) => {
    for (const event of events)
      if (event.payload.type === 'subagent_started') {
        const child = logs.get(event.payload.childSessionId);
        if (child === undefined || scoped.has(event.payload.childSessionId)) continue;
        scoped.set(event.payload.childSessionId, child);
        visit(child);
      }
  };
  visit(root);
  return scoped;
}

/** The exit code of a run that left its session so (the table in docs/headless.md). */
export function exitCodeOf(status: SessionStatus, failure: FailureCategory | null): number {
  switch (status) {
    case 'completed':
      return EXIT_CODES.ok;
    case 'failed':
      // A provider that can never serve the stage is a setup problem.
      return failure === 'configuration' ? EXIT_CODES.usage : EXIT_CODES.failed;
    case 'cancelled':
      return EXIT_CODES.cancelled;
    default:
      return EXIT_CODES.waitingForPerson;
  }
}

function waitingOf(
  state: ReturnType<typeof sessionProjection.initial>,
  stop: { readonly budget: BudgetKind; readonly limit: number } | null,
  logs: ReadonlyMap<string, readonly CorrexEvent[]>,
  subSessions: readonly string[],
): WaitingFor | null {
  if (state.status === 'completed' || state.status === 'failed' || state.status === 'cancelled')
    return null;
  if (state.pendingApprovals.length > 0)
    return { kind: 'approval', sessionId: state.sessionId ?? '', calls: state.pendingApprovals };
  for (const id of subSessions) {
    let child = sessionProjection.initial();
    for (const event of logs.get(id) ?? []) child = sessionProjection.evolve(child, event);
    if (child.pendingApprovals.length > 0 && child.status !== 'cancelled')
      return { kind: 'approval', sessionId: id, calls: child.pendingApprovals };
  }
  if (stop !== null) return { kind: 'budget', budget: stop.budget, limit: stop.limit };
  return { kind: 'resume' };
}

const BUDGET_FLAG: Readonly<Record<BudgetKind, string>> = {
  tokens: '--max-tokens N',
  cost: '--max-cost USD',
  duration: '--max-duration 1h',
};

function nextCommands(
  id: string,
  status: SessionStatus,
  waitingFor: WaitingFor | null,
  changed: boolean,
  turn: number | undefined,
  hasTurns: boolean,
): string[] {
  const next: string[] = [];
  if (waitingFor?.kind === 'approval') {
    const call = waitingFor.calls[0]!.callId;
    next.push(
      `correx approve ${waitingFor.sessionId} ${call}`,
      `correx deny ${waitingFor.sessionId} ${call} --reason ...`,
    );
  }
  if (waitingFor?.kind === 'budget')
    next.push(`correx resume ${id} ${BUDGET_FLAG[waitingFor.budget]}`);
  else if (waitingFor !== null) next.push(`correx resume ${id}`);
  next.push(`correx show ${id}`);
  const scope = turn === undefined ? '' : ` --turn ${turn}`;
  if (changed) next.push(`correx diff ${id}${scope}`, `correx undo ${id}${scope}`);
  if (status === 'completed' || status === 'failed') next.push(`correx replay ${id} --verify`);
  if (hasTurns && waitingFor === null) next.push(`correx continue ${id} "…"`);
  return next;
}

/**
 * The net change of each file a session's log recorded: its state before the first change
 * against its state after the last one, with a line count from the bytes kept (the pre-image
 * store) or, failing that, the contents the log itself holds (writes, whole reads), each
 * checked against the recorded hash. A file put back as it was is not listed.
 */
function changedFiles(
  events: readonly CorrexEvent[],
  stored: StoredText,
  sha256: (text: string) => string,
): ChangedFile[] {
  const spans = new Map<
    string,
    { before: string | null; first: number; after: string | null; last: number }
  >();
  for (const change of recordedChanges(events))
    for (const file of change.files) {
      const span = spans.get(file.path);
      if (span === undefined)
        spans.set(file.path, {
          before: file.before,
          first: change.sequence,
          after: file.after,
          last: change.sequence,
        });
      else spans.set(file.path, { ...span, after: file.after, last: change.sequence });
    }
  const text = (hash: string | null, path: string, before: number): string | null => {
    if (hash === null) return '';
    const kept = stored(hash);
    if (kept !== null) return kept;
    const logged = recordedFileContent(events, path, before);
    return logged !== undefined && sha256(logged) === hash ? logged : null;
  };
  const files: ChangedFile[] = [];
  for (const [path, span] of spans) {
    if (span.before === span.after) continue;
    const change = span.before === null ? 'created' : span.after === null ? 'deleted' : 'modified';
    const before = text(span.before, path, span.first);
    const after = text(span.after, path, span.last + 1);
    const hunks = before === null || after === null ? null : unifiedDiff(before, after);
    files.push({
      path,
      change,
      added: hunks === null ? null : hunks.filter((line) => line.startsWith('+')).length,
      removed: hunks === null ? null : hunks.filter((line) => line.startsWith('-')).length,
    });
  }
  return files;
}

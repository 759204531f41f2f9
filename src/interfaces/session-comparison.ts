import { relative } from 'node:path';
import type { CorrexEvent } from '../core/event-catalog.js';
import { recordedChanges } from '../core/kernel/index.js';
import { recordedFileContent } from './recorded-file-content.js';
import {
  configurationDifferences,
  firstDifference,
  type FirstDifference,
} from './first-difference.js';
import { unifiedDiff } from './unified-diff.js';
import { runSummary, type ChangedFile, type StoredText } from './cli/run-summary.js';

/** One session's side of a comparison. */
export type ComparedSide = {
  readonly sessionId: string;
  readonly task: string | null;
  /** The model profiles its stages asked (`profile (model)`), in first-use order. */
  readonly models: readonly string[];
  readonly status: string;
  readonly failure: string | null;
  readonly checks: readonly { readonly name: string; readonly passed: boolean }[];
  /** Paths relative to the session's workspace. */
  readonly filesChanged: readonly ChangedFile[];
  readonly tokens: { readonly input: number; readonly output: number };
  readonly cost: number | null;
  readonly approvalsAsked: number;
  readonly policyBlocks: number;
  readonly events: number;
  /** From its first recorded timestamp to its last, in milliseconds. */
  readonly durationMs: number;
};

/** One file either session changed, and how its final contents compare. */
export type FileComparison = {
  readonly path: string;
  readonly a: ChangedFile['change'] | 'unchanged';
  readonly b: ChangedFile['change'] | 'unchanged';
  /** Whether both sessions left the same bytes (by hash). */
  readonly same: boolean;
  /** Unified diff from a's final content to b's; null when either side's bytes are unknown. */
  readonly diff: readonly string[] | null;
};

export type SessionComparison = {
  readonly a: ComparedSide;
  readonly b: ComparedSide;
  readonly configurationDiffers: readonly string[];
  readonly firstDifference: FirstDifference | null;
  readonly files: readonly FileComparison[];
};

type Logs = ReadonlyMap<string, readonly CorrexEvent[]>;

/** Compares two recorded sessions (each with its sub-sessions' logs) from the logs alone. */
export function compareSessions(
  a: { readonly sessionId: string; readonly logs: Logs },
  b: { readonly sessionId: string; readonly logs: Logs },
  stored: StoredText,
  sha256: (text: string) => string,
): SessionComparison {
  const rootA = a.logs.get(a.sessionId) ?? [];
  const rootB = b.logs.get(b.sessionId) ?? [];
  return {
    a: side(a.sessionId, a.logs, stored, sha256),
    b: side(b.sessionId, b.logs, stored, sha256),
    configurationDiffers: configurationDifferences(rootA, rootB),
    firstDifference: firstDifference(rootA, rootB),
    files: compareFiles(a, b, stored, sha256),
  };
}

function side(
  sessionId: string,
  logs: Logs,
  stored: StoredText,
  sha256: (text: string) => string,
): ComparedSide {
  const summary = runSummary(sessionId, logs, stored, sha256);
  const root = logs.get(sessionId) ?? [];
  const all = [...logs.values()].flat();
  const models: string[] = [];
  let task: string | null = null;
  for (const event of root) {
    const payload = event.payload;
    if (payload.type === 'session_created') task = payload.task;
  }
  for (const event of all) {
    const payload = event.payload;
    if (payload.type !== 'inference_requested') continue;
    const name = `${payload.profileId} (${payload.model})`;
    if (!models.includes(name)) models.push(name);
  }
  const first = root[0]?.timestamp;
  const last = root.at(-1)?.timestamp;
  return {
    sessionId,
    task,
    models,
    status: summary.status,
    failure:
      summary.failureReason === null
        ? null
        : `${summary.failureReason.category}: ${summary.failureReason.message}`,
    checks: summary.checks.map((check) => ({ name: check.name, passed: check.passed })),
    filesChanged: summary.filesChanged.map((file) => ({
      ...file,
      path: summary.workspace === null ? file.path : relative(summary.workspace, file.path),
    })),
    tokens: summary.tokens,
    cost: summary.cost,
    approvalsAsked: all.filter((event) => event.payload.type === 'approval_requested').length,
    policyBlocks: all.filter(
      (event) => event.payload.type === 'tool_call_assessed' && event.payload.verdict === 'BLOCK',
    ).length,
    events: root.length,
    durationMs:
      first === undefined || last === undefined ? 0 : Date.parse(last) - Date.parse(first),
  };
}

type FinalState = {
  change: ChangedFile['change'];
  before: string | null;
  after: string | null;
  text: string | null;
  base: string | null;
};

/** Each file's first and last recorded state in one session, keyed by workspace-relative path. */
function finalStates(
  sessionId: string,
  logs: Logs,
  stored: StoredText,
  sha256: (text: string) => string,
): Map<string, FinalState> {
  const states = new Map<string, FinalState>();
  for (const events of logs.values()) {
    const workspace = workspaceOf(logs.get(sessionId) ?? events);
    const text = (hash: string | null, path: string, before: number): string | null => {
      if (hash === null) return '';
      const kept = stored(hash);
      if (kept !== null) return kept;
      const logged = recordedFileContent(events, path, before);
      return logged !== undefined && sha256(logged) === hash ? logged : null;
    };
    for (const change of recordedChanges(events))
      for (const file of change.files) {
        const path = workspace === null ? file.path : relative(workspace, file.path);
        const earlier = states.get(path);
        const before = earlier === undefined ? file.before : earlier.before;
        states.set(path, {
          change:
            file.access === 'delete' || file.after === null
              ? 'deleted'
              : before === null
                ? 'created'
                : 'modified',
          before,
          after: file.after,
          text: text(file.after, file.path, change.sequence + 1),
          base:
            earlier === undefined ? text(file.before, file.path, change.sequence) : earlier.base,
        });
      }
  }
  return states;
}

function workspaceOf(events: readonly CorrexEvent[]): string | null {
  for (const event of events)
    if (event.payload.type === 'session_created') return event.payload.workspace;
  return null;
}

function compareFiles(
  a: { readonly sessionId: string; readonly logs: Logs },
  b: { readonly sessionId: string; readonly logs: Logs },
  stored: StoredText,
  sha256: (text: string) => string,
): FileComparison[] {
  const left = finalStates(a.sessionId, a.logs, stored, sha256);
  const right = finalStates(b.sessionId, b.logs, stored, sha256);
  const paths = [...new Set([...left.keys(), ...right.keys()])].sort();
  return paths.map((path) => {
    const x = left.get(path);
    const y = right.get(path);
    // A side that never touched the file left it as the other found it.
    const hashA = x === undefined ? y!.before : x.after;
    const hashB = y === undefined ? x!.before : y.after;
    const textA = x === undefined ? y!.base : x.text;
    const textB = y === undefined ? x!.base : y.text;
    const same = hashA === hashB;
    return {
      path,
      a: x === undefined || x.before === x.after ? 'unchanged' : x.change,
      b: y === undefined || y.before === y.after ? 'unchanged' : y.change,
      same,
      diff: same ? [] : textA === null || textB === null ? null : unifiedDiff(textA, textB),
    };
  });
}

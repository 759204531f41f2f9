import type { ArtifactBody } from './artifact-item.js';
import type { DiffLine } from './line-diff.js';

export type Finding = {
  readonly ruleId: string;
  readonly severity: string;
  readonly code: string;
  readonly message: string;
  readonly tier: string;
};

export type AssessedTarget = {
  readonly param: string;
  readonly raw: string;
  readonly resolved: string;
  readonly realPath: string | null;
  readonly write: boolean;
};

/** A proposed change to one file, as far as the log shows it. */
export type FileChange = {
  readonly path: string;
  readonly tool: string;
  readonly callId: string;
  readonly sequence: number;
  /** False when the earlier content is not in the log (the diff shows the new text only). */
  readonly beforeKnown: boolean;
  readonly lines: readonly DiffLine[];
};

export type ApprovalState = {
  state: 'pending' | 'granted' | 'denied' | 'bypassed';
  tier: string;
  reason: string;
  by?: string;
  decisionReason?: string;
  sequence: number;
};

/** One tool call, from proposal to receipt: the events about it folded into one entry. */
export type ToolCallItem = {
  readonly kind: 'tool_call';
  readonly sequence: number;
  readonly timestamp: string;
  readonly callId: string;
  readonly tool: string;
  readonly stageId: string | null;
  argsRaw: string;
  assessment?: {
    verdict: string;
    tier: string;
    risk: string;
    findings: Finding[];
    targets: AssessedTarget[];
  };
  approval?: ApprovalState;
  rejection?: { reason: string; message: string };
  receipt?: {
    outcome: string;
    exitCode: number | null;
    error: string | null;
    durationMs: number;
    output: string;
    truncated: boolean;
  };
  change?: FileChange;
};

type Base = { readonly sequence: number; readonly timestamp: string };

export type TimelineItem =
  | ToolCallItem
  | (Base & { readonly kind: 'steering'; readonly content: string; readonly stageId?: string })
  | (Base & {
      readonly kind: 'validation';
      readonly phase: string;
      readonly validator: string;
      readonly message: string;
    })
  | (Base & {
      readonly kind: 'transition';
      readonly from: string;
      readonly to?: string;
      readonly end?: string;
      readonly condition: string;
      readonly traversal: number;
      readonly rework: boolean;
    })
  | (Base & {
      readonly kind: 'inference';
      /** The model call's request id: what `GET /api/sessions/:id/context/:call` names. */
      readonly requestId: string;
      readonly model: string;
      readonly inputTokens: number;
      readonly outputTokens: number;
      readonly latencyMs: number;
      readonly text: string;
      readonly failure?: string;
      /** The kind of the artifact this answer became (shown as that artifact, not as text). */
      artifactKind?: string;
    })
  | (Base & {
      readonly kind: 'lifecycle';
      readonly type: string;
      readonly label: string;
      readonly detail?: string;
      readonly tone: 'info' | 'good' | 'bad';
    })
  | (Base & {
      readonly kind: 'artifact';
      readonly artifactKind: string;
      readonly hash: string;
      readonly body: ArtifactBody;
      accepted: boolean;
    })
  | (Base & {
      readonly kind: 'check';
      readonly name: string;
      readonly command: string;
      readonly passed: boolean;
      readonly outcome: string;
      readonly exitCode: number | null;
      readonly output: string;
    })
  | (Base & { readonly kind: 'other'; readonly type: string });

export type StageSection = {
  /** Unique per visit: `plan#1`, `implement#2`... (the n-th section of the timeline). */
  readonly key: string;
  /** Null for what happens before the first stage starts. */
  readonly stageId: string | null;
  readonly attempt: number;
  readonly startedAt: string;
  endedAt?: string;
  outcome: 'running' | 'completed' | 'failed' | 'preamble';
  verdict?: string;
  failure?: string;
  /** Definition-of-done checks that failed in this visit (the stage header names them). */
  failedChecks: string[];
  inputTokens: number;
  outputTokens: number;
  readonly items: TimelineItem[];
  /** Bumped whenever the section or one of its items changes (views re-render on it). */
  revision: number;
};

export type WorkflowGraph = {
  readonly id: string;
  readonly initialStage: string;
  readonly stages: readonly {
    readonly id: string;
    readonly transitions: readonly { readonly when: string; readonly to: string }[];
  }[];
};

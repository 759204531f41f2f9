import { sha256Hex, type Sha256 } from '../base/sha256.js';
import { PinnedContextOverBudgetError } from '../context/build-context-pack.js';
import type { ContextEntryKind } from '../context/context-candidate.js';
import type { ContextEntry, ContextPack, TokenBudget } from '../context/context-pack.js';
import { resolveContextPackSettings } from '../context/context-pack-settings.js';
import type { Tokenizer } from '../context/tokenizer.js';
import type { ManifestExclusion } from '../inference/context-manifest.js';
import type { InferenceMessage } from '../inference/inference-request.js';
import type { RouterState, RouterTurn } from './router-state.js';

/** L0: who the router is. Non-authoritative: it talks, it never acts. */
export const ROUTER_SYSTEM_PROMPT = [
  'You are the correx router, a conversational assistant beside one correx session.',
  'You answer from the workflow status and the stage history given here. You run no tools, change no files and do not control the workflow: pausing, cancelling and approving are correx commands, not yours.',
  'When you mention a stage outcome, cite its event exactly as listed, as #<sequence>.',
  'If the status and history do not say something, say that you do not know; never guess.',
].join('\n');

/** Default number of conversation turns (single messages) the pack carries (spec: 6). */
export const DEFAULT_KEEP_LAST = 6;

/** The longest stretch of the task statement the status line quotes. */
const MAX_TASK_CHARACTERS = 600;

export type RouterContextInput = {
  readonly state: RouterState;
  /** The session's conversation, oldest first; the newest turn is normally the user's input. */
  readonly history: readonly RouterTurn[];
  /** How many of the newest turns go in (default 6). */
  readonly keepLast?: number;
  /** Steering mode: the newest user turn is a note for the agent. */
  readonly steering?: boolean;
};

export type RouterContextOptions = {
  /** Tokens charged per entry for framing, as in core context packs. Default 4. */
  readonly entryOverheadTokens?: number;
  readonly hash?: Sha256;
};

type Candidate = {
  readonly entry: Omit<ContextEntry, 'tokens' | 'originalTokens' | 'compression' | 'contentSha256'>;
  readonly tokens: number;
  readonly pinned: boolean;
  dropped: boolean;
};

/**
 * Builds the router's pack (spec 003, task 3). It holds only what the router may know: its
 * system prompt and the workflow status (L0, never dropped), the last `keepLast` conversation
 * turns (L1) and the stage summaries of its L2 memory, which go first under budget pressure,
 * oldest first. Never raw events, artifact content or tool output: nothing else is an input.
 * Older turns go only after every summary is gone; the newest user turn (the question) is
 * pinned. Throws `PinnedContextOverBudgetError` when the pinned entries alone do not fit.
 */
export function buildRouterContext(
  input: RouterContextInput,
  budget: TokenBudget,
  tokenizer: Tokenizer,
  options: RouterContextOptions = {},
): ContextPack {
  const settings = resolveContextPackSettings(budget, {
    ...(options.entryOverheadTokens === undefined
      ? {}
      : { entryOverheadTokens: options.entryOverheadTokens }),
  });
  const hash = options.hash ?? sha256Hex;
  const keepLast = input.keepLast ?? DEFAULT_KEEP_LAST;
  if (!Number.isInteger(keepLast) || keepLast < 1) {
    throw new RangeError(`keepLast must be a positive integer, got ${keepLast}`);
  }
  const candidate = (entry: Candidate['entry'], pinned: boolean): Candidate => ({
    entry,
    tokens: tokenizer.count(entry.content),
    pinned,
    dropped: false,
  });
  const l0 = (id: string, kind: ContextEntryKind, content: string) =>
    candidate(
      { id, layer: 'L0', kind, role: 'user', source: { kind: 'builtin', id }, content },
      true,
    );

  const system = [
    l0('router-system', 'system', ROUTER_SYSTEM_PROMPT),
    l0('router-status', 'system', statusText(input.state, input.steering === true)),
  ];
  const summaries = input.state.l2Memory.map((memory) =>
    candidate(
      {
        id: `stage-outcome:${memory.eventId}`,
        layer: 'L2',
        kind: 'summary',
        role: 'user',
        source: { kind: 'event', id: memory.eventId },
        content: `#${memory.sequence} [${memory.outcome}] ${memory.summary}`,
      },
      false,
    ),
  );
  const recent = input.history.slice(-keepLast);
  const firstIndex = input.history.length - recent.length;
  const turns = recent.map((turn, offset) =>
    candidate(
      {
        id: `turn:${firstIndex + offset}`,
        layer: 'L1',
        kind: 'turn',
        role: turn.role === 'user' ? 'user' : 'assistant',
        source: { kind: 'builtin', id: `router-turn-${firstIndex + offset}` },
        content: turn.content,
      },
      // The question being answered is never dropped.
      offset === recent.length - 1 && turn.role === 'user',
    ),
  );

  const all = [...system, ...summaries, ...turns];
  const cost = (c: Candidate) => c.tokens + settings.overhead;
  const pinnedTokens = all.filter((c) => c.pinned).reduce((sum, c) => sum + cost(c), 0);
  if (pinnedTokens > settings.available) {
    throw new PinnedContextOverBudgetError(pinnedTokens, settings.available);
  }
  let total = all.reduce((sum, c) => sum + cost(c), 0);
  // Lowest layer first, oldest first within it: the eviction order of core context packs.
  for (const c of [...summaries, ...turns]) {
    if (total <= settings.available) break;
    if (c.pinned) continue;
    c.dropped = true;
    total -= cost(c);
  }

  const entries: ContextEntry[] = all
    .filter((c) => !c.dropped)
    .map((c) => ({
      ...c.entry,
      tokens: c.tokens,
      originalTokens: c.tokens,
      compression: 'none',
      contentSha256: hash(c.entry.content),
    }));
  const excluded: ManifestExclusion[] = all
    .filter((c) => c.dropped)
    .map((c) => ({
      id: c.entry.id,
      layer: c.entry.layer,
      kind: c.entry.kind,
      source: c.entry.source,
      tokens: c.tokens,
      reason: 'over_budget',
    }));
  return {
    stageId: 'router',
    entries,
    totalTokens: total,
    manifest: {
      budgetTokens: settings.available,
      totalTokens: total,
      tokenizer: tokenizer.name,
      included: entries.map(
        ({ id, layer, kind, source, tokens, originalTokens, compression, contentSha256 }) => ({
          id,
          layer,
          kind,
          source,
          tokens,
          originalTokens,
          compression,
          contentSha256,
        }),
      ),
      excluded,
    },
  };
}

/**
 * The router's messages: one system message holding L0 and the stage history (so chat models
 * see strictly alternating turns after it), then the conversation turns.
 */
export function renderRouterContext(pack: ContextPack): InferenceMessage[] {
  const system = pack.entries.filter((e) => e.layer === 'L0').map((e) => e.content);
  const history = pack.entries.filter((e) => e.layer === 'L2').map((e) => e.content);
  if (history.length > 0) system.push(['Stage history (oldest first):', ...history].join('\n'));
  return [
    { role: 'system', content: system.join('\n\n') },
    ...pack.entries
      .filter((e) => e.layer === 'L1')
      .map((e): InferenceMessage => ({ role: e.role, content: e.content })),
  ];
}

function statusText(state: RouterState, steering: boolean): string {
  const lines = [
    `Session ${state.sessionId ?? '(no events yet)'}, as of event #${state.lastSequence}.`,
    `Workflow status: ${state.workflowStatus}.`,
    `Current stage: ${state.currentStageId ?? 'none'}.`,
  ];
  if (state.task !== null) {
    const task =
      state.task.length <= MAX_TASK_CHARACTERS
        ? state.task
        : `${state.task.slice(0, MAX_TASK_CHARACTERS - 1)}…`;
    lines.push(`Task: ${task}`);
  }
  // What the session waits for: the answer to "what is it waiting for?".
  if (state.pendingApprovals.length === 0) {
    if (state.workflowStatus === 'running') lines.push('Waiting for approval: nothing.');
  } else {
    lines.push(
      'Waiting for approval (a person answers with correx approve/deny <session> <call>):',
      ...state.pendingApprovals.map(
        (pending) =>
          `- call ${pending.callId} (${pending.tool}, tier ${pending.tier}), requested at #${pending.sequence}: ${pending.reason}`,
      ),
    );
  }
  if (steering) {
    lines.push(
      "The user's latest message is a steering note: correx records it for the agent, which sees it in its next context pack. Acknowledge it briefly.",
    );
  }
  return lines.join('\n');
}

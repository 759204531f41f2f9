import type { ContextCandidate } from '../../../context/context-candidate.js';
import type { CorrexEvent } from '../../../event-catalog.js';
import type { TurnWorkspaceChange } from '../../../sessions/turn-events.js';
import { safeParseWorkflow } from '../../../transitions/workflow.js';
import type { Workflow, WorkflowStage } from '../../../transitions/workflow.js';
import type { KernelConfig } from '../../config/kernel-config.js';
import type { AcceptedArtifactFacts } from '../../decider/kernel-feature.js';
import { awaitEffect, emit, type Step } from '../../decider/step.js';
import { currentTurn, turnProbeId, type TurnsState } from './turns-state.js';

type Payload = CorrexEvent['payload'];

/** The role of a stage that converses with the person and ends its turn with a reply. */
export const CONVERSATIONAL_ROLE = 'conversational';

/**
 * What starts a follow-up turn, one step at a time: every file the session's recorded changes
 * touched is observed again (`probe`, call id `turn-<n>`), the observations are compared with
 * what the log left (`turn_workspace_checked`), then the turn's workflow starts again. Null when
 * no turn waits to start.
 */
export function turnStartStep(config: KernelConfig, slice: TurnsState): Step | null {
  const pending = slice.pending;
  if (pending === null) return null;
  if (!pending.checked) {
    const paths = Object.keys(slice.left).sort();
    const unobserved = paths.filter((path) => pending.observed[path] === undefined);
    if (unobserved.length > 0)
      return awaitEffect({ type: 'probe', callId: turnProbeId(pending.turn), paths: unobserved });
    const changed: TurnWorkspaceChange[] = [];
    for (const path of paths) {
      const change = compare(path, slice.left[path] ?? null, pending.observed[path]!);
      if (change !== null) changed.push(change);
    }
    return emit({
      type: 'turn_workspace_checked',
      turn: pending.turn,
      compared: paths.length,
      changed,
    });
  }
  return emit({
    type: 'workflow_started',
    workflowId: config.workflow.id,
    firstStageId: config.workflow.initialStage,
  });
}

function compare(
  path: string,
  expected: string | null,
  found: TurnsState['pending'] extends infer P
    ? P extends { observed: { readonly [path: string]: infer O } }
      ? O
      : never
    : never,
): TurnWorkspaceChange | null {
  const at = { path, expected, observedSequence: found.sequence };
  if (found.kind === 'missing')
    return expected === null ? null : { ...at, found: null, kind: 'deleted' };
  if (found.kind !== 'file') return { ...at, found: null, kind: 'replaced' };
  if (expected === null) return { ...at, found: found.sha256, kind: 'created' };
  // A file too large to hash cannot be compared: it is not reported as changed.
  if (found.sha256 === null || found.sha256 === expected) return null;
  return { ...at, found: found.sha256, kind: 'modified' };
}

const parsed = new WeakMap<object, Workflow | null>();

/**
 * The configuration the current turn runs with: the configured one, or the workflow the turn's
 * request recorded (`turn_requested.workflow`) in its place. A recorded definition that does
 * not parse leaves the configured workflow (the request was checked when it was recorded).
 */
export function turnConfig(config: KernelConfig, slice: TurnsState): KernelConfig {
  const definition = slice.definition;
  if (definition === null) return config;
  let workflow = parsed.get(definition);
  if (workflow === undefined) {
    const result = safeParseWorkflow(definition, { source: 'turn_requested' });
    workflow = result.success ? result.workflow : null;
    parsed.set(definition, workflow);
  }
  return workflow === null || workflow === config.workflow ? config : { ...config, workflow };
}

/** A conversational stage's reply, once per accepted artifact (with the turn's checks). */
export function replyStep(slice: TurnsState, accepted: AcceptedArtifactFacts): Step | null {
  if (accepted.stage.role !== CONVERSATIONAL_ROLE) return null;
  const key = `${accepted.run.stageId}.${accepted.run.attempt}.${accepted.artifactHash}`;
  if (slice.lastReply === key) return null;
  const turn = slice.turns.at(-1);
  const content = accepted.content;
  const text =
    content !== null && typeof content === 'object' && !Array.isArray(content)
      ? (content as { readonly [key: string]: unknown }).message
      : undefined;
  const message = typeof text === 'string' ? text : '';
  const event: Payload = {
    type: 'turn_reply_recorded',
    turn: currentTurn(slice),
    stageId: accepted.run.stageId,
    attempt: accepted.run.attempt,
    artifactHash: accepted.artifactHash,
    message,
    filesChanged: [...(turn?.filesChanged ?? [])],
    checks: [...(turn?.checks ?? [])],
  };
  return emit(event);
}

/**
 * Whether a conversational stage runs the project's checks: only in a session with follow-up
 * turns, once the turn changed files (the checks are then reported with the reply).
 */
export function conversationalRunsChecks(slice: TurnsState, stage: WorkflowStage): boolean {
  if (!slice.on || stage.role !== CONVERSATIONAL_ROLE) return false;
  return (slice.turns.at(-1)?.filesChanged.length ?? 0) > 0;
}

/** The task of the current follow-up turn, or null in the session's first turn. */
export function turnTask(
  slice: TurnsState,
): { turn: number; text: string; eventSequence: number } | null {
  const turn = slice.turns.at(-1);
  if (turn === undefined || turn.turn < 2) return null;
  return { turn: turn.turn, text: turn.text, eventSequence: turn.sequence };
}

const SUMMARY_CHARS = 1_500;
const REPLY_CHARS = 2_000;

/**
 * What a follow-up turn's model is told of the turns before it (one candidate each, so the
 * budget drops the oldest first) and of a workspace edited by hand since the last one.
 */
export function turnCandidates(
  slice: TurnsState,
  workspace: string,
  beforeSequence: number,
): ContextCandidate[] {
  if (slice.turns.length < 2) return [];
  const relative = (path: string) =>
    path.startsWith(`${workspace}/`) ? path.slice(workspace.length + 1) : path;
  const candidates: ContextCandidate[] = [];
  for (const turn of slice.turns.slice(0, -1)) {
    const lines = [
      `Turn ${turn.turn} of this session (event #${turn.sequence}, asked by ${turn.requestedBy}, workflow ${turn.workflowId}): ${turn.text}`,
      `- outcome: ${turn.outcome ?? 'did not end'}${turn.message === null ? '' : `: ${turn.message}`}`,
      `- files changed: ${turn.filesChanged.length === 0 ? 'none' : turn.filesChanged.map(relative).join(', ')}`,
    ];
    if (turn.checks.length > 0)
      lines.push(
        `- checks: ${turn.checks.map((check) => `${check.name} ${check.passed ? 'passed' : 'failed'} (#${check.sequence})`).join(', ')}`,
      );
    if (turn.journalSummary !== null)
      lines.push(`- journal summary:\n${clip(turn.journalSummary, SUMMARY_CHARS)}`);
    if (turn.reply !== null) lines.push(`- reply to the person:\n${clip(turn.reply, REPLY_CHARS)}`);
    candidates.push({
      id: `turn:${turn.turn}`,
      layer: 'L2',
      kind: 'brief',
      source: { kind: 'event', id: `turn-${turn.turn}` },
      content: lines.join('\n'),
      order: turn.sequence,
    });
  }
  const drift = slice.drift;
  if (
    drift !== null &&
    drift.turn === currentTurn(slice) &&
    drift.sequence < beforeSequence &&
    drift.changed.length > 0
  )
    candidates.push({
      id: `turn:${drift.turn}:workspace`,
      layer: 'L1',
      kind: 'validation_feedback',
      source: { kind: 'event', id: `turn-${drift.turn}-workspace` },
      content: [
        `Since the last turn, files were changed outside correx (event #${drift.sequence}); they are kept as they are now, not restored:`,
        ...drift.changed.map((change) => `- ${relative(change.path)}: ${change.kind}`),
        'Read a file again before you change it, and do not undo these edits unless the person asks.',
      ].join('\n'),
      order: drift.sequence,
      pinned: true,
    });
  return candidates;
}

function clip(text: string, chars: number): string {
  return text.length <= chars ? text : `${text.slice(0, chars)}…`;
}

import type { ContextLayer, SourceRef } from '../inference/context-manifest.js';

/** What an entry is; the builder pins some kinds and compresses others. */
export type ContextEntryKind =
  | 'guidance'
  | 'system'
  | 'task'
  | 'steering'
  | 'brief'
  | 'turn'
  | 'tool_result'
  | 'tool_args_hint'
  | 'validation_feedback'
  | 'summary'
  | 'knowledge'
  | 'instructions';

/**
 * Something that may go into a pack. Candidates come from recorded session state (events,
 * artifacts) and config; the builder decides which go in and in what form.
 */
export type ContextCandidate = {
  /** Unique within one build. */
  readonly id: string;
  readonly layer: ContextLayer;
  readonly kind: ContextEntryKind;
  readonly source: SourceRef;
  readonly content: string;
  /** Recency: higher is newer (an event sequence number works). */
  readonly order: number;
  /** 0..1; within a layer the least relevant go first under budget pressure. Default 0.5. */
  readonly relevance?: number;
  /** Only for this stage; absent means every stage. */
  readonly stageId?: string;
  /** Who speaks it when rendered outside L0; default `user`. */
  readonly role?: 'user' | 'assistant';
  /** Never dropped (L0, task, steering, guidance and tool-argument hints are pinned anyway). */
  readonly pinned?: boolean;
};

const PINNED_KINDS: ReadonlySet<ContextEntryKind> = new Set([
  'guidance',
  'task',
  'steering',
  'tool_args_hint',
]);

/** L0, the task statement, steering notes, guidance and tool-argument hints are never dropped. */
export function isPinned(candidate: ContextCandidate): boolean {
  return candidate.pinned === true || candidate.layer === 'L0' || PINNED_KINDS.has(candidate.kind);
}

const COMPRESSIBLE_KINDS: ReadonlySet<ContextEntryKind> = new Set([
  'tool_result',
  'knowledge',
  'validation_feedback',
]);

/** Large tool outputs and repository excerpts are cut head+tail before anything is dropped. */
export function isCompressible(candidate: ContextCandidate): boolean {
  return !isPinned(candidate) && COMPRESSIBLE_KINDS.has(candidate.kind);
}

import type { Artifact } from '../artifacts/artifact.js';
import type { WorkflowStage } from '../transitions/workflow.js';

/** A path the kernel observed in the workspace (from recorded `world_observed` events). */
export type WorkspaceObservation = { readonly path: string; readonly exists: boolean };

/** An accepted artifact of the session (from the artifact projection). */
export type AcceptedArtifactRef = {
  readonly hash: string;
  readonly kind: string;
  readonly stageId: string;
};

/** What the pipeline knows about the session; all of it recorded data, supplied by the kernel. */
export type ValidationContext = {
  readonly sessionId: string;
  /** The stage attempt that is running, or null when none is. */
  readonly activeStage: { readonly stageId: string; readonly attempt: number } | null;
  readonly acceptedArtifacts: readonly AcceptedArtifactRef[];
  /** Approval keys that were granted (see `artifactApprovalKey`). */
  readonly grantedApprovals: readonly string[];
  readonly observations: readonly WorkspaceObservation[];
};

/** What a semantic validator sees. Deeply frozen: a validator can read, never change. */
export type SemanticInput = {
  readonly artifact: Artifact;
  readonly stage: Omit<WorkflowStage, 'artifactSchema'>;
  readonly context: ValidationContext;
};

/**
 * A semantic check on artifacts of some kinds: the extension point of the validation pipeline.
 * It returns problems, each a message the producing model can act on; an empty list passes.
 * It can only add failures: acceptance is decided by the pipeline after every phase has run.
 */
export interface ArtifactValidator {
  /** Stable name, recorded in `validation_failed.validator`. */
  readonly name: string;
  /** Artifact kinds it applies to. */
  readonly kinds: readonly string[];
  validate(input: SemanticInput): readonly string[];
}

import type { ArtifactsState } from '../artifacts/artifact-projection.js';
import type { SessionState } from '../sessions/session-projection.js';
import type { ValidationContext, WorkspaceObservation } from './artifact-validator.js';

/**
 * Assembles the pipeline's context from the session and artifact projections and the workspace
 * observations recorded so far (the kernel reads those from `world_observed` events).
 */
export function validationContextOf(
  session: SessionState,
  artifacts: ArtifactsState,
  observations: readonly WorkspaceObservation[],
): ValidationContext {
  return {
    sessionId: session.sessionId ?? '',
    activeStage: session.activeStage
      ? { stageId: session.activeStage.stageId, attempt: session.activeStage.attempt }
      : null,
    acceptedArtifacts: artifacts.accepted,
    grantedApprovals: session.grantedApprovals,
    observations,
  };
}

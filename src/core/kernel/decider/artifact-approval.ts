import type { OperatorMode } from '../../approvals/approval-tier.js';
import type { CorrexEvent } from '../../event-catalog.js';
import type { WorkflowStage } from '../../transitions/workflow.js';
import { artifactApprovalKey } from '../../validation/validate-artifact.js';
import type { StageRunState } from './stage-run.js';
import { stageFailed } from './stage-failed.js';
import { ARTIFACT_APPROVAL_TOOL } from './artifact-approval-id.js';

type Payload = CorrexEvent['payload'];

/**
 * The gate of a stage with `requiresApproval`, once the rest of validation passed. It is an
 * explicit workflow gate, so it is asked at T3: `prompt` and `auto` ask a person (auto approves
 * only up to T2); `yolo` approves and records `approval_bypassed`; `deny` refuses and fails the
 * attempt (category `policy`: no retry can pass it). The approval is keyed by the artifact's
 * hash, so a person approves exactly the content they saw.
 */
export function decideArtifactApproval(
  mode: OperatorMode,
  stage: WorkflowStage,
  run: StageRunState,
  hash: string,
): Payload[] {
  const callId = artifactApprovalKey(hash);
  const reason = `stage ${stage.id} requires approval of its ${stage.artifact.kind} artifact ${hash}`;
  switch (mode) {
    case 'yolo':
      return [
        {
          type: 'approval_bypassed',
          callId,
          tool: ARTIFACT_APPROVAL_TOOL,
          tier: 'T3',
          mode,
          reason,
        },
        {
          type: 'approval_granted',
          callId,
          by: { kind: 'auto', id: mode },
          reason: `operator mode yolo bypasses the approval of stage ${stage.id}'s artifact`,
        },
      ];
    case 'deny':
      return [
        {
          type: 'approval_denied',
          callId,
          by: { kind: 'auto', id: mode },
          reason: `operator mode deny refuses the approval stage ${stage.id} requires`,
        },
        stageFailed(
          run,
          'policy',
          `stage ${stage.id} requires approval of its artifact and the operator mode is deny`,
        ),
      ];
    case 'prompt':
    case 'auto':
      return [
        { type: 'approval_requested', callId, tool: ARTIFACT_APPROVAL_TOOL, tier: 'T3', reason },
      ];
  }
}

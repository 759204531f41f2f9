import { artifactApprovalKey } from '../../validation/validate-artifact.js';

/** What an artifact approval is shown as: a gate a person passes, at the highest tier. */
export const ARTIFACT_APPROVAL_TOOL = 'artifact';

/** Whether an approval id names an artifact (`artifact:<hash>`) rather than a tool call. */
export function isArtifactApproval(callId: string): boolean {
  return callId.startsWith(artifactApprovalKey(''));
}

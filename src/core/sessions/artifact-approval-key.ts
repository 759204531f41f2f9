/**
 * The approval key an artifact of a stage with `requiresApproval` needs granted: its approval
 * is recorded under this call id. Defined with the session state, which keeps these grants.
 */
export function artifactApprovalKey(hash: string): string {
  return `${ARTIFACT_APPROVAL_PREFIX}${hash}`;
}

export const ARTIFACT_APPROVAL_PREFIX = 'artifact:';

/**
 * Readable names for the events the timeline shows by name only (those it has no richer entry
 * for). An event type not listed here (a newer server's) reads as its words: `brief_checked` →
 * "brief checked".
 */
const LABELS: Readonly<Record<string, string>> = {
  approval_grant_added: 'standing approval added',
  approval_grant_revoked: 'standing approval revoked',
  approval_timed_out: 'approval timed out',
  budget_exhausted: 'budget used up',
  egress_allowlist_changed: 'network allowlist changed',
  language_diagnostics_recorded: 'language-server diagnostics recorded',
  pre_tool_use_hooks_ran: 'pre-tool-use hooks ran',
  redirect_rejected: 'redirect refused',
  retry_delay_elapsed: 'retry wait over',
  retry_delay_started: 'waiting before a retry',
  stage_start_reconciled: 'stage start reconciled with the workspace',
  subagent_started: 'sub-agent started',
  subagent_finished: 'sub-agent finished',
  workspace_restored: 'workspace restored (undo)',
};

export function eventLabel(type: string): string {
  return LABELS[type] ?? type.replace(/_+/g, ' ').trim();
}

import type { PayloadShape } from '../events/event-envelope.js';

/**
 * Event types that enter a session from outside `decide`: commands (people, the CLI, another
 * process) and the recorded results of effects. Everything else in a kernel-run session is
 * derived by `decide` from these, which is what replay re-derives and compares.
 */
const INPUT_TYPES: ReadonlySet<string> = new Set([
  'session_configured',
  'session_created',
  'orchestration_paused',
  'orchestration_resumed',
  'workflow_cancelled',
  'lifecycle_rejected',
  'steering_note_added',
  'approval_grant_added',
  'approval_grant_revoked',
  'egress_allowlist_changed',
  'inference_completed',
  'inference_failed',
  'world_observed',
  'tool_receipt',
  'tool_call_interrupted',
  'dod_check_ran',
  'retry_delay_elapsed',
  'redirect_requested',
  'subagent_finished',
]);

/** Whether a payload is an input (a command or an effect result) rather than a decision. */
export function isInputEvent(payload: PayloadShape): boolean {
  if (INPUT_TYPES.has(payload.type)) return true;
  if (payload.type === 'approval_granted' || payload.type === 'approval_denied') {
    // A person's answer is an input; the engine's automatic answers are decisions.
    return (payload as { by?: { kind?: string } }).by?.kind === 'human';
  }
  return false;
}

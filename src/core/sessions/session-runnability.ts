/**
 * Whether a session needs a driver after an event, read from the event's type alone so that a
 * store can keep its table of runnable sessions in the append's own transaction:
 * - `runnable`: it goes on without a person (it was created, an approval or a resume was recorded,
 *   a redirect moved it to another stage, a failed one was retried);
 * - `idle`: it waits for a person (an approval request, a pause);
 * - `final`: it ended;
 * - `child`: a sub-session, driven by its parent's driver and never on its own.
 * Any other event leaves the session where it was.
 */
export type Runnability = 'runnable' | 'idle' | 'final' | 'child';

const BY_TYPE: Readonly<Record<string, Runnability>> = {
  workflow_started: 'runnable',
  orchestration_resumed: 'runnable',
  approval_granted: 'runnable',
  approval_denied: 'runnable',
  stage_redirected: 'runnable',
  session_retried: 'runnable',
  turn_requested: 'runnable',
  approval_requested: 'idle',
  orchestration_paused: 'idle',
  workflow_completed: 'final',
  workflow_failed: 'final',
  workflow_cancelled: 'final',
};

type TypedPayload = { readonly type: string; readonly parent?: unknown };

/** Where a batch of events appended together leaves its session (null: unchanged). */
export function runnabilityAfter(payloads: readonly TypedPayload[]): Runnability | null {
  let result: Runnability | null = null;
  for (const payload of payloads) {
    // A new session is runnable from its first event: its start may be recorded by a process
    // that drives nothing (`correx serve --no-drive`).
    if (payload.type === 'session_created') {
      if (payload.parent !== undefined) return 'child';
      result = 'runnable';
    } else result = BY_TYPE[payload.type] ?? result;
  }
  return result;
}

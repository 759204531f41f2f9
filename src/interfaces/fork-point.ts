import type { CorrexEvent } from '../core/event-catalog.js';
import { isInputEvent } from '../core/kernel/index.js';

/**
 * Where a session may be forked: right after an input (a command or an effect's result) that
 * no open effect surrounds. There the kernel waits for its next decision, exactly as a session
 * resumed after a crash does, so the fork answers its `session_forked` the way a resume answers
 * the last input. Inside an effect (a tool call started without its receipt, a model request
 * without its answer) or after a decision that awaits one, it may not.
 */
export function isForkPoint(events: readonly CorrexEvent[], sequence: number): boolean {
  return forkPoints(events).has(sequence);
}

/** Every sequence of `events` (one session, in order) that a fork may start at. */
export function forkPoints(events: readonly CorrexEvent[]): ReadonlySet<number> {
  const openCalls = new Set<string>();
  const openRequests = new Set<string>();
  const points = new Set<number>();
  for (const event of events) {
    const payload = event.payload;
    if (payload.type === 'tool_call_started') openCalls.add(payload.callId);
    else if (payload.type === 'tool_receipt' || payload.type === 'tool_call_interrupted')
      openCalls.delete(payload.callId);
    else if (payload.type === 'inference_requested') openRequests.add(payload.requestId);
    else if (payload.type === 'inference_completed' || payload.type === 'inference_failed')
      openRequests.delete(payload.requestId);
    if (
      isInputEvent(payload) &&
      payload.type !== 'session_configured' &&
      openCalls.size === 0 &&
      openRequests.size === 0
    )
      points.add(event.sequence);
  }
  return points;
}

/** The nearest fork points before and after `sequence` (null: none). */
export function nearestForkPoints(
  events: readonly CorrexEvent[],
  sequence: number,
): { readonly before: number | null; readonly after: number | null } {
  const points = [...forkPoints(events)].sort((a, b) => a - b);
  return {
    before: points.filter((point) => point < sequence).at(-1) ?? null,
    after: points.find((point) => point > sequence) ?? null,
  };
}

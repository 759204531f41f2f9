import { CorrexError } from '../core/base/correx-error.js';
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

/** The fork cannot start at the asked event. */
export class ForkPointError extends CorrexError {
  constructor(message: string) {
    super('fork_point_invalid', message);
  }
}

/** Where `--at` resolved to: the sequence, and what the person named, in words. */
export type ResolvedForkPoint = { readonly sequence: number; readonly named: string };

const STAGE_ID = /^[A-Za-z][A-Za-z0-9_-]*$/;

/**
 * Resolves `--at`: a sequence (`25`), a stage (`stage:implement`, `stage:implement#2` for its
 * second attempt, or a bare stage id), or a tool call (`call:<callId>`, or `call:<n>` for the
 * session's n-th proposed call when no call has that id). A stage resolves to the last fork
 * point before it started; a call to the last fork point before it was proposed (the kernel has
 * the model's answer and decides the call anew: assessment, approval, under the fork's policy).
 * An unknown stage or call is refused naming the ones the session has.
 */
export function resolveForkPoint(
  events: readonly CorrexEvent[],
  sessionId: string,
  at: string | number,
): ResolvedForkPoint {
  const text = String(at).trim();
  if (/^\d+$/.test(text)) return { sequence: Number(text), named: `#${text}` };
  if (text.startsWith('call:')) return callPoint(events, sessionId, text.slice('call:'.length));
  const stage = text.startsWith('stage:') ? text.slice('stage:'.length) : text;
  if (!text.startsWith('stage:') && !STAGE_ID.test(stage.replace(/#\d+$/, '')))
    throw new ForkPointError(
      `--at ${text}: not a sequence, a stage (stage:<id>[#attempt] or a stage id) or a call (call:<callId> or call:<n>)`,
    );
  return stagePoint(events, sessionId, stage);
}

function stagePoint(
  events: readonly CorrexEvent[],
  sessionId: string,
  spec: string,
): ResolvedForkPoint {
  const match = /^(.+?)(?:#(\d+))?$/.exec(spec);
  const stageId = match?.[1] ?? '';
  const attempt = match?.[2] === undefined ? 1 : Number(match[2]);
  const starts = events.flatMap((event) =>
    event.payload.type === 'stage_started'
      ? [
          {
            stageId: event.payload.stageId,
            attempt: event.payload.attempt,
            sequence: event.sequence,
          },
        ]
      : [],
  );
  const started = starts.find((start) => start.stageId === stageId && start.attempt === attempt);
  if (started === undefined) {
    const listed = starts.map((start) => `${start.stageId}#${start.attempt} (#${start.sequence})`);
    const ofStage = starts.filter((start) => start.stageId === stageId);
    throw new ForkPointError(
      ofStage.length > 0
        ? `session ${sessionId} started stage ${stageId} ${ofStage.length} time(s), not an attempt ${attempt}: ${ofStage.map((start) => `stage:${start.stageId}#${start.attempt} (#${start.sequence})`).join(', ')}`
        : `session ${sessionId} never started a stage "${stageId}"; the stages it started: ${listed.join(', ') || 'none'}`,
    );
  }
  const before = nearestForkPoints(events, started.sequence).before;
  if (before === null)
    throw new ForkPointError(
      `session ${sessionId} has no point to fork at before stage ${stageId} started (#${started.sequence})`,
    );
  return {
    sequence: before,
    named: `stage ${stageId}#${attempt} (started at #${started.sequence})`,
  };
}

function callPoint(
  events: readonly CorrexEvent[],
  sessionId: string,
  spec: string,
): ResolvedForkPoint {
  const calls = events.flatMap((event) =>
    event.payload.type === 'tool_call_proposed'
      ? [{ callId: event.payload.callId, tool: event.payload.tool, sequence: event.sequence }]
      : [],
  );
  let index = calls.findIndex((call) => call.callId === spec);
  if (index < 0 && /^\d+$/.test(spec)) {
    const n = Number(spec);
    if (n < 1 || n > calls.length)
      throw new ForkPointError(
        `session ${sessionId} proposed ${calls.length} tool call(s): call:${spec} is not one of call:1..call:${calls.length}`,
      );
    index = n - 1;
  }
  const call = calls[index];
  if (call === undefined) {
    const near = nearestNames(
      spec,
      calls.map((candidate) => candidate.callId),
    );
    const described = near.map((id) => {
      const found = calls.find((candidate) => candidate.callId === id)!;
      return `${id} (${found.tool}, #${found.sequence})`;
    });
    throw new ForkPointError(
      `session ${sessionId} proposed no tool call "${spec}"; ${calls.length === 0 ? 'it proposed none' : `the nearest: ${described.join(', ')}${calls.length > described.length ? ` (of ${calls.length}; call:1..call:${calls.length} by position)` : ''}`}`,
    );
  }
  const before = nearestForkPoints(events, call.sequence).before;
  if (before === null)
    throw new ForkPointError(
      `session ${sessionId} has no point to fork at before call ${call.callId} (#${call.sequence})`,
    );
  return {
    sequence: before,
    named: `call ${call.callId} (${call.tool}, proposed at #${call.sequence})`,
  };
}

/** Up to five of `names` closest to `wanted`: the longest common prefix, then edit distance. */
function nearestNames(wanted: string, names: readonly string[]): string[] {
  const prefix = (name: string) => {
    let length = 0;
    while (length < name.length && name[length] === wanted[length]) length++;
    return length;
  };
  return [...names]
    .map((name, order) => ({
      name,
      order,
      prefix: prefix(name),
      distance: editDistance(wanted, name),
    }))
    .sort((a, b) => b.prefix - a.prefix || a.distance - b.distance || a.order - b.order)
    .slice(0, 5)
    .map((entry) => entry.name);
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    previous = current;
  }
  return previous[b.length]!;
}

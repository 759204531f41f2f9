import { CorrexError } from '../../base/correx-error.js';
import type { Sha256 } from '../../base/sha256.js';
import { canonicallyEqual } from '../../events/canonical-equal.js';
import { canonicalJson } from '../../events/canonical-json.js';
import type { CorrexEvent, CorrexEventStore } from '../../event-catalog.js';
import { decide, pendingEffect, type DecidedEvent } from '../decider/decide.js';
import { answersEffect, effectResultTypes, type Effect } from '../decider/effect.js';
import type { KernelConfig } from '../config/kernel-config.js';
import { isInputEvent } from '../decider/input-events.js';
import type { BuiltRequests } from '../decider/step.js';
import { kernelProjection, type KernelState } from '../decider/kernel-state.js';
import { kernelConfigFromConfiguration } from '../config/session-configuration.js';

/** The first place where re-deciding a session does not give what its log holds. */
export type ReplayDivergence = {
  readonly sequence: number;
  readonly reason: string;
  /** Canonical JSON of what `decide` derives at this point (null: it derives nothing more). */
  readonly expected: string | null;
  /** Canonical JSON of the recorded event (null: the log ends here). */
  readonly actual: string | null;
};

export type ReplayReport =
  | {
      readonly ok: true;
      readonly events: number;
      readonly inputs: number;
      readonly decided: number;
      /** The log ends with an input not yet decided (resuming the session decides it). */
      readonly undecidedInput: boolean;
      readonly state: KernelState;
    }
  | { readonly ok: false; readonly divergence: ReplayDivergence; readonly state: KernelState };

/**
 * ReplayOrchestrator: re-runs `decide` over a session's recorded inputs and checks that it
 * derives exactly the recorded decisions (event id, causation, correlation and payload, compared
 * as canonical bytes), and that every recorded effect result answers the effect that was pending.
 * It takes no ports: no model, tool or probe can be called (hard invariants #8 and #9).
 */
export async function replaySession(
  store: CorrexEventStore,
  sessionId: string,
  config?: KernelConfig,
  options: SessionReplayOptions = {},
): Promise<ReplayReport> {
  const kernelConfig = config ?? (await recordedKernelConfig(store, sessionId, options.sha256));
  const from = options.fromSequence ?? 0;
  let state = kernelProjection.initial();
  let expected: readonly DecidedEvent[] = [];
  // The next of `expected` to match (an index: shifting an array is linear in its length).
  let nextExpected = 0;
  // The effect the session waited on when the last decision settled: what a result must answer.
  let pending: Effect | null = null;
  // The requests the last decision built: the pending effect reuses them instead of building the
  // stage request (context pack and all) a second time; `decide` already checked their digests.
  let built: BuiltRequests = new Map();
  let inputs = 0;
  let decided = 0;
  let events = 0;
  let batchMatched = 0;
  const fail = (divergence: ReplayDivergence): ReplayReport => ({ ok: false, divergence, state });
  const stream = store.stream(sessionId)[Symbol.asyncIterator]();
  let next = await stream.next();
  while (next.done !== true) {
    const event = next.value;
    next = await stream.next();
    events += 1;
    // Before the cursor the log is trusted; checking starts at the first input after it.
    if (event.sequence <= from || (inputs === 0 && from > 0 && !isInputEvent(event.payload))) {
      state = kernelProjection.evolve(state, event);
      continue;
    }
    const wanted = expected[nextExpected];
    if (wanted !== undefined) {
      nextExpected += 1;
      if (!sameIdentity(wanted, event))
        return fail({
          sequence: event.sequence,
          reason: 'the recorded event differs from the one decide derives',
          expected: identity(wanted),
          actual: identity(event),
        });
      state = kernelProjection.evolve(state, event);
      decided += 1;
      batchMatched += 1;
      continue;
    }
    if (!isInputEvent(event.payload)) {
      return fail({
        sequence: event.sequence,
        reason: `a ${event.payload.type} event that no input explains`,
        expected: null,
        actual: identity(event),
      });
    }
    // A result answers what the state before it waits on; past a command that still calls for
    // a decision (a redirect recorded while the effect ran), what the last decision awaited.
    let awaited: Effect | null = pending;
    if (effectResultTypes.has(event.payload.type)) {
      try {
        const now = pendingEffect(kernelConfig, state, built);
        if (now.settled) awaited = now.effect;
      } catch (error) {
        if (!CorrexError.isInstance(error)) throw error;
        return fail({
          sequence: event.sequence,
          reason: `the pending effect cannot be rebuilt: ${error.message}`,
          expected: null,
          actual: identity(event),
        });
      }
    }
    const unanswered = checkAnswersEffect(state, awaited, event);
    if (unanswered !== null)
      return fail({
        sequence: event.sequence,
        reason: unanswered,
        expected: null,
        actual: identity(event),
      });
    // The effect's later results answer it too, though the state may no longer wait on it
    // (a batched probe: the first call observed is ready to be assessed before the rest are).
    if (effectResultTypes.has(event.payload.type) && awaited !== null) pending = awaited;
    state = kernelProjection.evolve(state, event);
    inputs += 1;
    // The live runner answers the last of consecutive inputs (a command that arrived with an
    // effect's result, a note appended by another process): so does replay.
    if (next.done !== true && isInputEvent(next.value.payload)) continue;
    try {
      const decision = decide(kernelConfig, state, event);
      expected = decision.events;
      nextExpected = 0;
      pending = decision.effect;
      built = decision.built;
      batchMatched = 0;
    } catch (error) {
      if (!CorrexError.isInstance(error)) throw error;
      return fail({
        sequence: event.sequence,
        reason: `decide failed: ${error.message}`,
        expected: null,
        actual: identity(event),
      });
    }
  }
  const missing = expected[nextExpected];
  // A log may end right after an input (its process stopped before deciding: resuming decides
  // it), but never inside a decision, which is appended as one batch.
  if (missing !== undefined && batchMatched > 0) {
    return fail({
      sequence: state.session.lastSequence + 1,
      reason: 'the log ends inside a decided batch',
      expected: identity(missing),
      actual: null,
    });
  }
  return { ok: true, events, inputs, decided, undecidedInput: missing !== undefined, state };
}

export type SessionReplayOptions = {
  /**
   * Trust the log up to this sequence and re-decide only what follows (from the first input
   * after it): a quick check of a long session's recent part. Default 0: the whole log.
   */
  readonly fromSequence?: number;
  /** Used to rebuild a recorded configuration; infrastructure passes Node's native one. */
  readonly sha256?: Sha256;
};

/** The session recorded no configuration, so replay has nothing to rebuild the kernel from. */
export class ConfigurationNotRecordedError extends CorrexError {
  constructor(sessionId: string) {
    super(
      'configuration_not_recorded',
      `session ${sessionId} has no session_configured event; replay it with the configuration it ran under`,
    );
  }
}

/** The kernel config a session recorded in its first event. */
export async function recordedKernelConfig(
  store: CorrexEventStore,
  sessionId: string,
  sha256?: Sha256,
): Promise<KernelConfig> {
  const [first] = await store.read(sessionId, { limit: 1 });
  if (first?.payload.type !== 'session_configured')
    throw new ConfigurationNotRecordedError(sessionId);
  return kernelConfigFromConfiguration(
    first.payload.configuration,
    sha256 === undefined ? {} : { sha256 },
  );
}

/** Whether `identity` of both is the same text, without writing either (see canonicallyEqual). */
function sameIdentity(decided: DecidedEvent, recorded: CorrexEvent): boolean {
  return (
    decided.eventId === recorded.eventId &&
    (decided.causationId ?? null) === (recorded.causationId ?? null) &&
    (decided.correlationId ?? null) === (recorded.correlationId ?? null) &&
    canonicallyEqual(decided.payload, recorded.payload)
  );
}

function identity(event: DecidedEvent | CorrexEvent): string {
  return canonicalJson({
    eventId: event.eventId,
    causationId: event.causationId ?? null,
    correlationId: event.correlationId ?? null,
    payload: event.payload,
  });
}

/** An effect result must answer the effect that was pending when it was recorded. */
function checkAnswersEffect(
  state: KernelState,
  pending: Effect | null,
  event: CorrexEvent,
): string | null {
  const payload = event.payload;
  // After a cancel or pause the runner still records what the aborted effect did.
  if (!effectResultTypes.has(payload.type) || state.session.status !== 'running') return null;
  return answersEffect(pending ?? undefined, payload)
    ? null
    : `a recorded ${payload.type} answers no pending effect (pending: ${pending?.type ?? 'none'})`;
}

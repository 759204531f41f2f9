import type { Artifact } from '../../artifacts/artifact.js';
import { sha256Hex, type Sha256 } from '../../base/sha256.js';
import type { CorrexEvent } from '../../event-catalog.js';
import type { Effect } from './effect.js';
import type { KernelConfig } from '../config/kernel-config.js';
import { KernelInvariantError } from './kernel-errors.js';
import { kernelProjection, runOf, type KernelState } from './kernel-state.js';
import { nextStep } from './next-step.js';
import type { BuiltRequests, Step } from './step.js';

export type { Step };

type Payload = CorrexEvent['payload'];

/** An event `decide` derived: everything but the timestamp, which the runner stamps on append. */
export type DecidedEvent = {
  readonly eventId: string;
  readonly sessionId: string;
  readonly causationId: string;
  readonly correlationId: string | null;
  readonly payload: Payload;
};

export type Decision = {
  readonly events: readonly DecidedEvent[];
  /** What the session waits on once the events are applied (null: nothing, or a person). */
  readonly effect: Effect | null;
  /** The artifacts the events propose, whole: the runner stores them as they are. */
  readonly artifacts: readonly Artifact[];
  /** The state with the decided events folded in (provisional timestamps). */
  readonly state: KernelState;
  /** The model requests built while deciding, by request id (what their `infer` effects send). */
  readonly built: BuiltRequests;
};

// A decision is a handful of events; a loop this long is a kernel bug, not a long session.
const MAX_EVENTS_PER_DECISION = 10_000;

/**
 * The orchestrator's brain. `state` already holds `input` (a command's event or an effect's
 * result, as recorded); `decide` asks `next` what follows, folds each emitted event in, and
 * stops when `next` awaits an effect or has nothing to do. Pure: no clock (the last recorded
 * timestamp is the only time it reads), no fresh ids (each event id is derived from the
 * session, the input's id and the event's index), no I/O. Replay calls it with the recorded
 * inputs and must get the recorded events back, byte for byte.
 */
export function decide(config: KernelConfig, state: KernelState, input: CorrexEvent): Decision {
  const events: DecidedEvent[] = [];
  const artifacts: Artifact[] = [];
  // A request built while emitting `inference_requested` is the one its effect sends.
  const built: BuiltRequests = new Map();
  let current = state;
  for (;;) {
    const step = nextStep(config, current, built);
    if (step.kind !== 'emit')
      return {
        events,
        effect: step.kind === 'await' ? step.effect : null,
        artifacts,
        state: current,
        built,
      };
    artifacts.push(...(step.artifacts ?? []));
    for (const payload of step.events) {
      if (events.length >= MAX_EVENTS_PER_DECISION) {
        throw new KernelInvariantError(
          `decide did not settle after ${MAX_EVENTS_PER_DECISION} events for input ${input.eventId}`,
        );
      }
      const run = runOf(current);
      const decided: DecidedEvent = {
        eventId: derivedEventId(input.sessionId, input.eventId, events.length, config.sha256),
        sessionId: input.sessionId,
        causationId: input.eventId,
        correlationId: run === null ? null : `${run.stageId}.${run.attempt}`,
        payload,
      };
      events.push(decided);
      // Listed, not spread: V8 copies a spread with overrides on its slow path.
      current = kernelProjection.evolve(current, {
        eventId: decided.eventId,
        sessionId: decided.sessionId,
        causationId: decided.causationId,
        correlationId: decided.correlationId,
        payload,
        sequence: current.session.lastSequence + 1,
        timestamp: input.timestamp,
        version: 1,
        position: 0,
        hash: '',
      });
    }
  }
}

/** What a state waits on: an effect (or nothing), or not settled yet (an input awaits a decision). */
export type PendingEffect =
  { readonly settled: true; readonly effect: Effect | null } | { readonly settled: false };

/**
 * The effect a session waits on, read from its state alone (also after a restart): `next`'s own
 * answer. A state whose last input still calls for events is not settled. `built` holds requests
 * a decision already built (replay passes them), so only a request nobody built is rebuilt.
 */
export function pendingEffect(
  config: KernelConfig,
  state: KernelState,
  built: BuiltRequests = new Map(),
): PendingEffect {
  const step = nextStep(config, state, built);
  if (step.kind === 'emit') return { settled: false };
  return { settled: true, effect: step.kind === 'await' ? step.effect : null };
}

/** `ev-` and 40 hex digits of SHA-256 over session, causing input and index. */
export function derivedEventId(
  sessionId: string,
  causationId: string,
  index: number,
  sha256: Sha256 = sha256Hex,
): string {
  return `ev-${sha256(`${sessionId}\n${causationId}\n${index}`).slice(0, 40)}`;
}

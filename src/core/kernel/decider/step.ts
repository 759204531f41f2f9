import type { Artifact } from '../../artifacts/artifact.js';
import type { CorrexEvent } from '../../event-catalog.js';
import type { InferenceRequest } from '../../inference/inference-request.js';
import type { Effect } from './effect.js';

type Payload = CorrexEvent['payload'];

/**
 * What the session does next: emit events (and the artifacts they propose), wait on one
 * effect, or nothing (finished, paused, waiting for a person).
 */
export type Step =
  | {
      readonly kind: 'emit';
      readonly events: readonly Payload[];
      readonly artifacts?: readonly Artifact[];
    }
  | { readonly kind: 'await'; readonly effect: Effect }
  | { readonly kind: 'idle' };

/** Requests built while deciding, by request id, so the effect sends the one just recorded. */
export type BuiltRequests = Map<string, InferenceRequest>;

export const IDLE: Step = { kind: 'idle' };

export function emit(...events: Payload[]): Step {
  return { kind: 'emit', events };
}

export function awaitEffect(effect: Effect): Step {
  return { kind: 'await', effect };
}

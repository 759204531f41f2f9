import type { CorrexEventStore } from '../event-catalog.js';
import type { PayloadOf } from '../events/event-definition.js';
import type { PayloadShape } from '../events/event-envelope.js';
import type { Projection } from '../events/projection.js';
import { replay } from '../events/replay.js';
import type { steeringNoteAdded } from '../context/steering-events.js';
import type { ContextManifest } from '../inference/context-manifest.js';
import {
  emptyManifestHistory,
  readRequestManifest,
  type ManifestHistory,
} from '../inference/manifest-history.js';
import type {
  inferenceCompleted,
  inferenceFailed,
  inferenceRequested,
} from '../inference/inference-events.js';

/**
 * A steering note's delivery receipt, read from the log alone. `deliveredIn` is the first
 * model call whose context pack included the note (its `inference_requested` manifest lists
 * it); `seenBy` is the first such call that the model answered (`inference_completed`). A pack
 * that was built but whose call failed delivered the note without the model seeing it.
 */
export type SteeringDelivery = {
  readonly noteEventId: string;
  readonly noteSequence: number;
  readonly content: string;
  /** The stage the note is for; null for every stage. */
  readonly stageId: string | null;
  readonly recordedAt: string;
  readonly deliveredIn: {
    readonly requestId: string;
    readonly sequence: number;
    readonly stageId: string;
    readonly timestamp: string;
  } | null;
  readonly seenBy: {
    readonly requestId: string;
    readonly sequence: number;
    readonly timestamp: string;
  } | null;
};

export type SteeringDeliveryState = {
  readonly notes: readonly SteeringDelivery[];
  /** Requests whose pack carried notes not yet seen: request id → note event ids. */
  readonly awaiting: { readonly [requestId: string]: readonly string[] };
  /** What the manifests recorded by reference add up to (the read model every reader uses). */
  readonly manifests: ManifestHistory;
};

type DeliveryPayload = PayloadOf<
  | typeof steeringNoteAdded
  | typeof inferenceRequested
  | typeof inferenceCompleted
  | typeof inferenceFailed
>;

const foldedTypes: ReadonlySet<string> = new Set<DeliveryPayload['type']>([
  'steering_note_added',
  'inference_requested',
  'inference_completed',
  'inference_failed',
]);

/** Steering notes and where they were delivered; folds any catalog's events. */
export const steeringDeliveryProjection: Projection<SteeringDeliveryState, PayloadShape> = {
  name: 'steering-delivery',
  // 2: the manifests' history (manifests recorded by reference).
  version: 2,
  initial: () => ({ notes: [], awaiting: {}, manifests: emptyManifestHistory }),
  evolve(state, event) {
    if (!foldedTypes.has(event.payload.type)) return state;
    const payload = event.payload as DeliveryPayload;
    switch (payload.type) {
      case 'steering_note_added':
        return {
          ...state,
          notes: [
            ...state.notes,
            {
              noteEventId: event.eventId,
              noteSequence: event.sequence,
              content: payload.content,
              stageId: payload.stageId ?? null,
              recordedAt: event.timestamp,
              deliveredIn: null,
              seenBy: null,
            },
          ],
        };
      case 'inference_requested': {
        const read = readRequestManifest(state.manifests, payload);
        const carried = steeringNoteIdsIn(read.manifest);
        const unseen = state.notes.filter((n) => carried.has(n.noteEventId) && n.seenBy === null);
        if (unseen.length === 0)
          return read.history === state.manifests ? state : { ...state, manifests: read.history };
        const deliveredIn = {
          requestId: payload.requestId,
          sequence: event.sequence,
          stageId: payload.stageId,
          timestamp: event.timestamp,
        };
        return {
          notes: state.notes.map((n) =>
            carried.has(n.noteEventId) && n.deliveredIn === null ? { ...n, deliveredIn } : n,
          ),
          awaiting: { ...state.awaiting, [payload.requestId]: unseen.map((n) => n.noteEventId) },
          manifests: read.history,
        };
      }
      case 'inference_completed': {
        const waiting = new Set(state.awaiting[payload.requestId] ?? []);
        if (waiting.size === 0) return state;
        const seenBy = {
          requestId: payload.requestId,
          sequence: event.sequence,
          timestamp: event.timestamp,
        };
        return {
          notes: state.notes.map((n) =>
            waiting.has(n.noteEventId) && n.seenBy === null ? { ...n, seenBy } : n,
          ),
          awaiting: withoutKey(state.awaiting, payload.requestId),
          manifests: state.manifests,
        };
      }
      case 'inference_failed':
        return { ...state, awaiting: withoutKey(state.awaiting, payload.requestId) };
    }
  },
};

/** Every steering note of a session with its delivery receipt, in recording order. */
export async function steeringDeliveriesOf(
  store: CorrexEventStore,
  sessionId: string,
): Promise<readonly SteeringDelivery[]> {
  return (await replay(store, steeringDeliveryProjection, sessionId)).state.notes;
}

/**
 * The note event ids a pack carried: steering entries it included, and steering entries left
 * out only as duplicates of an included entry (the same text did reach the model).
 */
function steeringNoteIdsIn(manifest: ContextManifest): Set<string> {
  const ids = new Set<string>();
  const included = new Set(manifest.included.map((entry) => entry.id));
  for (const entry of manifest.included) {
    if (entry.kind === 'steering' && entry.source.kind === 'event') ids.add(entry.source.id);
  }
  for (const entry of manifest.excluded) {
    if (
      entry.kind === 'steering' &&
      entry.source.kind === 'event' &&
      entry.reason === 'duplicate' &&
      entry.duplicateOf !== undefined &&
      included.has(entry.duplicateOf)
    ) {
      ids.add(entry.source.id);
    }
  }
  return ids;
}

function withoutKey<Value>(
  record: { readonly [key: string]: Value },
  key: string,
): { readonly [key: string]: Value } {
  if (!(key in record)) return record;
  const { [key]: _removed, ...rest } = record;
  return rest;
}

/** One line for people: where a note stands, citing the events (CLI and server alike). */
export function describeSteeringDelivery(delivery: SteeringDelivery): string {
  const note = `steering note #${delivery.noteSequence}`;
  const { deliveredIn, seenBy } = delivery;
  if (deliveredIn === null) {
    return delivery.stageId === null
      ? `${note} waits for the next context pack`
      : `${note} waits for a context pack of stage ${delivery.stageId}`;
  }
  const delivered = `${note} delivered in the pack of request ${deliveredIn.requestId} (stage ${deliveredIn.stageId}) at #${deliveredIn.sequence}`;
  if (seenBy === null) return `${delivered}; no model call that carried it has answered yet`;
  return seenBy.requestId === deliveredIn.requestId
    ? `${delivered}, answered at #${seenBy.sequence}`
    : `${delivered}; first answered by request ${seenBy.requestId} at #${seenBy.sequence}`;
}

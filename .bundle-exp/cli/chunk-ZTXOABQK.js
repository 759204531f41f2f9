import {
  replay
} from "./chunk-OYJRPCLU.js";

// src/core/router/steering-delivery.ts
var foldedTypes = /* @__PURE__ */ new Set([
  "steering_note_added",
  "inference_requested",
  "inference_completed",
  "inference_failed"
]);
var steeringDeliveryProjection = {
  name: "steering-delivery",
  version: 1,
  initial: () => ({ notes: [], awaiting: {} }),
  evolve(state, event) {
    if (!foldedTypes.has(event.payload.type)) return state;
    const payload = event.payload;
    switch (payload.type) {
      case "steering_note_added":
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
              seenBy: null
            }
          ]
        };
      case "inference_requested": {
        const carried = steeringNoteIdsIn(payload.manifest);
        const unseen = state.notes.filter((n) => carried.has(n.noteEventId) && n.seenBy === null);
        if (unseen.length === 0) return state;
        const deliveredIn = {
          requestId: payload.requestId,
          sequence: event.sequence,
          stageId: payload.stageId,
          timestamp: event.timestamp
        };
        return {
          notes: state.notes.map(
            (n) => carried.has(n.noteEventId) && n.deliveredIn === null ? { ...n, deliveredIn } : n
          ),
          awaiting: { ...state.awaiting, [payload.requestId]: unseen.map((n) => n.noteEventId) }
        };
      }
      case "inference_completed": {
        const waiting = new Set(state.awaiting[payload.requestId] ?? []);
        if (waiting.size === 0) return state;
        const seenBy = {
          requestId: payload.requestId,
          sequence: event.sequence,
          timestamp: event.timestamp
        };
        return {
          notes: state.notes.map(
            (n) => waiting.has(n.noteEventId) && n.seenBy === null ? { ...n, seenBy } : n
          ),
          awaiting: withoutKey(state.awaiting, payload.requestId)
        };
      }
      case "inference_failed":
        return { ...state, awaiting: withoutKey(state.awaiting, payload.requestId) };
    }
  }
};
async function steeringDeliveriesOf(store, sessionId) {
  return (await replay(store, steeringDeliveryProjection, sessionId)).state.notes;
}
function steeringNoteIdsIn(manifest) {
  const ids = /* @__PURE__ */ new Set();
  const included = new Set(manifest.included.map((entry) => entry.id));
  for (const entry of manifest.included) {
    if (entry.kind === "steering" && entry.source.kind === "event") ids.add(entry.source.id);
  }
  for (const entry of manifest.excluded) {
    if (entry.kind === "steering" && entry.source.kind === "event" && entry.reason === "duplicate" && entry.duplicateOf !== void 0 && included.has(entry.duplicateOf)) {
      ids.add(entry.source.id);
    }
  }
  return ids;
}
function withoutKey(record, key) {
  if (!(key in record)) return record;
  const { [key]: _removed, ...rest } = record;
  return rest;
}
function describeSteeringDelivery(delivery) {
  const note = `steering note #${delivery.noteSequence}`;
  const { deliveredIn, seenBy } = delivery;
  if (deliveredIn === null) {
    return delivery.stageId === null ? `${note} waits for the next context pack` : `${note} waits for a context pack of stage ${delivery.stageId}`;
  }
  const delivered = `${note} delivered in the pack of request ${deliveredIn.requestId} (stage ${deliveredIn.stageId}) at #${deliveredIn.sequence}`;
  if (seenBy === null) return `${delivered}; no model call that carried it has answered yet`;
  return seenBy.requestId === deliveredIn.requestId ? `${delivered}, answered at #${seenBy.sequence}` : `${delivered}; first answered by request ${seenBy.requestId} at #${seenBy.sequence}`;
}

export {
  steeringDeliveriesOf,
  describeSteeringDelivery
};

import type { JsonValue } from './canonical-json.js';
import type { PayloadShape } from './event-envelope.js';
import type { EventStore } from './event-store.js';
import type { Projection } from './projection.js';
import type { SnapshotStore } from './snapshot-store.js';

export type ReplayResult<State> = {
  readonly state: State;
  /** The last sequence folded into `state` (0 when the session has no events). */
  readonly sequence: number;
  /** Whether a snapshot was used as the starting point. */
  readonly fromSnapshot: boolean;
};

export type ReplayOptions<State> = {
  /** Start from a snapshot of the same projection version when one exists. */
  readonly snapshots?: SnapshotStore;
  /** Start from a known state and cursor instead (replay from a cursor). */
  readonly from?: { readonly state: State; readonly sequence: number };
};

/**
 * Rebuilds a projection for one session: from scratch, from a snapshot plus the tail, or from a
 * given state and cursor. Streams the events, so a long session is never held in memory.
 */
export async function replay<State, Payload extends PayloadShape>(
  store: EventStore<Payload>,
  projection: Projection<State, Payload>,
  sessionId: string,
  options: ReplayOptions<State> = {},
): Promise<ReplayResult<State>> {
  let state = options.from?.state ?? projection.initial();
  let sequence = options.from?.sequence ?? 0;
  let fromSnapshot = false;
  if (!options.from && options.snapshots) {
    const snapshot = await options.snapshots.load(sessionId, projection.name);
    if (snapshot && snapshot.projectionVersion === projection.version) {
      state = snapshot.state as State;
      sequence = snapshot.sequence;
      fromSnapshot = true;
    }
  }
  for await (const event of store.stream(sessionId, { afterSequence: sequence })) {
    state = projection.evolve(state, event);
    sequence = event.sequence;
  }
  return { state, sequence, fromSnapshot };
}

/** Replays and saves a snapshot of the result, so the next replay starts from here. */
export async function replayAndSnapshot<State, Payload extends PayloadShape>(
  store: EventStore<Payload>,
  projection: Projection<State, Payload>,
  sessionId: string,
  snapshots: SnapshotStore,
): Promise<ReplayResult<State>> {
  const result = await replay(store, projection, sessionId, { snapshots });
  if (result.sequence > 0) {
    await snapshots.save({
      sessionId,
      projection: projection.name,
      projectionVersion: projection.version,
      sequence: result.sequence,
      state: result.state as JsonValue,
    });
  }
  return result;
}

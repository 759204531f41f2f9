import type { JsonValue } from './canonical-json.js';

/** A projection's state for one session, covering events up to and including `sequence`. */
export type Snapshot = {
  readonly sessionId: string;
  readonly projection: string;
  readonly projectionVersion: number;
  readonly sequence: number;
  readonly state: JsonValue;
};

/**
 * Keeps the latest snapshot per (session, projection). A snapshot is a cache: losing one only
 * costs a longer replay, and a snapshot never stands in for events.
 */
export interface SnapshotStore {
  save(snapshot: Snapshot): Promise<void>;
  /** The latest snapshot for the session and projection name, whatever its version. */
  load(sessionId: string, projection: string): Promise<Snapshot | undefined>;
  close(): Promise<void>;
}

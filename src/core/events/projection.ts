import type { PayloadShape, StoredEvent } from './event-envelope.js';

/**
 * A pure fold of a session's events into state. `version` changes whenever `evolve` or the
 * state's shape changes, so a snapshot taken by another version is ignored, not misread.
 * State must be plain JSON data (snapshots store it canonically).
 */
export type Projection<State, Payload extends PayloadShape = PayloadShape> = {
  readonly name: string;
  readonly version: number;
  initial(): State;
  evolve(state: State, event: StoredEvent<Payload>): State;
};

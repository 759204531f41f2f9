import { canonicalJson, type JsonValue } from './canonical-json.js';
import type { Snapshot, SnapshotStore } from './snapshot-store.js';
import { StoreClosedError } from './store-closed-error.js';

/** Snapshots in memory, kept as canonical text so a later mutation of the caller's state cannot leak in. */
export function createInMemorySnapshotStore(): SnapshotStore {
  const snapshots = new Map<string, { snapshot: Omit<Snapshot, 'state'>; state: string }>();
  const keyOf = (sessionId: string, projection: string) => `${sessionId}\u0000${projection}`;
  let closed = false;
  const open = () => {
    if (closed) throw new StoreClosedError('in-memory snapshot store');
  };
  return {
    async save(snapshot) {
      open();
      const key = keyOf(snapshot.sessionId, snapshot.projection);
      const current = snapshots.get(key);
      // A newer snapshot of the same version is never replaced by an older one.
      if (
        current &&
        current.snapshot.sequence > snapshot.sequence &&
        current.snapshot.projectionVersion === snapshot.projectionVersion
      ) {
        return;
      }
      const { state, ...rest } = snapshot;
      snapshots.set(key, { snapshot: rest, state: canonicalJson(state) });
    },
    async load(sessionId, projection) {
      open();
      const entry = snapshots.get(keyOf(sessionId, projection));
      return entry ? { ...entry.snapshot, state: JSON.parse(entry.state) as JsonValue } : undefined;
    },
    async close() {
      closed = true;
    },
  };
}

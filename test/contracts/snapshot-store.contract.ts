import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SnapshotStore } from '../../src/core/events/snapshot-store.js';

/** The SnapshotStore contract, run unchanged against every implementation. */
export function snapshotStoreContract(name: string, open: () => Promise<SnapshotStore>): void {
  describe(`SnapshotStore contract: ${name}`, () => {
    let snapshots: SnapshotStore;
    beforeEach(async () => {
      snapshots = await open();
    });
    afterEach(async () => {
      await snapshots.close();
    });

    const base = { sessionId: 's', projection: 'p', projectionVersion: 1 };

    it('returns what was saved, as plain JSON, and nothing for an unknown key', async () => {
      const state = { count: 5, nested: { b: 1, a: [1, 'x', null, true] }, text: 'é 😀' };
      await snapshots.save({ ...base, sequence: 5, state });
      expect(await snapshots.load('s', 'p')).toEqual({ ...base, sequence: 5, state });
      expect(await snapshots.load('s', 'other')).toBeUndefined();
      expect(await snapshots.load('other', 'p')).toBeUndefined();
    });

    it('keeps the newest snapshot of a version; an older one does not replace it', async () => {
      await snapshots.save({ ...base, sequence: 5, state: { count: 5 } });
      await snapshots.save({ ...base, sequence: 3, state: { count: 3 } });
      expect(await snapshots.load('s', 'p')).toMatchObject({ sequence: 5, state: { count: 5 } });
      await snapshots.save({ ...base, sequence: 9, state: { count: 9 } });
      expect(await snapshots.load('s', 'p')).toMatchObject({ sequence: 9 });
    });

    it('a snapshot of another projection version replaces it (the replayer then ignores a mismatch)', async () => {
      await snapshots.save({ ...base, sequence: 5, state: { count: 5 } });
      await snapshots.save({ ...base, projectionVersion: 2, sequence: 1, state: null });
      expect(await snapshots.load('s', 'p')).toMatchObject({
        projectionVersion: 2,
        sequence: 1,
        state: null,
      });
    });

    it('stores a copy: mutating the saved state afterwards changes nothing', async () => {
      const state = { list: [1] };
      await snapshots.save({ ...base, sequence: 1, state });
      state.list.push(2);
      expect(await snapshots.load('s', 'p')).toMatchObject({ state: { list: [1] } });
    });

    it('refuses state with no JSON form', async () => {
      await expect(
        snapshots.save({ ...base, sequence: 1, state: { when: new Date(0) } as never }),
      ).rejects.toThrow(/plain object/);
    });

    it('refuses use after close', async () => {
      await snapshots.close();
      await expect(snapshots.load('s', 'p')).rejects.toMatchObject({ code: 'store_closed' });
      snapshots = await open();
    });
  });
}

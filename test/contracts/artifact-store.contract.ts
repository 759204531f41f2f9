import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ArtifactIntegrityError,
  ArtifactLineageError,
} from '../../src/core/artifacts/artifact-errors.js';
import {
  createArtifact,
  type Artifact,
  type ArtifactDraft,
} from '../../src/core/artifacts/artifact.js';
import type { ArtifactStore } from '../../src/core/artifacts/artifact-store.js';
import { StoreClosedError } from '../../src/core/events/store-closed-error.js';
import { expectRejection } from '../support/expect-rejection.js';

/** What each ArtifactStore implementation supplies to run the shared contract. */
export type ArtifactStoreHarness = {
  /** A fresh, empty store. */
  open(): Promise<ArtifactStore>;
  /** Overwrites the stored bytes of one artifact, as someone with access to the storage could. */
  tamper(store: ArtifactStore, hash: string, bytes: string): Promise<void>;
};

const draft = (overrides: Partial<ArtifactDraft> = {}): ArtifactDraft => ({
  kind: 'plan',
  sessionId: 's1',
  stageId: 'plan',
  content: {
    summary: 'Fix the parser ü 😀',
    steps: ['read', 'edit'],
    files: [{ path: 'src/a.ts', change: 'modify' }],
    ratio: 0.5,
  },
  lineage: { inferenceEventId: 'inference-1', parents: [] },
  ...overrides,
});

/** The ArtifactStore contract: every implementation must pass all of it unchanged. */
export function artifactStoreContract(name: string, harness: ArtifactStoreHarness): void {
  describe(`ArtifactStore contract: ${name}`, () => {
    let store: ArtifactStore;
    beforeEach(async () => {
      store = await harness.open();
    });
    afterEach(async () => {
      await store.close();
    });

    it('stores an artifact and reads back an equal one by hash', async () => {
      const artifact = createArtifact(draft());
      expect(await store.has(artifact.hash)).toBe(false);
      expect(await store.put(artifact)).toEqual(artifact);
      expect(await store.get(artifact.hash)).toEqual(artifact);
      expect(await store.has(artifact.hash)).toBe(true);
      expect(await store.get('0'.repeat(64))).toBeUndefined();
    });

    it('is content-addressed: the same fields give the same hash, and re-putting is a no-op', async () => {
      const first = createArtifact(draft());
      const again = createArtifact(draft());
      expect(again.hash).toBe(first.hash);
      await store.put(first);
      await store.put(again);
      expect(await store.listBySession('s1')).toEqual([first]);
    });

    it('pins lineage in the hash: the same content from another inference is another artifact', async () => {
      const a = createArtifact(draft());
      const b = createArtifact(
        draft({ lineage: { inferenceEventId: 'inference-2', parents: [] } }),
      );
      expect(b.hash).not.toBe(a.hash);
    });

    it('rejects an artifact whose hash does not match its fields', async () => {
      const artifact = createArtifact(draft());
      const forged: Artifact = { ...artifact, content: { summary: 'something else' } };
      const error = await expectRejection(store.put(forged), ArtifactIntegrityError);
      expect(error.code).toBe('artifact_integrity');
      expect(await store.has(artifact.hash)).toBe(false);
    });

    it('rejects an artifact whose parent is not stored', async () => {
      const parent = createArtifact(draft());
      const child = createArtifact(
        draft({
          stageId: 'review',
          kind: 'review',
          lineage: { inferenceEventId: null, parents: [parent.hash] },
        }),
      );
      const error = await expectRejection(store.put(child), ArtifactLineageError);
      expect(error.missingParent).toBe(parent.hash);
      await store.put(parent);
      await store.put(child);
      expect(await store.has(child.hash)).toBe(true);
    });

    it('lists a session in store order and walks lineage nearest first, each ancestor once', async () => {
      const plan = createArtifact(draft());
      const change = createArtifact(
        draft({
          kind: 'change',
          stageId: 'implement',
          content: { n: 1 },
          lineage: { inferenceEventId: 'i2', parents: [plan.hash] },
        }),
      );
      const verification = createArtifact(
        draft({
          kind: 'verification',
          stageId: 'verify',
          content: { n: 2 },
          lineage: { inferenceEventId: 'i3', parents: [change.hash, plan.hash] },
        }),
      );
      const review = createArtifact(
        draft({
          kind: 'review',
          stageId: 'review',
          content: { n: 3 },
          lineage: { inferenceEventId: 'i4', parents: [verification.hash, change.hash] },
        }),
      );
      const other = createArtifact(draft({ sessionId: 's2' }));
      for (const artifact of [plan, change, other, verification, review]) await store.put(artifact);
      expect((await store.listBySession('s1')).map((a) => a.kind)).toEqual([
        'plan',
        'change',
        'verification',
        'review',
      ]);
      expect(await store.listBySession('s2')).toEqual([other]);
      expect(await store.listBySession('nobody')).toEqual([]);
      expect((await store.lineage(review.hash)).map((a) => a.kind)).toEqual([
        'review',
        'verification',
        'change',
        'plan',
      ]);
      expect(await store.lineage('f'.repeat(64))).toEqual([]);
    });

    it('never hands out a reference to what it stores', async () => {
      const artifact = createArtifact(draft());
      const returned = await store.put(artifact);
      (returned.content as { summary: string }).summary = 'mutated';
      expect(await store.get(artifact.hash)).toEqual(artifact);
    });

    it('detects stored bytes that no longer match their hash', async () => {
      const artifact = createArtifact(draft());
      await store.put(artifact);
      await harness.tamper(
        store,
        artifact.hash,
        JSON.stringify({ ...artifact, content: { summary: 'evil' } }),
      );
      const error = await expectRejection(store.get(artifact.hash), ArtifactIntegrityError);
      expect(error.message).toContain(artifact.hash);
    });

    it('refuses every call after close', async () => {
      await store.close();
      await expectRejection(store.get('0'.repeat(64)), StoreClosedError);
      await expectRejection(store.put(createArtifact(draft())), StoreClosedError);
      await expectRejection(store.listBySession('s1'), StoreClosedError);
    });
  });
}

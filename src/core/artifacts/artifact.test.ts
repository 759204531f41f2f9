import { describe, expect, it } from 'vitest';
import { correxEventCatalog, type EventPayload } from '../event-catalog.js';
import { InMemoryEventStore } from '../events/in-memory-event-store.js';
import { replay } from '../events/replay.js';
import { artifactProjection } from './artifact-projection.js';
import {
  createArtifact,
  decodeArtifact,
  encodeArtifact,
  hashArtifact,
  type ArtifactDraft,
} from './artifact.js';
import { ArtifactIntegrityError } from './artifact-errors.js';

const draft: ArtifactDraft = {
  kind: 'plan',
  sessionId: 's1',
  stageId: 'plan',
  content: { b: 1, a: [true, null, 'x'] },
  lineage: { inferenceEventId: null, parents: [] },
};

describe('artifacts', () => {
  it('hash canonical bytes: key order does not matter, any field change does', () => {
    const reordered = { ...draft, content: { a: [true, null, 'x'], b: 1 } };
    expect(createArtifact(reordered).hash).toBe(createArtifact(draft).hash);
    expect(hashArtifact({ ...draft, stageId: 'implement' })).not.toBe(hashArtifact(draft));
    expect(createArtifact(draft).hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses content that has no canonical JSON form', () => {
    expect(() => createArtifact({ ...draft, content: { n: Number.NaN } })).toThrow();
    expect(() =>
      createArtifact({ ...draft, lineage: { inferenceEventId: null, parents: ['nope'] } }),
    ).toThrow(/SHA-256/);
  });

  it('decodes stored bytes only while they still match the hash', () => {
    const artifact = createArtifact(draft);
    expect(decodeArtifact(artifact.hash, encodeArtifact(artifact))).toEqual(artifact);
    expect(() => decodeArtifact(artifact.hash, '{')).toThrow(ArtifactIntegrityError);
    expect(() => decodeArtifact('0'.repeat(64), encodeArtifact(artifact))).toThrow(
      /no longer match/,
    );
  });
});

describe('artifactProjection', () => {
  const a = createArtifact(draft);
  const b = createArtifact({
    ...draft,
    kind: 'change',
    stageId: 'implement',
    lineage: { inferenceEventId: 'i1', parents: [a.hash] },
  });
  const c = createArtifact({
    ...draft,
    kind: 'change',
    stageId: 'implement',
    content: { v: 2 },
    lineage: { inferenceEventId: 'i2', parents: [b.hash] },
  });
  const payloads: EventPayload[] = [
    {
      type: 'artifact_proposed',
      hash: a.hash,
      kind: 'plan',
      stageId: 'plan',
      attempt: 1,
      inferenceEventId: null,
      parents: [],
    },
    { type: 'artifact_accepted', hash: a.hash, kind: 'plan', stageId: 'plan' },
    { type: 'stage_started', stageId: 'implement', attempt: 1 },
    {
      type: 'artifact_proposed',
      hash: b.hash,
      kind: 'change',
      stageId: 'implement',
      attempt: 1,
      inferenceEventId: 'i1',
      parents: [a.hash],
    },
    { type: 'artifact_accepted', hash: b.hash, kind: 'change', stageId: 'implement' },
    {
      type: 'artifact_proposed',
      hash: c.hash,
      kind: 'change',
      stageId: 'implement',
      attempt: 2,
      inferenceEventId: 'i2',
      parents: [b.hash],
    },
    { type: 'artifact_accepted', hash: c.hash, kind: 'change', stageId: 'implement' },
  ];

  it('records proposals with lineage, acceptances in order, and the latest per stage; replay equals the incremental fold', async () => {
    const store = new InMemoryEventStore({ catalog: correxEventCatalog });
    let incremental = artifactProjection.initial();
    for (const [index, payload] of payloads.entries()) {
      const stored = await store.append({
        eventId: `e${index + 1}`,
        sessionId: 's1',
        timestamp: '2026-11-30T12:00:00.000Z',
        payload,
      });
      incremental = artifactProjection.evolve(incremental, stored);
    }
    expect(incremental.accepted.map((ref) => ref.hash)).toEqual([a.hash, b.hash, c.hash]);
    expect(incremental.latestByStage).toEqual({ plan: a.hash, implement: c.hash });
    expect(incremental.proposed[c.hash]).toMatchObject({
      attempt: 2,
      inferenceEventId: 'i2',
      parents: [b.hash],
    });
    expect((await replay(store, artifactProjection, 's1')).state).toEqual(incremental);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../base/sha256.js';
import { canonicalJson } from '../events/canonical-json.js';
import type { ContextManifest, ManifestEntry, ManifestExclusion } from './context-manifest.js';
import { ContextManifestReferenceSchema } from './context-manifest-reference.js';
import { manifestByReference } from './manifest-by-reference.js';
import {
  emptyManifestHistory,
  readRequestManifest,
  sessionManifestReader,
  UnresolvedManifestReferenceError,
  type ManifestHistory,
} from './manifest-history.js';

/** A pool of items a session's packs draw from, so calls share, drop, reorder and re-add them. */
const entryArbitrary: fc.Arbitrary<ManifestEntry> = fc.record(
  {
    id: fc.constantFrom('task', 'stage:a', 'turn:1', 'turn:2', 'tool_result:3', 'summary:4'),
    layer: fc.constantFrom('L0' as const, 'L1' as const, 'L2' as const),
    kind: fc.constantFrom('turn', 'tool_result', 'task'),
    source: fc.record({ kind: fc.constant('event' as const), id: fc.constantFrom('e1', 'e2') }),
    tokens: fc.integer({ min: 0, max: 3 }),
    originalTokens: fc.integer({ min: 0, max: 3 }),
    compression: fc.constantFrom('none' as const, 'head_tail' as const),
    compressedBecause: fc.constantFrom('entry_cap' as const, 'over_budget' as const),
    contentSha256: fc.constantFrom('a'.repeat(64), 'b'.repeat(64)),
  },
  {
    requiredKeys: [
      'id',
      'layer',
      'kind',
      'source',
      'tokens',
      'originalTokens',
      'compression',
      'contentSha256',
    ],
  },
);

const exclusionArbitrary: fc.Arbitrary<ManifestExclusion> = fc.record(
  {
    id: fc.constantFrom('turn:1', 'turn:5', 'hint:6'),
    layer: fc.constantFrom('L1' as const, 'L3' as const),
    kind: fc.constantFrom('turn', 'hint'),
    source: fc.record({ kind: fc.constant('builtin' as const), id: fc.constant('x') }),
    tokens: fc.integer({ min: 0, max: 2 }),
    reason: fc.constantFrom('over_budget' as const, 'duplicate' as const),
    duplicateOf: fc.constantFrom('turn:1', 'turn:2', 'task'),
  },
  { requiredKeys: ['id', 'layer', 'kind', 'source', 'tokens', 'reason'] },
);

const manifestArbitrary: fc.Arbitrary<ContextManifest> = fc.record({
  budgetTokens: fc.integer({ min: 0, max: 9000 }),
  totalTokens: fc.integer({ min: 0, max: 9000 }),
  tokenizer: fc.constantFrom('estimate-v1', 'llama-cpp:m'),
  // Repeats are allowed: the writer must stay exact for them too.
  included: fc.array(entryArbitrary, { maxLength: 8 }),
  excluded: fc.array(exclusionArbitrary, { maxLength: 4 }),
});

/** Writes `manifests` as a flagged session's calls would record them, through JSON as stored. */
function recordByReference(manifests: readonly ContextManifest[]) {
  let history: ManifestHistory = emptyManifestHistory;
  return manifests.map((manifest, index) => {
    const requestId = `implement.1.${index + 1}`;
    const manifestRef = ContextManifestReferenceSchema.parse(
      JSON.parse(canonicalJson(manifestByReference(history, manifest, sha256Hex))),
    );
    history = readRequestManifest(history, { requestId, manifestRef }).history;
    return { requestId, manifestRef };
  });
}

describe('context manifests recorded by reference', () => {
  it('read back as exactly the manifests the whole form records, call after call', () => {
    fc.assert(
      fc.property(fc.array(manifestArbitrary, { minLength: 1, maxLength: 8 }), (manifests) => {
        const read = sessionManifestReader();
        const rebuilt = recordByReference(manifests).map((payload) => read(payload));
        expect(rebuilt.map((manifest) => canonicalJson(manifest))).toEqual(
          manifests.map((manifest) => canonicalJson(manifest)),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('records an item whole once, the first time the session names it', () => {
    const entry = (id: string): ManifestEntry => ({
      id,
      layer: 'L1',
      kind: 'turn',
      source: { kind: 'event', id },
      tokens: 10,
      originalTokens: 10,
      compression: 'none',
      contentSha256: 'c'.repeat(64),
    });
    const manifest = (included: ManifestEntry[]): ContextManifest => ({
      budgetTokens: 100,
      totalTokens: 10,
      tokenizer: 'estimate-v1',
      included,
      excluded: [],
    });
    const [first, second, third] = recordByReference([
      manifest([entry('a'), entry('b')]),
      manifest([entry('a'), entry('c')]),
      manifest([entry('b'), entry('a'), entry('c')]),
    ]).map((payload) => payload.manifestRef);
    expect(first?.after).toBeNull();
    expect(first?.included.added.every((added) => added.item !== undefined)).toBe(true);
    expect(second).toMatchObject({ after: 'implement.1.1', included: { unchanged: 1 } });
    expect(second?.included.removed).toEqual([1]);
    expect(second?.included.added).toMatchObject([{ at: 1, item: entry('c') }]);
    // `b` comes back: named by its digest only, its record is in the first call's manifest.
    expect(third?.included.added).toHaveLength(1);
    expect(third?.included.added[0]).toMatchObject({ at: 0 });
    expect(third?.included.added[0]?.item).toBeUndefined();
  });

  it('re-points earlier duplicates at a new copy without writing them again', () => {
    const duplicate = (id: string, of: string): ManifestExclusion => ({
      id,
      layer: 'L1',
      kind: 'turn',
      source: { kind: 'event', id },
      tokens: 0,
      reason: 'duplicate',
      duplicateOf: of,
    });
    const manifest = (excluded: ManifestExclusion[]): ContextManifest => ({
      budgetTokens: 100,
      totalTokens: 10,
      tokenizer: 'estimate-v1',
      included: [],
      excluded,
    });
    const manifests = [
      manifest([duplicate('turn:1', 'turn:3'), duplicate('turn:2', 'turn:3')]),
      manifest([
        duplicate('turn:1', 'turn:4'),
        duplicate('turn:2', 'turn:4'),
        duplicate('turn:3', 'turn:4'),
      ]),
    ];
    const recorded = recordByReference(manifests);
    expect(recorded[1]?.manifestRef.excluded).toMatchObject({
      retargeted: [{ from: 'turn:3', to: 'turn:4' }],
      removed: [],
      unchanged: 2,
      added: [{ at: 2, item: duplicate('turn:3', 'turn:4') }],
    });
    const read = sessionManifestReader();
    expect(recorded.map((payload) => canonicalJson(read(payload)))).toEqual(
      manifests.map((m) => canonicalJson(m)),
    );
  });

  it('names an unknown digest, a removal the previous manifest lacks and a missing base', () => {
    const unknown = 'd'.repeat(64);
    const base = { budgetTokens: 1, totalTokens: 1, tokenizer: 'estimate-v1' };
    const none = { removed: [], unchanged: 0, added: [] };
    const read = (manifestRef: Parameters<typeof readRequestManifest>[1]['manifestRef']) =>
      readRequestManifest(emptyManifestHistory, { requestId: 'r2', manifestRef });
    expect(() =>
      read({
        ...base,
        after: null,
        excluded: none,
        included: { ...none, added: [{ at: 0, digest: unknown }] },
      }),
    ).toThrow(UnresolvedManifestReferenceError);
    expect(() =>
      read({
        ...base,
        after: null,
        excluded: none,
        included: { ...none, added: [{ at: 0, digest: unknown }] },
      }),
    ).toThrow(
      `the context manifest of model call r2 cannot be rebuilt from the log: it names the item ${unknown}, which no earlier event of the session records`,
    );
    expect(() =>
      read({ ...base, after: null, excluded: { ...none, removed: [0] }, included: none }),
    ).toThrow(/removes position 0 of the previous excluded list, which has 0 items/);
    expect(() => read({ ...base, after: 'r1', excluded: none, included: none })).toThrow(
      /written after the manifest of r1, but the last manifest recorded by reference before it is none/,
    );
    expect(() => readRequestManifest(emptyManifestHistory, { requestId: 'r3' })).toThrow(
      /r3 cannot be rebuilt from the log: it records no manifest/,
    );
  });

  it('reads a manifest recorded whole as it is, leaving the history alone', () => {
    const manifest: ContextManifest = {
      budgetTokens: 5,
      totalTokens: 0,
      tokenizer: 'estimate-v1',
      included: [],
      excluded: [],
    };
    const read = readRequestManifest(emptyManifestHistory, { requestId: 'r1', manifest });
    expect(read.manifest).toBe(manifest);
    expect(read.history).toBe(emptyManifestHistory);
  });
});

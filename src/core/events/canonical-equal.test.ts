import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicallyEqual } from './canonical-equal.js';
import { canonicalJson } from './canonical-json.js';

const sameText = (left: unknown, right: unknown) => canonicalJson(left) === canonicalJson(right);

/** A copy of a JSON value with keys in another order, an undefined property or two, -0 for 0. */
function variant(value: unknown, seed: number): unknown {
  if (Array.isArray(value)) return value.map((item, index) => variant(item, seed + index));
  if (value === 0) return seed % 2 === 0 ? -0 : 0;
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value).map(([key, member], index) => [
    key,
    variant(member, seed + index),
  ]);
  if (seed % 3 === 0) entries.reverse();
  if (seed % 5 === 0) entries.push(['absent', undefined]);
  return Object.fromEntries(entries);
}

describe('canonicallyEqual', () => {
  it('agrees with comparing canonical texts on any two JSON values', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (left, right) => {
        expect(canonicallyEqual(left, right)).toBe(sameText(left, right));
      }),
    );
  });

  it('finds a value equal to its reordered, undefined-padded copy, and not to a changed one', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(), (value, seed) => {
        const copy = variant(value, seed);
        expect(canonicallyEqual(value, copy)).toBe(true);
        expect(canonicallyEqual(copy, value)).toBe(true);
        const changed = { wrapped: copy, extra: seed };
        expect(canonicallyEqual({ wrapped: value }, changed)).toBe(false);
      }),
    );
  });

  it('tells apart what canonical JSON tells apart', () => {
    expect(canonicallyEqual({ a: 1 }, { a: 1, b: null })).toBe(false);
    expect(canonicallyEqual({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(canonicallyEqual([undefined], [null])).toBe(true);
    expect(canonicallyEqual([1, 2], [2, 1])).toBe(false);
    expect(canonicallyEqual({ a: [] }, { a: {} })).toBe(false);
    expect(canonicallyEqual('1', 1)).toBe(false);
    expect(canonicallyEqual(null, {})).toBe(false);
  });

  it('throws where canonical JSON has no text, as comparing texts did', () => {
    expect(() => canonicallyEqual({ a: Number.NaN }, { a: Number.NaN })).toThrow(
      /JSON has no such number/,
    );
    expect(() => canonicallyEqual({ a: new Date(0) }, { a: new Date(0) })).toThrow(
      /not a plain object/,
    );
  });
});

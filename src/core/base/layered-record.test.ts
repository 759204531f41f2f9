import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  layeredDelete,
  layeredEntries,
  layeredGet,
  layeredHas,
  layeredRecord,
  layeredSet,
  layeredSetAll,
  type LayeredRecord,
} from './layered-record.js';

type Op = { readonly kind: 'set' | 'delete'; readonly key: string; readonly value: number };

// Index-like keys ("0", "12") sort before others in a plain object: the order must still match.
const key = fc.oneof(
  fc.constantFrom('/a', '/b', '/c', '0', '12', '__proto__x', 'constructor'),
  fc.string({ minLength: 1, maxLength: 3 }).map((text) => `/${text}`),
);
const op = fc.record({
  kind: fc.constantFrom('set', 'set', 'set', 'delete'),
  key,
  value: fc.integer(),
}) as fc.Arbitrary<Op>;

describe('layered record', () => {
  it('behaves as one plain record changed in place, key order included', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 400 }), (ops) => {
        const plain = Object.create(null) as Record<string, number>;
        let layered: LayeredRecord<number> = layeredRecord();
        for (const { kind, key: at, value } of ops) {
          if (kind === 'set') {
            plain[at] = value;
            layered = layeredSet(layered, at, value);
          } else {
            delete plain[at];
            layered = layeredDelete(layered, at);
          }
          expect(layeredGet(layered, at)).toBe(plain[at]);
          expect(layeredHas(layered, at)).toBe(Object.hasOwn(plain, at));
        }
        expect(Object.entries(layeredEntries(layered))).toEqual(Object.entries(plain));
      }),
      { numRuns: 300 },
    );
  });

  it('leaves earlier versions as they were', () => {
    const first = layeredSet(layeredRecord<number>(), '/a', 1);
    const second = layeredSet(first, '/a', 2);
    const third = layeredDelete(second, '/a');
    expect([first, second, third].map((record) => layeredGet(record, '/a'))).toEqual([
      1,
      2,
      undefined,
    ]);
  });

  it('does not read inherited properties as entries', () => {
    const record = layeredRecord<number>({ '/a': 1 });
    expect(layeredGet(record, 'toString')).toBeUndefined();
    expect(layeredHas(record, 'constructor')).toBe(false);
  });

  it('copies a bounded part per change: the recent part stays near the square root', () => {
    let record = layeredRecord<number>();
    let largest = 0;
    for (let index = 0; index < 3_000; index++) {
      record = layeredSet(record, `/path-${index}`, index);
      largest = Math.max(largest, record.recentSize);
    }
    expect(record.baseSize + record.recentSize).toBe(3_000);
    expect(largest).toBeLessThanOrEqual(8 + Math.ceil(Math.sqrt(3_000)));
  });
  it('sets many keys at once as that many single sets would, key order included', () => {
    const entry = fc.tuple(key, fc.integer());
    fc.assert(
      fc.property(fc.array(fc.array(entry, { maxLength: 40 }), { maxLength: 30 }), (batches) => {
        let one: LayeredRecord<number> = layeredRecord();
        let many: LayeredRecord<number> = layeredRecord();
        for (const batch of batches) {
          for (const [at, value] of batch) one = layeredSet(one, at, value);
          many = layeredSetAll(many, batch);
        }
        expect(Object.entries(layeredEntries(many))).toEqual(Object.entries(layeredEntries(one)));
        expect(many.recentSize).toBeLessThanOrEqual(8 + Math.sqrt(many.baseSize));
      }),
      { numRuns: 200 },
    );
  });
});

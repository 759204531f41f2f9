import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eventSamples } from '../../../test/golden/event-samples.js';
import { correxEventCatalog } from '../event-catalog.js';
import { canonicalJson } from './canonical-json.js';
import { createEventCodec } from './event-codec.js';
import { createShapeEncoder, type ShapeEncoder } from './shape-encoder.js';

/** What the codec writes: the shape encoder's text, or canonicalJson's where it declines. */
function encodeWith(encoder: ShapeEncoder, value: object): string {
  return encoder(value) ?? canonicalJson(value);
}

/** canonicalJson's text, or the error it throws. */
function canonicalOrError(value: unknown): string | Error {
  try {
    return canonicalJson(value);
  } catch (error) {
    return error as Error;
  }
}

/** Any UTF-16 code unit, so lone surrogates and pairs in either order turn up. */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));
const text = fc.oneof(
  fc.string(),
  fc.string({ unit: codeUnit, maxLength: 6 }),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
  fc.constantFrom('\ud800', 'a\udc00b', '\ud83d\ude00', '\ude00\ud83d', 'line\n"q"\\ \u0001'),
);
const key = fc.oneof(
  text,
  fc.constantFrom('0', '12', '7', '4294967295', '01', '-1', '__proto__', 'type', 'toString'),
);

/** An object built member by member (own data properties, so `__proto__` is an own key too). */
const objectOf = (entries: [string, unknown][]): object => Object.fromEntries(entries);

const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    fc.oneof(
      text,
      fc.double(),
      fc.constantFrom(-0, 0, Number.NaN, Infinity, -Infinity, 1e21, 2 ** 53 - 1),
      fc.boolean(),
      fc.constant(null),
      fc.constant(undefined),
    ),
    fc.array(tie('node'), { maxLength: 4 }),
    fc.array(fc.tuple(key, tie('node')), { maxLength: 4 }).map(objectOf),
  ),
})).node;

/** Members no JSON has: the encoder must decline them, as canonicalJson refuses them. */
const oddMember = fc.constantFrom<unknown>(
  () => 1,
  1n,
  Symbol('s'),
  new Date(0),
  new Map(),
  Object.create(null) as object,
);

/** Records of a few shapes, each shape's keys in one or another insertion order. */
const recordsOfShapes = fc
  .array(fc.uniqueArray(key, { maxLength: 8 }), { minLength: 1, maxLength: 3 })
  .chain((shapes) =>
    fc.array(
      fc
        .nat(shapes.length - 1)
        .chain((at) =>
          fc.tuple(
            fc.shuffledSubarray(shapes[at]!, { minLength: shapes[at]!.length }),
            fc.array(
              fc.oneof({ weight: 9, arbitrary: value }, { weight: 1, arbitrary: oddMember }),
              {
                minLength: shapes[at]!.length,
                maxLength: shapes[at]!.length,
              },
            ),
            fc.boolean(),
          ),
        )
        .map(([keys, values, nullPrototype]) => {
          const record = objectOf(keys.map((name, index) => [name, values[index]]));
          return nullPrototype ? Object.assign(Object.create(null) as object, record) : record;
        }),
      { minLength: 1, maxLength: 8 },
    ),
  );

describe('shape encoder', () => {
  it("writes canonicalJson's text, or declines where canonicalJson refuses, over records of recurring shapes (property)", () => {
    fc.assert(
      fc.property(recordsOfShapes, (records) => {
        const encoder = createShapeEncoder();
        for (const record of records) {
          const expected = canonicalOrError(record);
          const written = encoder(record);
          if (expected instanceof Error) expect(written).toBeUndefined();
          else expect(encodeWith(encoder, record)).toBe(expected);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('sorts index-like keys by code units, drops undefined members and writes -0 as 0', () => {
    const encoder = createShapeEncoder();
    const record = { b: 1, '12': 'x', a: undefined, '0': -0, '2': [undefined, { z: 1, y: 2 }] };
    expect(encoder(record)).toBe('{"0":0,"12":"x","2":[null,{"y":2,"z":1}],"b":1}');
    expect(encoder(record)).toBe(canonicalJson(record));
    // The same keys in another order, then a member changed: still canonical.
    expect(encoder({ a: 2, b: 1 })).toBe('{"a":2,"b":1}');
    expect(encoder({ b: 1, a: 2 })).toBe('{"a":2,"b":1}');
  });

  it('declines what canonicalJson refuses, so its error names the problem', () => {
    const encoder = createShapeEncoder();
    expect(encoder({ type: 'x', text: 'ok' })).toBe('{"text":"ok","type":"x"}');
    for (const refused of [
      { type: 'x', text: 'a\ud800' },
      { type: 'x', text: Number.NaN },
      { type: 'x', text: [Infinity] },
      { type: 'x', text: { when: new Date(0) } },
      { type: 'x', text: () => 1 },
      { type: 'x', ['\udc00']: 1 },
      new (class Payload {
        type = 'x';
      })(),
    ]) {
      expect(encoder(refused)).toBeUndefined();
      expect(() => canonicalJson(refused)).toThrow();
    }
    // An own `__proto__` key is left to canonicalJson's general encoder.
    const proto = JSON.parse('{"type":"x","__proto__":1}') as object;
    expect(encoder(proto)).toBeUndefined();
    expect(canonicalJson(proto)).toBe('{"__proto__":1,"type":"x"}');
  });

  it('writes every golden sample payload as canonicalJson does, in its own key order and reversed', () => {
    const encoder = createShapeEncoder();
    for (const payload of Object.values(eventSamples)) {
      const reversed = Object.fromEntries(Object.entries(payload).reverse());
      for (const record of [payload, reversed, payload])
        expect(encodeWith(encoder, record)).toBe(canonicalJson(payload));
    }
  });

  it('gives the codec the same envelope bytes as canonicalJson for every golden sample, new and normalized (property)', () => {
    const codec = createEventCodec(correxEventCatalog);
    const samples = Object.values(eventSamples);
    fc.assert(
      fc.property(
        fc.array(fc.nat(samples.length - 1), { minLength: 1, maxLength: 20 }),
        fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
        (picks, sequence) => {
          for (const at of picks) {
            const event = codec.normalize({
              eventId: `e-${at}`,
              sessionId: 's',
              timestamp: '2026-11-30T12:00:00.000Z',
              correlationId: 'turn-1',
              payload: samples[at]!,
            });
            expect(codec.encode(event, sequence)).toBe(canonicalJson({ ...event, sequence }));
          }
        },
      ),
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, NonCanonicalValueError } from './canonical-json.js';

describe('canonicalJson', () => {
  it('sorts keys by UTF-16 code units at every depth and drops insignificant whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null }, A: true })).toBe(
      '{"A":true,"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}',
    );
    // RFC 8785's ordering example: code units, not code points or locale.
    expect(canonicalJson({ '\u20ac': 1, '\r': 2, '\ud83d\ude00': 3, '1': 4, '\u00f6': 5 })).toBe(
      '{"\\r":2,"1":4,"ö":5,"€":1,"😀":3}',
    );
  });

  it('formats numbers in their shortest round-trip form', () => {
    expect(canonicalJson([0, -0, 1, -1.5, 1e21, 1e-7, 0.1 + 0.2, 2 ** 53 - 1, 2 ** 33])).toBe(
      '[0,0,1,-1.5,1e+21,1e-7,0.30000000000000004,9007199254740991,8589934592]',
    );
  });

  it('escapes strings as JSON.stringify does', () => {
    expect(canonicalJson('line\n"quote"\\ \u0001 é 😀')).toBe(
      '"line\\n\\"quote\\"\\\\ \\u0001 é 😀"',
    );
  });

  it('omits undefined properties so absent and undefined optional fields encode alike', () => {
    expect(canonicalJson({ a: 1, b: undefined })).toBe(canonicalJson({ a: 1 }));
    expect(canonicalJson([undefined])).toBe('[null]');
  });

  it('refuses a lone surrogate in a string or a key (I-JSON), and keeps a surrogate pair', () => {
    expect(() => canonicalJson({ text: 'a\ud800b' })).toThrow(NonCanonicalValueError);
    expect(() => canonicalJson({ list: ['ok', '\udc00'] })).toThrow(
      /\$\.list\[1\] holds a lone surrogate/,
    );
    expect(() => canonicalJson({ nested: { '\ud83d': 1 } })).toThrow(
      /\$\.nested has a key that holds a lone surrogate/,
    );
    // A pair in the wrong order is two lone halves.
    expect(() => canonicalJson('\ude00\ud83d')).toThrow(NonCanonicalValueError);
    expect(canonicalJson('\ud83d\ude00')).toBe('"😀"');
  });

  it('rejects values with no canonical JSON form, naming where they are', () => {
    expect(() => canonicalJson({ x: Number.NaN })).toThrow(NonCanonicalValueError);
    expect(() => canonicalJson({ x: Infinity })).toThrow(/\$\.x/);
    expect(() => canonicalJson({ when: new Date(0) })).toThrow(/Date, not a plain object/);
    expect(() => canonicalJson({ n: 1n })).toThrow(/bigint/);
    expect(() => canonicalJson(new Map())).toThrow(NonCanonicalValueError);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow(/\$\.self\.self.*refers back to itself/);
  });

  it('allows shared (non-cyclic) references', () => {
    const shared = { v: 1 };
    expect(canonicalJson({ a: shared, b: shared })).toBe('{"a":{"v":1},"b":{"v":1}}');
  });

  it('gives the text of a plain reference encoder, index-like keys and undefined members included (property)', () => {
    const reference = (value: unknown): string => {
      if (Array.isArray(value))
        return `[${value.map((item) => (item === undefined ? 'null' : reference(item))).join(',')}]`;
      if (value !== null && typeof value === 'object') {
        const record = value as Record<string, unknown>;
        const members = Object.keys(record)
          .sort()
          .filter((key) => record[key] !== undefined)
          .map((key) => `${JSON.stringify(key)}:${reference(record[key])}`);
        return `{${members.join(',')}}`;
      }
      return JSON.stringify(value);
    };
    const key = fc.oneof(
      fc.string(),
      fc.constantFrom('0', '7', '10', '4294967295', '01', '-1', '__proto__'),
    );
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        fc.oneof(
          fc.string(),
          fc.double({ noNaN: true, noDefaultInfinity: true }),
          fc.boolean(),
          fc.constant(null),
        ),
        fc.array(fc.oneof(tie('node'), fc.constant(undefined))),
        fc.dictionary(key, fc.oneof(tie('node'), fc.constant(undefined))),
      ),
    })).node;
    fc.assert(
      fc.property(value, (input) => {
        fc.pre(!/\p{Surrogate}/u.test(JSON.stringify(input) ?? ''));
        expect(canonicalJson(input)).toBe(reference(input));
      }),
      { numRuns: 500 },
    );
  });

  it('is stable under key order and round-trips through JSON.parse (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value);
        expect(canonicalJson(JSON.parse(text))).toBe(text);
        const reordered = JSON.parse(
          JSON.stringify(value, (_key, v: unknown) =>
            v && typeof v === 'object' && !Array.isArray(v)
              ? Object.fromEntries(Object.entries(v).reverse())
              : v,
          ),
        ) as unknown;
        expect(canonicalJson(reordered)).toBe(text);
      }),
    );
  });
});

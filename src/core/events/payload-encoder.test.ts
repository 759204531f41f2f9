import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { correxEventCatalog } from '../event-catalog.js';
import { canonicalJson } from './canonical-json.js';
import { createEventCodec } from './event-codec.js';
import { payloadEncoder } from './payload-encoder.js';

/** The text, or the error's class and message: what the two encoders must agree on. */
function outcome(encode: () => string): string {
  try {
    return encode();
  } catch (error) {
    return `${(error as Error).name}: ${(error as Error).message}`;
  }
}

function expectSameAsCanonical(schema: z.ZodType, value: unknown): void {
  expect(outcome(() => payloadEncoder(schema)(value))).toBe(outcome(() => canonicalJson(value)));
}

/** Text as events carry it, with now and then what has no canonical form (a lone surrogate). */
const text = fc.oneof(
  { weight: 6, arbitrary: fc.string() },
  { weight: 2, arbitrary: fc.string({ unit: 'binary' }) },
  {
    weight: 1,
    arbitrary: fc
      .array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 6 })
      .map((units) => String.fromCharCode(...units)),
  },
);
/** Any value at all, the kind a caller could hand in where the schema expects something else. */
const anything = fc.anything({
  key: fc.oneof(fc.string(), fc.constantFrom('0', '42', '__proto__', 'constructor', 'type')),
  withNullPrototype: true,
  withBigInt: true,
  withDate: true,
  withSparseArray: true,
  maxDepth: 3,
});

type Definition = {
  readonly type: string;
  readonly shape?: Record<string, z.ZodType>;
  readonly element?: z.ZodType;
  readonly valueType?: z.ZodType;
  readonly innerType?: z.ZodType;
  readonly options?: readonly z.ZodType[];
  readonly values?: readonly unknown[];
  readonly entries?: Record<string, unknown>;
  readonly getter?: () => z.ZodType;
};
const definitionOf = (schema: z.ZodType) =>
  (schema as unknown as { _zod: { def: Definition } })._zod.def;

/**
 * Values shaped by `schema` (what a payload of its type looks like), each part now and then
 * replaced by anything at all, a key left undefined or an extra key added: the encoder must give
 * canonicalJson's text (or its error) for every one of them.
 */
function valueOf(schema: z.ZodType, depth = 0): fc.Arbitrary<unknown> {
  const shaped = shapedValueOf(schema, depth);
  return fc.oneof({ weight: 12, arbitrary: shaped }, { weight: 1, arbitrary: anything });
}

function shapedValueOf(schema: z.ZodType, depth: number): fc.Arbitrary<unknown> {
  const definition = definitionOf(schema);
  if (depth > 6) return fc.constant(null);
  switch (definition.type) {
    case 'string':
      return text;
    case 'number':
      return fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, -0, 1e21, 1e-7, 2 ** 53 - 1));
    case 'boolean':
      return fc.boolean();
    case 'literal':
      return fc.constantFrom(...(definition.values ?? [null]));
    case 'enum':
      return fc.constantFrom(...Object.values(definition.entries ?? { none: null }));
    case 'array':
      return fc.array(valueOf(definition.element!, depth + 1), { maxLength: 4 });
    case 'record':
      return fc.dictionary(
        fc.oneof(text, fc.constantFrom('0', '10', '__proto__', 'b', 'a')),
        valueOf(definition.valueType!, depth + 1),
        { maxKeys: 4 },
      );
    case 'optional':
      return fc.option(valueOf(definition.innerType!, depth), { nil: undefined });
    case 'nullable':
      return fc.option(valueOf(definition.innerType!, depth), { nil: null });
    case 'default':
    case 'readonly':
    case 'prefault':
    case 'nonoptional':
      return valueOf(definition.innerType!, depth);
    case 'union':
      return fc.oneof(...(definition.options ?? []).map((option) => valueOf(option, depth)));
    case 'lazy':
      return valueOf(definition.getter!(), depth + 1);
    case 'object': {
      const shape = definition.shape ?? {};
      const members = Object.fromEntries(
        Object.entries(shape).map(([key, member]) => [key, valueOf(member, depth + 1)]),
      );
      return fc
        .tuple(
          fc.record(members, { requiredKeys: [] }),
          fc.option(fc.tuple(fc.oneof(text, fc.constantFrom('0', 'zz', 'constructor')), anything)),
          fc.boolean(),
        )
        .map(([record, extra, nullPrototype]) => {
          const value: Record<string, unknown> = nullPrototype ? Object.create(null) : {};
          Object.assign(value, record);
          if (extra !== null)
            Object.defineProperty(value, extra[0], {
              value: extra[1],
              enumerable: true,
              configurable: true,
              writable: true,
            });
          return value;
        });
    }
    default:
      return anything;
  }
}

describe('payload encoder (compiled per event shape)', () => {
  for (const [type, definition] of correxEventCatalog.definitions) {
    it(`${type}: the same text as canonicalJson, or the same error (property)`, () => {
      fc.assert(
        fc.property(valueOf(definition.schema), (value) =>
          expectSameAsCanonical(definition.schema, value),
        ),
        { numRuns: 150 },
      );
    });
  }

  it('agrees with canonicalJson at the edges it treats specially', () => {
    const schema = z.strictObject({
      a: z.string(),
      b: z.optional(z.array(z.number())),
      c: z.record(z.string(), z.string()),
      deep: z.unknown(),
    });
    let nested: unknown = 'bottom';
    for (let level = 0; level < 300; level++) nested = [nested];
    const inherited = Object.create({ a: 'from the prototype' }) as Record<string, unknown>;
    inherited.c = {};
    const hidden = { c: {} };
    Object.defineProperty(hidden, 'a', { value: 'not enumerable', enumerable: false });
    for (const value of [
      { a: 'x', c: { b: '1', a: '2', '10': '3', '9': '4' } },
      { a: 'x', b: undefined, c: {} },
      { a: 'x', c: {}, extra: 1 },
      { a: 'x', c: {}, deep: nested },
      { a: 'x', c: {}, deep: { n: Number.NaN } },
      { a: '\ud800', c: {} },
      { a: 'x', c: { '\udc00': 'y' } },
      { a: 'x', b: [1, Number.POSITIVE_INFINITY], c: {} },
      { a: 'x', b: [1, undefined, -0], c: {} },
      { a: 'x', c: { __proto__: 'p' } },
      JSON.parse('{"a":"x","c":{"__proto__":"p"}}') as unknown,
      inherited,
      hidden,
      new Date(0),
      [1, 2],
      'text',
      null,
      undefined,
      1n,
    ])
      expectSameAsCanonical(schema, value);
  });

  it('writes every golden event and every event of the session corpus back to its exact bytes', () => {
    const codec = createEventCodec(correxEventCatalog);
    const golden = join(import.meta.dirname, '../../../test/golden');
    const lines: string[] = [];
    for (const name of readdirSync(join(golden, 'events')))
      lines.push(readFileSync(join(golden, 'events', name), 'utf8'));
    const frozen = new Set(lines);
    for (const name of readdirSync(join(golden, 'sessions')).filter((file) =>
      file.endsWith('.ndjson'),
    ))
      lines.push(
        ...readFileSync(join(golden, 'sessions', name), 'utf8')
          .split('\n')
          .filter((line) => line.trim() !== ''),
      );
    let encoded = 0;
    for (const line of lines) {
      // Golden files hold canonical bytes; the session corpus holds events as JSON, in any order.
      const {
        hash: _hash,
        position: _position,
        ...stored
      } = JSON.parse(line) as Record<string, unknown>;
      const event = codec.decode(canonicalJson(stored), {
        sessionId: 'corpus',
        sequence: 0,
      });
      const definition = correxEventCatalog.definitions.get(event.payload.type)!;
      // An older version decodes upcast, so it has no bytes of its own to write back.
      if (definition.version !== event.version) continue;
      const { sequence, ...rest } = event;
      expect(codec.encode(rest, sequence)).toBe(canonicalJson(event));
      expect(payloadEncoder(definition.schema)(event.payload)).toBe(canonicalJson(event.payload));
      // Exactly the bytes stored: a golden file's own, or the corpus event's content written canonically.
      expect(codec.encode(rest, sequence)).toBe(frozen.has(line) ? line : canonicalJson(stored));
      encoded += 1;
    }
    expect(encoded).toBeGreaterThan(1000);
  });
});

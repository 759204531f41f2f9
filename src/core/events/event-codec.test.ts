import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { CorruptEventError } from './corrupt-event-error.js';
import { createEventCatalog } from './event-catalog.js';
import { createEventCodec } from './event-codec.js';
import { defineEvent } from './event-definition.js';
import { InvalidEventError } from './invalid-event-error.js';
import { InMemoryEventStore } from './in-memory-event-store.js';

// A payload that changed twice: v1 had `name`, v2 split it into `first`/`last`, v3 added `tags`.
const personV1 = defineEvent({
  type: 'person_added',
  origin: 'command',
  description: 'v1',
  fields: { name: z.string() },
});
const personV3 = defineEvent({
  type: 'person_added',
  origin: 'command',
  description: 'v3',
  version: 3,
  fields: { first: z.string(), last: z.string(), tags: z.array(z.string()) },
  upcasters: [
    {
      fromVersion: 1,
      upcast: ({ name, ...rest }) => {
        const [first = '', ...last] = String(name).split(' ');
        return { ...rest, first, last: last.join(' ') };
      },
    },
    { fromVersion: 2, upcast: (payload) => ({ ...payload, tags: [] }) },
  ],
});

const where = { sessionId: 's', sequence: 1 };
const base = { eventId: 'e1', sessionId: 's', timestamp: '2026-11-30T12:00:00.000Z' };

describe('event codec', () => {
  it('upcasts a payload stored at an older version on read', async () => {
    const oldStore = new InMemoryEventStore({ catalog: createEventCatalog([personV1]) });
    const [stored] = await oldStore.appendAll([
      { ...base, payload: { type: 'person_added', name: 'Ada King Lovelace' } },
    ]);
    const bytes = createEventCodec(createEventCatalog([personV1])).encode(
      { ...stored!, version: 1 },
      1,
    );
    const decoded = createEventCodec(createEventCatalog([personV3])).decode(bytes, where);
    expect(decoded.version).toBe(1);
    expect(decoded.payload).toEqual({
      type: 'person_added',
      first: 'Ada',
      last: 'King Lovelace',
      tags: [],
    });
  });

  it('writes new events at the current version', () => {
    const codec = createEventCodec(createEventCatalog([personV3]));
    const event = codec.normalize({
      ...base,
      payload: { type: 'person_added', first: 'A', last: 'B', tags: ['x'] },
    });
    expect(event.version).toBe(3);
    expect(codec.encode(event, 1)).toBe(
      '{"causationId":null,"correlationId":null,"eventId":"e1","payload":{"first":"A","last":"B","tags":["x"],"type":"person_added"},"sequence":1,"sessionId":"s","timestamp":"2026-11-30T12:00:00.000Z","version":3}',
    );
  });

  it('validates a payload once: what normalizeForReuse returned is taken as it is when offered again', () => {
    let checks = 0;
    const counted = defineEvent({
      type: 'counted',
      origin: 'command',
      description: 'counts its schema passes',
      fields: { name: z.string().refine(() => (checks += 1) > 0) },
    });
    const catalog = createEventCatalog([counted]);
    const codec = createEventCodec(catalog);
    const raw = { type: 'counted' as const, name: 'a' };
    const first = codec.normalizeForReuse({ ...base, payload: raw });
    expect(checks).toBe(1);
    // The normalized payload, offered again (through another codec over the same catalog, as the
    // kernel folds held results through its own): not parsed again, and the same bytes.
    const again = createEventCodec(catalog).normalize({ ...base, payload: first.payload });
    expect(checks).toBe(1);
    expect(again.payload).toBe(first.payload);
    expect(codec.encode(again, 1)).toBe(codec.encode(first, 1));
    // A caller's own object is always parsed (it could change), and so is a payload another
    // catalog validated.
    codec.normalize({ ...base, payload: raw });
    expect(checks).toBe(2);
    createEventCodec(createEventCatalog([counted])).normalize({ ...base, payload: first.payload });
    expect(checks).toBe(3);
    // A store's own normalize does not remember (its payloads are not offered again): what it
    // returned is parsed again when offered.
    const appended = codec.normalize({ ...base, payload: raw });
    expect(checks).toBe(4);
    codec.normalize({ ...base, payload: appended.payload });
    expect(checks).toBe(5);
    // The envelope is still checked.
    expect(() => codec.normalize({ ...base, timestamp: 'noon', payload: first.payload })).toThrow(
      InvalidEventError,
    );
  });

  it('refuses an upcaster chain with holes', () => {
    expect(() =>
      defineEvent({
        type: 'x',
        origin: 'command',
        description: '',
        version: 3,
        fields: {},
        upcasters: [{ fromVersion: 2, upcast: (p) => p }],
      }),
    ).toThrow(RangeError);
  });

  it('names session and sequence for every kind of unreadable row', () => {
    const codec = createEventCodec(createEventCatalog([personV3]));
    const good = codec.encode(
      codec.normalize({
        ...base,
        payload: { type: 'person_added', first: 'A', last: 'B', tags: [] },
      }),
      4,
    );
    const cases: [string, string][] = [
      ['{oops', 'unreadable'],
      [good.replace('"sequence":4', '"sequence":-4'), 'unreadable'],
      [good.replace('person_added', 'person_removed'), 'unknown_type'],
      [good.replace('"tags":[]', '"tags":[1]'), 'schema'],
      [good.replace('"version":3', '"version":9'), 'schema'],
    ];
    for (const [bytes, reason] of cases) {
      let caught: unknown;
      try {
        codec.decode(bytes, { sessionId: 'sess-9', sequence: 4 });
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(CorruptEventError);
      expect(caught).toMatchObject({ sessionId: 'sess-9', sequence: 4, reason });
      expect((caught as Error).message).toContain('sess-9');
    }
  });

  it('decodeRow catches a row whose columns disagree with its bytes', () => {
    const codec = createEventCodec(createEventCatalog([personV3]));
    const bytes = codec.encode(
      codec.normalize({
        ...base,
        payload: { type: 'person_added', first: 'A', last: 'B', tags: [] },
      }),
      1,
    );
    const row = {
      position: 1,
      sessionId: 'other',
      sequence: 1,
      eventId: 'e1',
      bytes,
      hash: '',
      previousHash: '',
    };
    expect(() => codec.decodeRow(row)).toThrow(/mismatch/);
  });

  it('rejects a payload that is not an object, with the event named', () => {
    const codec = createEventCodec(createEventCatalog([personV3]));
    expect(() => codec.normalize({ ...base, payload: 'hello' as never })).toThrow(
      InvalidEventError,
    );
    expect(() => codec.normalize({ ...base, payload: 'hello' as never })).toThrow(/event e1/);
  });

  it('refuses a catalog that defines a type twice', () => {
    expect(() => createEventCatalog([personV1, personV3])).toThrow(/defined twice/);
  });
});

describe('envelope encoding', () => {
  it('equals the general canonical encoding of the whole envelope (property)', async () => {
    const { canonicalJson } = await import('./canonical-json.js');
    const fc = (await import('fast-check')).default;
    const codec = createEventCodec(createEventCatalog([personV3]));
    fc.assert(
      fc.property(
        fc.record({
          eventId: fc.string({ minLength: 1, maxLength: 40 }),
          sessionId: fc.string({ minLength: 1, maxLength: 40 }),
          causationId: fc.option(fc.string({ minLength: 1 }), { nil: null }),
          correlationId: fc.option(fc.string({ minLength: 1 }), { nil: null }),
          first: fc.string(),
          tags: fc.array(fc.string()),
          sequence: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
        }),
        ({ first, tags, sequence, ...ids }) => {
          const event = codec.normalize({
            ...ids,
            timestamp: '2026-11-30T12:00:00.000Z',
            payload: { type: 'person_added', first, last: 'L', tags },
          });
          expect(codec.encode(event, sequence)).toBe(canonicalJson({ ...event, sequence }));
        },
      ),
    );
  });
});

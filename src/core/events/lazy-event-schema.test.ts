import { z } from 'zod';
import { describe, expect, it, vi } from 'vitest';
import { createEventCatalog } from './event-catalog.js';
import { createEventCodec } from './event-codec.js';
import { defineEvent } from './event-definition.js';
import { InvalidEventError } from './invalid-event-error.js';

const base = { eventId: 'e1', sessionId: 's', timestamp: '2026-11-30T12:00:00.000Z' };

/** The catalog and codec of a fresh module graph: no event schema of it has been built yet. */
async function freshCorrexCodec() {
  vi.resetModules();
  const { correxEventCatalog } = await import('../event-catalog.js');
  const { createEventCodec: freshCodec } = await import('./event-codec.js');
  return { catalog: correxEventCatalog, codec: freshCodec(correxEventCatalog) };
}

/** What normalizing `payload` throws, as [class name, code, message]. */
function rejection(normalize: () => unknown): [string, string, string] {
  try {
    normalize();
  } catch (error) {
    const named = error as InvalidEventError;
    return [named.constructor.name, named.code, named.message];
  }
  throw new Error('the payload was accepted');
}

describe('event schemas built on first use', () => {
  it('builds a schema only when a payload of its type is first read, then keeps it', () => {
    const fields = vi.fn(() => ({ name: z.string().min(1) }));
    const named = defineEvent({ type: 'named', origin: 'command', description: '', fields });
    const codec = createEventCodec(createEventCatalog([named]));
    expect(codec.catalog.currentVersion('named')).toBe(1);
    expect(fields).not.toHaveBeenCalled();

    // The first payload of the type is invalid: it is still refused, with the schema's reason.
    expect(() => codec.normalize({ ...base, payload: { type: 'named', name: '' } })).toThrow(
      InvalidEventError,
    );
    const unknownKey = { type: 'named', name: 'a', x: 1 } as never;
    expect(() => codec.normalize({ ...base, payload: unknownKey })).toThrow(
      /named payload invalid: .*"x"/,
    );
    expect(codec.normalize({ ...base, payload: { type: 'named', name: 'a' } }).payload).toEqual({
      type: 'named',
      name: 'a',
    });
    expect(fields).toHaveBeenCalledTimes(1);
    expect(named.schema).toBe(named.schema);
  });

  it('refuses an invalid event of every correx type on its first use exactly as a schema built up front does', async () => {
    const invalidPayloads = (types: Iterable<string>) =>
      [...types].flatMap((type) => [
        { type, notAField: true },
        { type, notAField: true, extra: [1, 'two', null] },
      ]);

    const eager = await freshCorrexCodec();
    for (const definition of eager.catalog.definitions.values())
      expect(definition.schema).toBeDefined();
    const expected = invalidPayloads(eager.catalog.definitions.keys()).map((payload) =>
      rejection(() => eager.codec.normalize({ ...base, payload: payload as never })),
    );

    const lazy = await freshCorrexCodec();
    const actual = invalidPayloads(lazy.catalog.definitions.keys()).map((payload) =>
      rejection(() => lazy.codec.normalize({ ...base, payload: payload as never })),
    );

    expect(actual).toEqual(expected);
    expect(actual.length).toBe(2 * lazy.catalog.definitions.size);
    expect(lazy.catalog.definitions.size).toBeGreaterThan(50);
    for (const [name, code, message] of actual) {
      expect(name).toBe('InvalidEventError');
      expect(code).toBe('invalid_event');
      expect(message).toMatch(/^session s, event e1: \w+ payload invalid: /);
    }
  });
});

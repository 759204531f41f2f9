import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { correxEventCatalog } from '../../src/core/event-catalog.js';
import { createEventCodec } from '../../src/core/events/event-codec.js';
import { eventSamples } from './event-samples.js';

/**
 * Frozen canonical bytes for every event type and version. A failure here means the bytes of
 * an existing event would change, which breaks hash chains and replay of every stored log.
 * Never edit a golden file to make this pass: add a new version with an upcaster instead.
 * New types get their file written once with CORREX_WRITE_GOLDEN=1 (existing files are never overwritten).
 */
const dir = join(import.meta.dirname, 'events');
const codec = createEventCodec(correxEventCatalog);
const writeMissing = process.env.CORREX_WRITE_GOLDEN === '1';

function envelopeFor(type: string) {
  const payload = (eventSamples as Record<string, { type: string }>)[type];
  if (!payload) throw new Error(`no sample for ${type}: add one to test/golden/event-samples.ts`);
  return codec.normalize({
    eventId: '0193f2a4-7c1e-7000-8000-000000000001',
    sessionId: 'session-1',
    timestamp: '2026-11-30T12:00:00.000Z',
    causationId: '0193f2a4-7c1e-7000-8000-000000000000',
    correlationId: 'turn-1',
    payload: payload as never,
  });
}

describe('golden event bytes', () => {
  for (const [type, definition] of correxEventCatalog.definitions) {
    it(`${type} v${definition.version} encodes to its frozen bytes and decodes back`, () => {
      const file = join(dir, `${type}.v${definition.version}.json`);
      const bytes = codec.encode(envelopeFor(type), 7);
      if (!existsSync(file)) {
        if (!writeMissing) throw new Error(`missing golden file ${file}: run with CORREX_WRITE_GOLDEN=1 once to create it`);
        writeFileSync(file, bytes);
      }
      const golden = readFileSync(file, 'utf8');
      expect(bytes).toBe(golden);
      expect(codec.decode(golden, { sessionId: 'session-1', sequence: 7 })).toEqual({ ...envelopeFor(type), sequence: 7 });
    });
  }

  it('every golden file, including older versions, still decodes through the current catalog', () => {
    const files = readdirSync(dir).filter((name) => name.endsWith('.json'));
    expect(files.length).toBeGreaterThanOrEqual(correxEventCatalog.definitions.size);
    for (const name of files) {
      const type = name.replace(/\.v\d+\.json$/, '');
      expect(correxEventCatalog.definitions.has(type), `${name} names an event type the catalog no longer has`).toBe(true);
      expect(() => codec.decode(readFileSync(join(dir, name), 'utf8'), { sessionId: 'session-1', sequence: 7 })).not.toThrow();
    }
  });
});

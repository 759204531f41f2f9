import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EnvelopeFieldsSchema, hasWellFormedEnvelopeFields } from './event-envelope.js';

const identifier = fc.oneof(
  fc.string({ minLength: 1, maxLength: 256 }),
  fc.constantFrom('', 'x'.repeat(257)),
  fc.integer(),
  fc.constant(undefined),
);
const count = fc.oneof(
  fc.integer({ min: -2, max: 5 }),
  fc.constantFrom(0.5, Number.NaN, Number.POSITIVE_INFINITY, Number.MAX_SAFE_INTEGER + 2, '1'),
);
const timestamp = fc.oneof(
  fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
  fc.constantFrom('2026-11-30T12:00:00Z', '2026-11-30 12:00:00.000Z', '', 5),
);
const payload = fc.oneof(
  fc.record({ type: fc.string() }),
  fc.constantFrom(null, [], 'text', { type: 3 }, {}),
);
const candidate = fc.record({
  eventId: identifier,
  sessionId: identifier,
  sequence: count,
  timestamp,
  version: count,
  causationId: fc.oneof(identifier, fc.constant(null)),
  correlationId: fc.oneof(identifier, fc.constant(null)),
  payload,
});

describe('hasWellFormedEnvelopeFields', () => {
  it('accepts exactly the envelope fields EnvelopeFieldsSchema accepts', () => {
    fc.assert(
      fc.property(candidate, (fields) => {
        expect(hasWellFormedEnvelopeFields(fields)).toBe(
          EnvelopeFieldsSchema.safeParse(fields).success,
        );
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses a field the schema does not know', () => {
    const fields = {
      eventId: 'e1',
      sessionId: 's1',
      sequence: 1,
      timestamp: '2026-11-30T12:00:00.000Z',
      version: 1,
      causationId: null,
      correlationId: null,
      payload: { type: 'x' },
    };
    expect(hasWellFormedEnvelopeFields(fields)).toBe(true);
    const withExtra: Parameters<typeof hasWellFormedEnvelopeFields>[0] = Object.assign(
      { extra: 1 },
      fields,
    );
    expect(hasWellFormedEnvelopeFields(withExtra)).toBe(false);
  });
});

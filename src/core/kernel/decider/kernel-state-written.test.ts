import { describe, expect, it } from 'vitest';
import type { CorrexEvent } from '../../event-catalog.js';
import { kernelProjection } from './kernel-state.js';
import { layeredEntries } from '../../base/layered-record.js';

const event = (sequence: number, payload: unknown): CorrexEvent =>
  ({
    eventId: `e${sequence}`,
    sessionId: 's',
    sequence,
    timestamp: '2026-01-01T00:00:00.000Z',
    causationId: null,
    correlationId: null,
    version: 1,
    payload,
  }) as unknown as CorrexEvent;

describe("the session's written files", () => {
  it('count an interrupted write found applied (no receipt: its driver died after the write)', () => {
    const classified = (classification: string) =>
      event(1, {
        type: 'tool_call_classified',
        callId: 'c1',
        tool: 'write_file',
        classification,
        action: classification === 'applied' ? 'record' : 'execute',
        reason: 'test',
        targets: [{ path: '/w/note.txt', recorded: null, observed: 'abc' }],
      });
    const applied = kernelProjection.evolve(kernelProjection.initial(), classified('applied'));
    expect(Object.keys(layeredEntries(applied.written))).toEqual(['/w/note.txt']);
    const notApplied = kernelProjection.evolve(
      kernelProjection.initial(),
      classified('not_applied'),
    );
    expect(Object.keys(layeredEntries(notApplied.written))).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { correxEventCatalog } from '../event-catalog.js';
import { createInMemoryEventStore } from '../events/in-memory-event-store.js';
import { isPinned } from './context-candidate.js';
import { SteeringNoteSchema, steeringNoteCandidate, steeringNotePayload } from './steering-note.js';

describe('SteeringNote', () => {
  it('round-trips through the catalog: recorded as steering_note_added and read back equal', async () => {
    const store = createInMemoryEventStore({ catalog: correxEventCatalog });
    const note = SteeringNoteSchema.parse({
      sessionId: 's1',
      content: 'Prefer date-fns. Ω ≠ 😀',
      stageId: 'implement',
    });
    await store.append({
      eventId: 'e1',
      sessionId: 's1',
      timestamp: '2026-11-30T12:00:00.000Z',
      payload: steeringNotePayload(note),
    });
    const [read] = await store.read('s1');
    expect(read!.payload).toEqual({ type: 'steering_note_added', ...note });
    const { type: _type, ...back } = read!.payload as ReturnType<typeof steeringNotePayload>;
    expect(SteeringNoteSchema.parse(back)).toEqual(note);
  });

  it('refuses an empty note and unknown fields', () => {
    expect(SteeringNoteSchema.safeParse({ sessionId: 's1', content: '' }).success).toBe(false);
    expect(
      SteeringNoteSchema.safeParse({ sessionId: 's1', content: 'x', createdAt: 'now' }).success,
    ).toBe(false);
  });

  it('becomes a pinned L0 candidate scoped to its stage', () => {
    const candidate = steeringNoteCandidate(
      { sessionId: 's1', content: 'Use pnpm.', stageId: 'verify' },
      'e7',
      7,
    );
    expect(candidate).toMatchObject({ id: 'steering:e7', stageId: 'verify', order: 7 });
    expect(isPinned(candidate)).toBe(true);
  });
});

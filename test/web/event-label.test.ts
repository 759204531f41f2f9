import { describe, expect, it } from 'vitest';
import type { EventDto } from '../../src/interfaces/protocol/event-dto.js';
import { eventLabel } from '../../web/src/model/event-label.js';
import { addEvent, createTimeline } from '../../web/src/model/session-timeline.js';

describe('event names in the timeline', () => {
  it('reads a known event by its table entry and any other by its words', () => {
    expect(eventLabel('brief_checked')).toBe('brief checked');
    expect(eventLabel('stage_checkpoint_recorded')).toBe('stage checkpoint recorded');
    expect(eventLabel('approval_grant_added')).toBe('standing approval added');
    expect(eventLabel('pre_tool_use_hooks_ran')).toBe('pre-tool-use hooks ran');
    // A newer server's event, never seen here.
    expect(eventLabel('something__new_')).toBe('something new');
  });

  it('shows a retry as who retried from which stage, with the reason', () => {
    const timeline = createTimeline();
    const payloads = [
      { type: 'stage_started', stageId: 'implement', attempt: 1 },
      { type: 'workflow_failed', category: 'inference', message: 'refused' },
      {
        type: 'session_retried',
        stageId: 'implement',
        attempt: 2,
        by: 'ana',
        reason: 'the model is back',
      },
      { type: 'brief_checked' },
    ];
    payloads.forEach((payload, index) => {
      const event: EventDto = {
        eventId: `e${index + 1}`,
        sessionId: 's1',
        sequence: index + 1,
        timestamp: '2026-01-01T12:00:00.000Z',
        version: 1,
        causationId: null,
        correlationId: null,
        type: payload.type,
        payload,
      };
      addEvent(timeline, event);
    });
    const items = timeline.sections.flatMap((section) => section.items);
    expect(items).toContainEqual(
      expect.objectContaining({
        kind: 'lifecycle',
        label: 'Retried by ana from stage implement (attempt 2)',
        detail: 'the model is back',
      }),
    );
    expect(items.at(-1)).toMatchObject({ kind: 'other', type: 'brief_checked' });
  });
});

import { describe, expect, it } from 'vitest';
import { runnabilityAfter } from './session-runnability.js';

describe('runnabilityAfter', () => {
  it('makes a new top-level session runnable and a sub-session a child', () => {
    expect(runnabilityAfter([{ type: 'session_created' }, { type: 'session_configured' }])).toBe(
      'runnable',
    );
    expect(
      runnabilityAfter([
        { type: 'session_created', parent: { sessionId: 'p' } },
        { type: 'workflow_started' },
      ]),
    ).toBe('child');
  });

  it('takes the last event that decides, and leaves the rest unchanged', () => {
    expect(runnabilityAfter([{ type: 'stage_started' }])).toBeNull();
    expect(runnabilityAfter([{ type: 'approval_requested' }])).toBe('idle');
    expect(runnabilityAfter([{ type: 'approval_granted' }, { type: 'tool_call_started' }])).toBe(
      'runnable',
    );
    expect(
      runnabilityAfter([{ type: 'orchestration_resumed' }, { type: 'orchestration_paused' }]),
    ).toBe('idle');
    expect(runnabilityAfter([{ type: 'stage_completed' }, { type: 'workflow_completed' }])).toBe(
      'final',
    );
  });
});

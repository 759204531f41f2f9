import { describe, expect, it } from 'vitest';
import type { CorrexEvent } from '../core/event-catalog.js';
import {
  describeInterruptedCallDriver,
  interruptedCallDriver,
  type DriverTake,
} from './interrupted-call-driver.js';
import { collectApprovalDetails } from './pending-approval-details.js';

const take = (
  driver: string,
  fromSequence: number,
  said: Partial<DriverTake> = {},
): DriverTake => ({
  driver,
  fromSequence,
  epoch: fromSequence,
  releasedAt: null,
  stoppedAt: null,
  ...said,
});

describe('interruptedCallDriver', () => {
  const takes = [
    take('worker a', 0, { releasedAt: '2026-12-03T10:00:00.000Z' }),
    take('worker b', 7),
    take('worker c', 12),
  ];

  it('names the driver whose take the call started in: the last take begun before it', () => {
    expect(interruptedCallDriver(takes, 5)?.driver).toBe('worker a');
    // A take begins after the sequence it found: #8 was the first event worker b appended.
    expect(interruptedCallDriver(takes, 8)?.driver).toBe('worker b');
    expect(interruptedCallDriver(takes, 12)?.driver).toBe('worker b');
    expect(interruptedCallDriver(takes, 13)?.driver).toBe('worker c');
  });

  it('says released, stopped after a loss, or unconfirmed, and what each means for a person', () => {
    const released = interruptedCallDriver(takes, 3)!;
    expect(released).toEqual({
      driver: 'worker a',
      epoch: 0,
      state: 'released',
      at: '2026-12-03T10:00:00.000Z',
    });
    expect(describeInterruptedCallDriver(released)).toMatch(/let go .* no longer runs/);
    const unconfirmed = interruptedCallDriver(takes, 9)!;
    expect(unconfirmed.state).toBe('unconfirmed');
    expect(describeInterruptedCallDriver(unconfirmed)).toMatch(/may still be running/);
    const stopped = interruptedCallDriver(
      [take('worker b', 7, { stoppedAt: '2026-12-03T10:05:00.000Z' })],
      9,
    )!;
    expect(stopped).toMatchObject({ state: 'stopped', at: '2026-12-03T10:05:00.000Z' });
    expect(describeInterruptedCallDriver(stopped)).toMatch(/lost the session and said .* stopped/);
  });

  it('knows nothing of a call started before any recorded take', () => {
    expect(interruptedCallDriver([], 4)).toBeNull();
    expect(interruptedCallDriver([take('worker b', 7)], 6)).toBeNull();
  });
});

describe('collectApprovalDetails of an interrupted call', () => {
  const event = (sequence: number, payload: Record<string, unknown>) =>
    ({ sequence, payload }) as unknown as CorrexEvent;

  it('keeps where the call last started and where it was found interrupted', () => {
    const details = collectApprovalDetails(
      [
        event(4, { type: 'tool_call_started', callId: 'c1' }),
        event(5, { type: 'tool_call_started', callId: 'c2' }),
        event(9, { type: 'tool_call_interrupted', callId: 'c1', tool: 'exec' }),
        event(11, {
          type: 'approval_requested',
          callId: 'c1',
          tool: 'exec',
          tier: 'T2',
          reason: 'unknown',
        }),
      ],
      ['c1', 'c2'],
    );
    expect(details.get('c1')?.interrupted).toEqual({ startedSequence: 4, sequence: 9 });
    expect(details.get('c2')?.interrupted).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import type { SessionListItemDto } from '../../src/interfaces/protocol/session-dto.js';
import { inboxSessions, isDriven, shortSessionId } from '../../web/src/model/approval-inbox.js';

let made = 0;
/** A list row; each made later than the one before. */
const row = (sessionId: string, extra: Partial<SessionListItemDto> = {}): SessionListItemDto => ({
  sessionId,
  status: 'running',
  task: 'Fix the median',
  workspace: '/home/ana/src/stats/pkg',
  stage: 'implement',
  mode: 'prompt',
  tokens: { input: 0, output: 0 },
  cost: null,
  pendingApprovals: 1,
  lastSequence: 10,
  firstTimestamp: new Date(Date.UTC(2026, 0, 1, 12, 0, (made += 1))).toISOString(),
  lastTimestamp: '2026-01-01T12:01:00.000Z',
  running: false,
  ...extra,
});

describe('the approvals inbox, by session', () => {
  it('tells two sessions with the same task apart by workspace, short id and status', () => {
    const { live } = inboxSessions([
      row('0f3c9a12-7b1e-4c55-9d1e-1234567890ab', { attended: true }),
      row('s-short', { attended: true, workspace: '/tmp/other', status: 'paused' }),
    ]);
    expect(
      live.map(({ title, workspace, shortId, row: { status } }) => [
        title,
        workspace,
        shortId,
        status,
      ]),
    ).toEqual([
      ['Fix the median', '…/stats/pkg', '0f3c9a12', 'running'],
      ['Fix the median', '/tmp/other', 's-short', 'paused'],
    ]);
    expect(shortSessionId('s-happy', ['s-happy'])).toBe('s-happy');
    // UUIDv7 ids made in the same minute share their first characters: the prefix grows.
    const ids = ['0193a1b2-7c00-7d11-8e22-aaaaaaaaaaaa', '0193a1b2-7c4f-7d11-8e22-bbbbbbbbbbbb'];
    expect(ids.map((id) => shortSessionId(id, ids))).toEqual(['0193a1b2-7c0', '0193a1b2-7c4']);
    expect(shortSessionId('session-1', ['session-1', 'session-12'])).toBe('session-1');
  });

  it('puts the calls of sessions nobody drives apart from the live ones, saying so', () => {
    const rows = [
      row('a-running', { running: true }),
      row('b-attended', { attended: true }),
      row('c-worker', { driver: 'worker-1', leaseAgeMs: 200, stalled: false }),
      row('d-paused', { status: 'paused' }),
      row('e-stalled', { driver: 'worker-2', leaseAgeMs: 90_000, stalled: true }),
      row('f-interrupted'),
      row('g-nothing-waits', { pendingApprovals: 0 }),
    ];
    const { live, undriven } = inboxSessions(rows);
    expect(live.map((session) => [session.row.sessionId, session.driver])).toEqual([
      ['a-running', 'running here'],
      ['b-attended', 'this server goes on when you decide'],
      ['c-worker', 'driven by worker-1'],
    ]);
    expect(undriven.map((session) => [session.row.sessionId, session.driver])).toEqual([
      ['d-paused', 'paused; nobody is driving it'],
      ['e-stalled', 'worker-2 stopped renewing its lease'],
      ['f-interrupted', 'nobody is driving it'],
    ]);
    // An older server that never says `attended`: only running or a fresh lease is driven.
    expect(isDriven(row('x'))).toBe(false);
  });
});

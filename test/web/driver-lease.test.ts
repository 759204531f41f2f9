import { describe, expect, it } from 'vitest';
import { leaseBadge } from '../../web/src/model/driver-lease.js';

describe('the lease badge of the session list', () => {
  it('says nothing when nobody holds a lease', () => {
    expect(leaseBadge({ driver: null, leaseAgeMs: null })).toBeNull();
    expect(leaseBadge({})).toBeNull();
  });

  it("shows a live lease's age with its driver", () => {
    expect(leaseBadge({ driver: 'worker-a', leaseAgeMs: 1_200, stalled: false })).toEqual({
      text: 'lease 1.2 s',
      title: 'worker-a renewed its lease 1.2 s ago',
      stalled: false,
    });
  });

  it('marks a lapsed lease stalled, naming its driver and how long ago it renewed', () => {
    const badge = leaseBadge({ driver: 'worker-b', leaseAgeMs: 45_000, stalled: true });
    expect(badge?.text).toBe('stalled');
    expect(badge?.stalled).toBe(true);
    expect(badge?.title).toContain('worker-b last renewed its lease 45 s ago');
  });
});

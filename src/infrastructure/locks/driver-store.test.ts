import { describe, expect, it } from 'vitest';
import { noteEvent } from '../../../test/support/sample-events.js';
import { expectRejection } from '../../../test/support/expect-rejection.js';
import { correxEventCatalog } from '../../core/event-catalog.js';
import { InMemoryEventStore } from '../../core/events/in-memory-event-store.js';
import { StaleDriverError } from '../../core/events/stale-driver-error.js';
import { driverStore } from './driver-store.js';
import { DriverLeaseLostError } from './session-locker.js';

describe('driverStore', () => {
  it('fences every append to the driven session with the lease epoch, and none other', async () => {
    const store = new InMemoryEventStore({ catalog: correxEventCatalog });
    const epoch = await store.takeDriverEpoch('s');
    const driving = driverStore(store, 's', { epoch, release: async () => {} });
    await driving.append(noteEvent('s', 1));
    await driving.appendAll([noteEvent('s', 2)]);
    // Another process takes the session: this driver's next append is refused by the store.
    await store.takeDriverEpoch('s');
    await expectRejection(driving.append(noteEvent('s', 3)), StaleDriverError);
    await expectRejection(driving.appendAll([noteEvent('s', 3)]), StaleDriverError);
    expect(await driving.lastSequence('s')).toBe(2);
    // A sub-session's appends (another session id) are not this lease's to fence.
    await driving.append(noteEvent('child', 1));
    expect(await store.lastSequence('child')).toBe(1);
  });

  it('refuses every append once the lease is lost, before it reaches the store', async () => {
    const store = new InMemoryEventStore({ catalog: correxEventCatalog });
    const epoch = await store.takeDriverEpoch('s');
    const loss = new AbortController();
    const driving = driverStore(store, 's', {
      epoch,
      lost: loss.signal,
      release: async () => {},
    });
    await driving.append(noteEvent('s', 1));
    loss.abort(new DriverLeaseLostError('s', 'its lock connection ended'));
    const error = await expectRejection(driving.append(noteEvent('s', 2)), DriverLeaseLostError);
    expect(error.message).toMatch(/lost the session s: its lock connection ended/);
    expect(await store.lastSequence('s')).toBe(1);
  });
});

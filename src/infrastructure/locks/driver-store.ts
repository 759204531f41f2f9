import type { CorrexEventStore } from '../../core/event-catalog.js';
import { DriverLeaseLostError, type SessionLock } from './session-locker.js';

/**
 * The one place that decides how a driver appends: the store as the holder of `lock` sees it.
 * Every append to the driven session carries the lease's driver epoch, so the store refuses it
 * (StaleDriverError, in the append's transaction) once another process took the session; and
 * once the lease is lost, appends are refused here before they reach the store. Appends to
 * other sessions (a sub-session's) and every read pass through unchanged.
 */
export function driverStore(
  store: CorrexEventStore,
  sessionId: string,
  lock: SessionLock | undefined,
): CorrexEventStore {
  if (lock === undefined || (lock.epoch === undefined && lock.lost === undefined)) return store;
  const fence = (target: string) => {
    if (target !== sessionId) return undefined;
    if (lock.lost?.aborted === true)
      throw new DriverLeaseLostError(sessionId, describeLoss(lock.lost.reason));
    return lock.epoch;
  };
  return new Proxy(store, {
    get(target, property, receiver) {
      if (property === 'appendAll')
        return async (...[events, options]: Parameters<CorrexEventStore['appendAll']>) => {
          const epoch = fence(events[0]?.sessionId ?? '');
          return target.appendAll(
            events,
            epoch === undefined ? options : { ...options, driverEpoch: epoch },
          );
        };
      if (property === 'append')
        return async (...[event, options]: Parameters<CorrexEventStore['append']>) => {
          const epoch = fence(event.sessionId);
          return target.append(
            event,
            epoch === undefined ? options : { ...options, driverEpoch: epoch },
          );
        };
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function'
        ? (value as (...args: unknown[]) => unknown).bind(target)
        : value;
    },
  });
}

/** Why a lease's `lost` signal was aborted, as words. */
export function describeLoss(reason: unknown): string {
  if (reason instanceof DriverLeaseLostError) return reason.reason;
  return reason instanceof Error ? reason.message : String(reason ?? 'the lease ended');
}

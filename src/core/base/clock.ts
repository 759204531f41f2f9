/**
 * The only way time enters correx. Core code never reads the clock itself: the effect runner
 * stamps timestamps through a Clock, and from then on a timestamp is recorded data.
 */
export type Clock = {
  /** The current instant as an ISO-8601 UTC string with milliseconds, e.g. `2026-11-30T11:14:06.123Z`. */
  now(): string;
};

/** A clock that always answers the same instant (tests, replays). */
export function createFixedClock(instant: string): Clock {
  return { now: () => instant };
}

/** A clock that advances by `stepMs` on every call, starting at `start`. Deterministic. */
export function createSteppingClock(start: string, stepMs = 1): Clock {
  let current = Date.parse(start);
  if (Number.isNaN(current)) throw new RangeError(`not an ISO-8601 instant: ${start}`);
  return {
    now() {
      const value = new Date(current).toISOString();
      current += stepMs;
      return value;
    },
  };
}

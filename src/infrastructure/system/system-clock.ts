import type { Clock } from '../../core/base/clock.js';

/** The machine's clock. Only the effect runner reads it; what it says is then recorded. */
export const systemClock: Clock = { now: () => new Date().toISOString() };

import type { CorrexEvent } from '../../../event-catalog.js';
import { recordedFlagsInForce } from '../../config/behaviour.js';
import { RETRY_FAILED_SESSION } from '../../config/kernel-flags.js';
import type { Effect } from '../../decider/effect.js';
import type { KernelFeature } from '../../decider/kernel-feature.js';
import { awaitEffect, emit, type Step } from '../../decider/step.js';
import { isSummaryRequestId } from '../journal/summary-request-id.js';

export type RetryDelay = {
  readonly requestId: string;
  readonly provider: string;
  readonly delayMs: number;
  readonly until: string;
  readonly started: boolean;
};

export type RetryState = {
  /**
   * A delay a provider asked for (`retryAfterMs`): no model call is requested before `until`
   * (the failure's recorded timestamp plus the delay), in this attempt or the next one.
   * `started` once `retry_delay_started` is recorded; cleared by `retry_delay_elapsed`.
   */
  readonly delay: RetryDelay | null;
  /** Whether the session was recorded with `retry-failed-session`: a failed one may be retried. */
  readonly acceptsRetry: boolean;
};

export const INITIAL_RETRY: RetryState = { delay: null, acceptsRetry: false };

export function evolveRetry(retry: RetryState, event: CorrexEvent): RetryState {
  const payload = event.payload;
  switch (payload.type) {
    case 'inference_failed': {
      const delayMs = payload.retryAfterMs ?? 0;
      // A failed summary falls back to lines at once: no delay before the next call.
      if (delayMs <= 0 || isSummaryRequestId(payload.requestId)) return retry;
      // The recorded failure's timestamp is the only clock: the delay runs from it.
      const until = new Date(Date.parse(event.timestamp) + delayMs).toISOString();
      return {
        delay: {
          requestId: payload.requestId,
          provider: payload.provider,
          delayMs,
          until,
          started: false,
        },
        acceptsRetry: retry.acceptsRetry,
      };
    }
    case 'retry_delay_started':
      return retry.delay === null
        ? retry
        : { delay: { ...retry.delay, started: true }, acceptsRetry: retry.acceptsRetry };
    case 'retry_delay_elapsed':
      return { delay: null, acceptsRetry: retry.acceptsRetry };
    case 'session_configured':
      return {
        delay: retry.delay,
        acceptsRetry: recordedFlagsInForce(payload.configuration).has(RETRY_FAILED_SESSION.name),
      };
    default:
      return retry;
  }
}

/**
 * A provider asked for a delay: the next model call waits for `retry_delay_elapsed`, once
 * `retry_delay_started` is recorded; null when there is none.
 */
export function delayBeforeModelCall(retry: RetryState): Step | null {
  const delay = retry.delay;
  if (delay === null) return null;
  return delay.started
    ? awaitEffect({ type: 'wait', until: delay.until, delayMs: delay.delayMs })
    : emit({
        type: 'retry_delay_started',
        requestId: delay.requestId,
        provider: delay.provider,
        delayMs: delay.delayMs,
        until: delay.until,
      });
}

/**
 * The wait for a delay already started (an earlier attempt's), for a stage attempt that makes
 * no model call of its own (a sub-session's: features/subagents); null when there is none.
 */
export function startedDelayWait(retry: RetryState): Effect | null {
  const delay = retry.delay;
  if (delay?.started !== true) return null;
  return { type: 'wait', until: delay.until, delayMs: delay.delayMs };
}

/**
 * Retry: a provider's recorded delay before the next model call (always on; waited out through
 * `waitBeforeModelCall`, ahead of every feature's `beforeModelCall` as it always was, and by a
 * sub-session's attempt through `startedDelayWait`), and whether a failed session may be retried
 * (`retry-failed-session`, as the session recorded it; decider/decide-command.ts). A transient
 * failure's call made again is the transient-waits feature's.
 */
export const retryFeature: KernelFeature<'retry', RetryState> = {
  name: 'retry',
  flag: null,
  events: ['retry_delay_started', 'retry_delay_elapsed'],
  state: { initial: INITIAL_RETRY, evolve: evolveRetry },
  hooks: { waitBeforeModelCall: ({ slice }) => delayBeforeModelCall(slice) },
};

import { CorrexError } from '../../base/correx-error.js';
import type { CorrexEvent } from '../../event-catalog.js';
import { kernelProjection, type KernelState } from '../decider/kernel-state.js';
import {
  evolveMetrics,
  kernelMetricsProjection,
  metricSignals,
} from '../queries/kernel-metrics.js';
import type { AppendInput } from './held-results.js';
import { notifyObserver } from './kernel-observer.js';
import type { RunSessionOptions } from './run-session-types.js';

type Payload = CorrexEvent['payload'];

/** Whether a store refused an append because the log grew meanwhile. */
export function isConflict(error: unknown): boolean {
  return CorrexError.isInstance(error) && error.code === 'concurrency_conflict';
}

/**
 * The session's log as this run sees it: the state folded from every event read or appended,
 * the last of them, and the metrics an observer is told about. Every append goes through here,
 * so the state always ends where the log does (as far as this run knows).
 */
export class SessionLog {
  state: KernelState = kernelProjection.initial();
  last: CorrexEvent | undefined;
  private metrics = kernelMetricsProjection.initial();

  constructor(private readonly options: RunSessionOptions) {}

  private fold(event: CorrexEvent): void {
    this.state = kernelProjection.evolve(this.state, event);
    this.last = event;
  }

  /** Reads what was appended after the last folded event (by anyone: a command, another process). */
  async catchUp(): Promise<void> {
    const { store, sessionId, observer } = this.options;
    // Nearly always nothing is new: one look at the head instead of opening a read of the log.
    if ((await store.lastSequence(sessionId)) === this.state.session.lastSequence) return;
    for await (const event of store.stream(sessionId, {
      afterSequence: this.state.session.lastSequence,
    })) {
      this.fold(event);
      if (observer !== undefined) this.metrics = evolveMetrics(this.metrics, event);
    }
  }

  /**
   * Appends `events` in one transaction; one without its own timestamp is stamped now. `folded`
   * is the state the first `count` of them lead to, already folded as the store returns them
   * (foldProvisional): those are not folded again.
   */
  async appendOnce(
    events: readonly AppendInput[],
    folded?: { readonly state: KernelState; readonly count: number },
  ): Promise<void> {
    const { store, sessionId, clock, observer } = this.options;
    const now = events.every((event) => event.timestamp !== undefined) ? '' : clock.now();
    const stored = await store.appendAll(
      events.map((event) => ({ ...event, sessionId, timestamp: event.timestamp ?? now })),
      { expectedSequence: this.state.session.lastSequence },
    );
    if (folded !== undefined && folded.count > 0) {
      this.state = folded.state;
      this.last = stored[folded.count - 1];
    }
    for (const [index, event] of stored.entries()) {
      if (index >= (folded?.count ?? 0)) this.fold(event);
      this.options.onEvent?.(event);
      if (observer !== undefined) {
        const signals = metricSignals(this.metrics, event);
        this.metrics = evolveMetrics(this.metrics, event, signals);
        notifyObserver(observer, event, signals);
      }
    }
  }

  /** Inputs are facts: on a conflict they are appended again after the newer events. */
  async appendInputs(
    payloads: readonly Payload[],
    causationId: string | null,
    correlationId: string | null = null,
  ): Promise<void> {
    if (payloads.length === 0) return;
    await this.appendFacts(this.inputEvents(payloads, causationId, correlationId));
  }

  /** Input events for `payloads`, each with a fresh id. */
  inputEvents(
    payloads: readonly Payload[],
    causationId: string | null,
    correlationId: string | null,
  ): AppendInput[] {
    return payloads.map((payload) => ({
      eventId: this.options.ids.next(),
      causationId,
      correlationId,
      payload,
    }));
  }

  /** Appends inputs with their ids kept, after whatever a conflict shows was appended first. */
  async appendFacts(events: readonly AppendInput[]): Promise<void> {
    for (;;) {
      try {
        return await this.appendOnce(events);
      } catch (error) {
        if (!isConflict(error)) throw error;
        await this.catchUp();
      }
    }
  }
}

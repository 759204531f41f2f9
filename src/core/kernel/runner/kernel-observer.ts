import type { CorrexEvent } from '../../event-catalog.js';
import type {
  ApprovalSignal,
  ArtifactSignal,
  MetricSignal,
  StageTiming,
  TokenSignal,
  TransitionSignal,
} from '../queries/kernel-metrics.js';

/**
 * In-process hooks the live runner calls after it appends events (tracing, metrics, UIs). Each
 * is told what `kernelMetricsProjection` folds from the same events, so a trace exporter can
 * map a stage timing to a span and the rest to span events or counters. Observers only watch:
 * they are called after the append, their return values are ignored, and what they throw is
 * caught so that an exporter's bug cannot stop a session. A sub-session's events and signals
 * reach the observer of the run that started it; each signal names the session it is of.
 */
export type KernelObserver = {
  readonly onEvent?: (event: CorrexEvent) => void;
  readonly onStageTiming?: (timing: StageTiming, sessionId: string) => void;
  readonly onTransition?: (transition: TransitionSignal, sessionId: string) => void;
  readonly onTokens?: (tokens: TokenSignal, sessionId: string) => void;
  readonly onApproval?: (approval: ApprovalSignal, sessionId: string) => void;
  readonly onArtifact?: (artifact: ArtifactSignal, sessionId: string) => void;
};

/** Tells the observer about one appended event and the signals it adds. */
export function notifyObserver(
  observer: KernelObserver,
  event: CorrexEvent,
  signals: readonly MetricSignal[],
): void {
  guard(() => observer.onEvent?.(event));
  for (const signal of signals) {
    switch (signal.kind) {
      case 'stage_timing':
        guard(() => observer.onStageTiming?.(signal.timing, event.sessionId));
        break;
      case 'transition':
        guard(() => observer.onTransition?.(signal.transition, event.sessionId));
        break;
      case 'tokens':
        guard(() => observer.onTokens?.(signal.tokens, event.sessionId));
        break;
      case 'approval':
        guard(() => observer.onApproval?.(signal.approval, event.sessionId));
        break;
      case 'artifact':
        guard(() => observer.onArtifact?.(signal.artifact, event.sessionId));
        break;
    }
  }
}

function guard(call: () => void): void {
  try {
    call();
  } catch {
    // An observer watches; its failure is its own (see KernelObserver).
  }
}

import type { CorrexEvent } from '../../core/event-catalog.js';
import { exportSessionTrace } from './otel-trace-export.js';
import type { OtelTraceSettings } from './otel-trace-settings.js';
import { sessionSpans } from './session-spans.js';

const FINAL = new Set(['workflow_completed', 'workflow_failed', 'workflow_cancelled']);

export type LiveTraceExporter = {
  /** Give it every event the runner appends (a sub-session's too). */
  readonly onEvent: (event: CorrexEvent) => void;
  /** Resolves once every trace started so far has been sent (or has failed). */
  settled(): Promise<void>;
};

/**
 * Exports a session's trace when it ends, built by `sessionSpans` from the events the runner
 * appended: the same tree `correx export otel` sends after the fact. A session that pauses is
 * sent when it ends, in a later run, so a backend never gets half a trace twice. Export
 * failures go to `report`; they never stop a session.
 */
export function createLiveTraceExporter(
  settings: OtelTraceSettings,
  report: (error: unknown) => void,
): LiveTraceExporter {
  const events = new Map<string, CorrexEvent[]>();
  const children = new Set<string>();
  const inFlight = new Set<Promise<void>>();
  return {
    onEvent(event) {
      const list = events.get(event.sessionId) ?? [];
      list.push(event);
      events.set(event.sessionId, list);
      if (event.payload.type === 'subagent_started') children.add(event.payload.childSessionId);
      if (!FINAL.has(event.payload.type) || children.has(event.sessionId)) return;
      const spans = sessionSpans(event.sessionId, (id) => events.get(id) ?? []);
      const sending = exportSessionTrace(spans, settings)
        .catch(report)
        .finally(() => inFlight.delete(sending));
      inFlight.add(sending);
    },
    async settled() {
      await Promise.all([...inFlight]);
    },
  };
}

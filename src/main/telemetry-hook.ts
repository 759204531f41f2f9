import type { CorrexEvent } from '../core/event-catalog.js';
import { otelMetricSettingsFrom } from '../infrastructure/telemetry/otel-metric-settings.js';
import { otelTraceSettingsFrom } from '../infrastructure/telemetry/otel-trace-settings.js';

type EventHook = (event: CorrexEvent) => void;

/** The events to hand over, and a promise for the traces they started to be delivered. */
export type TelemetryHook = {
  readonly onEvent: EventHook;
  /** Resolves once every trace of a session that has ended has been sent (or has failed). */
  settled(): Promise<void>;
};

/**
 * The caller's event hook, plus what the standard OpenTelemetry variables turn on:
 * `OTEL_TRACES_EXPORTER=otlp` sends each session's trace when it ends, `OTEL_METRICS_EXPORTER=otlp`
 * exports metrics periodically and once more before the process exits. The SDKs load only then.
 */
export async function withTelemetry(
  caller: EventHook | undefined,
  env: Readonly<Record<string, string | undefined>>,
  warn: (line: string) => void,
): Promise<TelemetryHook | undefined> {
  const hooks: EventHook[] = caller === undefined ? [] : [caller];
  const pending: (() => Promise<void>)[] = [];
  const traces = otelTraceSettingsFrom(env);
  if (traces !== null) {
    const { createLiveTraceExporter } =
      await import('../infrastructure/telemetry/live-trace-exporter.js');
    const exporter = createLiveTraceExporter(traces, (error) =>
      warn(`trace export failed: ${(error as Error).message}`),
    );
    hooks.push(exporter.onEvent);
    pending.push(() => exporter.settled());
  }
  const metrics = otelMetricSettingsFrom(env);
  if (metrics !== null) {
    const { createLiveMetricsExporter } =
      await import('../infrastructure/telemetry/live-metrics-exporter.js');
    const exporter = createLiveMetricsExporter(metrics, (error) =>
      warn(`metrics export failed: ${(error as Error).message}`),
    );
    hooks.push(exporter.onEvent);
    // The periodic export does not keep the process alive; the last numbers go out on the way out.
    process.once('beforeExit', () => void exporter.shutdown());
  }
  if (hooks.length === 0) return undefined;
  return {
    onEvent:
      hooks.length === 1
        ? hooks[0]!
        : (event) => {
            for (const hook of hooks) hook(event);
          },
    settled: async () => {
      await Promise.all(pending.map((wait) => wait()));
    },
  };
}

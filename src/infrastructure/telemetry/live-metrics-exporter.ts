import type { Counter, Histogram } from '@opentelemetry/api';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import type { CorrexEvent } from '../../core/event-catalog.js';
import type { OtelMetricSettings } from './otel-metric-settings.js';
import {
  createSessionMeasures,
  SESSION_INSTRUMENTS,
  type InstrumentName,
} from './session-measures.js';

const FINAL = new Set(['workflow_completed', 'workflow_failed', 'workflow_cancelled']);

export type LiveMetricsExporter = {
  /** Give it every event the runner appends (a sub-session's too). */
  readonly onEvent: (event: CorrexEvent) => void;
  /** Sends what was measured since the last export; export failures go to `report`. */
  flush(): Promise<void>;
  /** Flushes and stops the periodic export. */
  shutdown(): Promise<void>;
};

/**
 * Reports tokens, cost, calls, approvals and durations through the official OpenTelemetry
 * metrics SDK and its OTLP/HTTP exporter: exported every `intervalMs` while the process runs,
 * when a session (not a sub-session) ends, and on `flush`. The values come from the recorded events (`createSessionMeasures`).
 */
export function createLiveMetricsExporter(
  settings: OtelMetricSettings,
  report: (error: unknown) => void,
): LiveMetricsExporter {
  const exporter = new OTLPMetricExporter(settings.url === undefined ? {} : { url: settings.url });
  const reader = new PeriodicExportingMetricReader({
    exporter: {
      export: (metrics, done) =>
        exporter.export(metrics, (result) => {
          if (result.error !== undefined) report(result.error);
          done(result);
        }),
      forceFlush: () => exporter.forceFlush(),
      shutdown: () => exporter.shutdown(),
      selectAggregationTemporality: (kind) => exporter.selectAggregationTemporality(kind),
    },
    exportIntervalMillis: settings.intervalMs,
    exportTimeoutMillis: Math.min(30_000, settings.intervalMs),
  });
  const provider = new MeterProvider({
    resource: resourceFromAttributes({ 'service.name': settings.serviceName }),
    readers: [reader],
  });
  const meter = provider.getMeter('correx');
  const instruments = new Map<InstrumentName, Counter | Histogram>();
  for (const [name, spec] of Object.entries(SESSION_INSTRUMENTS) as [
    InstrumentName,
    (typeof SESSION_INSTRUMENTS)[InstrumentName],
  ][]) {
    const options = { unit: spec.unit, description: spec.description };
    instruments.set(
      name,
      spec.kind === 'counter'
        ? meter.createCounter(name, options)
        : meter.createHistogram(name, options),
    );
  }
  const measures = createSessionMeasures();
  const flushing = (promise: Promise<void>) => promise.catch(report);
  const children = new Set<string>();
  return {
    onEvent(event) {
      for (const measurement of measures.measure(event)) {
        const instrument = instruments.get(measurement.instrument)!;
        if ('add' in instrument) instrument.add(measurement.value, measurement.attributes);
        else instrument.record(measurement.value, measurement.attributes);
      }
      const type = event.payload.type;
      if (event.payload.type === 'subagent_started') children.add(event.payload.childSessionId);
      // A session that ends is exported at once, not at the next interval.
      if (FINAL.has(type) && !children.has(event.sessionId)) void flushing(provider.forceFlush());
    },
    flush: () => flushing(provider.forceFlush()),
    shutdown: () => flushing(provider.shutdown()),
  };
}

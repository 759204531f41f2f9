/**
 * Where metrics go. The OTLP/HTTP exporter reads the standard variables itself
 * (`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_EXPORTER_OTLP_METRICS_ENDPOINT`,
 * `OTEL_EXPORTER_OTLP_HEADERS`, …); `url` overrides them (tests).
 */
export type OtelMetricSettings = {
  readonly serviceName: string;
  /** How often a long-running process exports (`OTEL_METRIC_EXPORT_INTERVAL`, default 60 s). */
  readonly intervalMs: number;
  readonly url?: string;
};

/** Metrics are on when `OTEL_METRICS_EXPORTER` names `otlp` (the standard switch); off otherwise. */
export function otelMetricSettingsFrom(
  env: Readonly<Record<string, string | undefined>>,
): OtelMetricSettings | null {
  const exporters = (env.OTEL_METRICS_EXPORTER ?? '').split(',').map((name) => name.trim());
  if (!exporters.includes('otlp') || env.OTEL_SDK_DISABLED === 'true') return null;
  const interval = Number(env.OTEL_METRIC_EXPORT_INTERVAL);
  return {
    serviceName: env.OTEL_SERVICE_NAME ?? 'correx',
    intervalMs: Number.isInteger(interval) && interval > 0 ? interval : 60_000,
  };
}

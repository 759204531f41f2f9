/**
 * Where metrics go. The OTLP/HTTP exporter reads the standard variables itself
 * (`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_EXPORTER_OTLP_METRICS_ENDPOINT`,
 * `OTEL_EXPORTER_OTLP_HEADERS`, …); `url` overrides them (tests).
 */
export type OtelMetricsSettings = {
  readonly serviceName: string;
  readonly url?: string;
  /** How often the reader sends between flushes (`OTEL_METRIC_EXPORT_INTERVAL`, default 60 s). */
  readonly intervalMs: number;
};

const DEFAULT_INTERVAL_MS = 60_000;

/** Metrics are on when `OTEL_METRICS_EXPORTER` names `otlp` (the standard switch); off otherwise. */
export function otelMetricsSettingsFrom(
  env: Readonly<Record<string, string | undefined>>,
): OtelMetricsSettings | null {
  const exporters = (env.OTEL_METRICS_EXPORTER ?? '').split(',').map((name) => name.trim());
  if (!exporters.includes('otlp') || env.OTEL_SDK_DISABLED === 'true') return null;
  const interval = Number(env.OTEL_METRIC_EXPORT_INTERVAL);
  return {
    serviceName: env.OTEL_SERVICE_NAME ?? 'correx',
    intervalMs: Number.isInteger(interval) && interval > 0 ? interval : DEFAULT_INTERVAL_MS,
  };
}

/**
 * Where traces go. The OTLP/HTTP exporter reads the standard variables itself
 * (`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`,
 * `OTEL_EXPORTER_OTLP_HEADERS`, …); `url` overrides them (tests, `export otel --endpoint`).
 */
export type OtelTraceSettings = {
  readonly serviceName: string;
  readonly url?: string;
};

/** Tracing is on when `OTEL_TRACES_EXPORTER` names `otlp` (the standard switch); off otherwise. */
export function otelTraceSettingsFrom(
  env: Readonly<Record<string, string | undefined>>,
): OtelTraceSettings | null {
  const exporters = (env.OTEL_TRACES_EXPORTER ?? '').split(',').map((name) => name.trim());
  if (!exporters.includes('otlp') || env.OTEL_SDK_DISABLED === 'true') return null;
  return { serviceName: env.OTEL_SERVICE_NAME ?? 'correx' };
}

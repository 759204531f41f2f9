// src/infrastructure/telemetry/otel-metric-settings.ts
function otelMetricSettingsFrom(env) {
  const exporters = (env.OTEL_METRICS_EXPORTER ?? "").split(",").map((name) => name.trim());
  if (!exporters.includes("otlp") || env.OTEL_SDK_DISABLED === "true") return null;
  const interval = Number(env.OTEL_METRIC_EXPORT_INTERVAL);
  return {
    serviceName: env.OTEL_SERVICE_NAME ?? "correx",
    intervalMs: Number.isInteger(interval) && interval > 0 ? interval : 6e4
  };
}

// src/infrastructure/telemetry/otel-trace-settings.ts
function otelTraceSettingsFrom(env) {
  const exporters = (env.OTEL_TRACES_EXPORTER ?? "").split(",").map((name) => name.trim());
  if (!exporters.includes("otlp") || env.OTEL_SDK_DISABLED === "true") return null;
  return { serviceName: env.OTEL_SERVICE_NAME ?? "correx" };
}

// src/main/telemetry-hook.ts
async function withTelemetry(caller, env, warn) {
  const hooks = caller === void 0 ? [] : [caller];
  const pending = [];
  const traces = otelTraceSettingsFrom(env);
  if (traces !== null) {
    const { createLiveTraceExporter } = await import("./live-trace-exporter-RL6DMELC.js");
    const exporter = createLiveTraceExporter(
      traces,
      (error) => warn(`trace export failed: ${error.message}`)
    );
    hooks.push(exporter.onEvent);
    pending.push(() => exporter.settled());
  }
  const metrics = otelMetricSettingsFrom(env);
  if (metrics !== null) {
    const { createLiveMetricsExporter } = await import("./live-metrics-exporter-CB5FT432.js");
    const exporter = createLiveMetricsExporter(
      metrics,
      (error) => warn(`metrics export failed: ${error.message}`)
    );
    hooks.push(exporter.onEvent);
    process.once("beforeExit", () => void exporter.shutdown());
  }
  if (hooks.length === 0) return void 0;
  return {
    onEvent: hooks.length === 1 ? hooks[0] : (event) => {
      for (const hook of hooks) hook(event);
    },
    settled: async () => {
      await Promise.all(pending.map((wait) => wait()));
    }
  };
}

export {
  withTelemetry
};

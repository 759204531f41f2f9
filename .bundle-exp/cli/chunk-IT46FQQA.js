import {
  CorrexError
} from "./chunk-BDZLLWVY.js";

// src/infrastructure/telemetry/otel-trace-export.ts
import { context, SpanStatusCode, trace } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider
} from "@opentelemetry/sdk-trace";
var TelemetryExportError = class extends CorrexError {
  constructor(message) {
    super("telemetry_export_failed", message);
  }
};
var asTime = (iso) => new Date(iso);
var SPANS_PER_REQUEST = 512;
async function exportSessionTrace(spans, settings) {
  const built = new InMemorySpanExporter();
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ "service.name": settings.serviceName }),
    spanProcessors: [new SimpleSpanProcessor({ exporter: built })]
  });
  const tracer = provider.getTracer("correx");
  const children = /* @__PURE__ */ new Map();
  for (const span of spans) {
    const siblings = children.get(span.parentId) ?? [];
    siblings.push(span);
    children.set(span.parentId, siblings);
  }
  const emit = (record, parent) => {
    const parentContext = parent === void 0 ? context.active() : trace.setSpan(context.active(), parent);
    const span = tracer.startSpan(
      record.name,
      { startTime: asTime(record.startTime), attributes: { ...record.attributes } },
      parentContext
    );
    for (const event of record.events)
      span.addEvent(event.name, { ...event.attributes }, asTime(event.time));
    if (record.error !== null)
      span.setStatus({ code: SpanStatusCode.ERROR, message: record.error });
    const ordered = [...children.get(record.id) ?? []].sort(
      (a, b) => a.startTime < b.startTime ? -1 : a.startTime > b.startTime ? 1 : 0
    );
    for (const child of ordered) emit(child, span);
    span.end(asTime(record.endTime));
  };
  for (const root of children.get(null) ?? []) emit(root, void 0);
  await provider.forceFlush();
  const finished = built.getFinishedSpans();
  await provider.shutdown();
  const exporter = new OTLPTraceExporter(settings.url === void 0 ? {} : { url: settings.url });
  try {
    for (let from = 0; from < finished.length; from += SPANS_PER_REQUEST)
      await sendBatch(exporter, finished.slice(from, from + SPANS_PER_REQUEST));
  } finally {
    await exporter.shutdown();
  }
}
function sendBatch(exporter, batch) {
  return new Promise((done, fail) => {
    exporter.export(batch, (result) => {
      if (result.code === 0) return done();
      const cause = result.error;
      fail(
        new TelemetryExportError(
          `the OTLP receiver did not take the trace: ${cause instanceof Error ? cause.message : String(cause ?? "export failed")}`
        )
      );
    });
  });
}

export {
  TelemetryExportError,
  exportSessionTrace
};

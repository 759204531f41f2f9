import { context, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace';
import { CorrexError } from '../../core/base/correx-error.js';
import type { OtelTraceSettings } from './otel-trace-settings.js';
import type { SessionSpan } from './session-spans.js';

/** The OTLP receiver refused the trace or could not be reached. */
export class TelemetryExportError extends CorrexError {
  constructor(message: string) {
    super('telemetry_export_failed', message);
  }
}

const asTime = (iso: string) => new Date(iso);

/**
 * Spans per OTLP request. The exporter refuses more than 30 requests in flight at once, so
 * spans are sent in batches, one request after the other, never one request per span.
 */
const SPANS_PER_REQUEST = 512;

/**
 * Sends one session's spans over OTLP/HTTP with their recorded times, parents before children,
 * and waits until the exporter has delivered them (or failed: the returned promise rejects).
 */
export async function exportSessionTrace(
  spans: readonly SessionSpan[],
  settings: OtelTraceSettings,
): Promise<void> {
  // The spans are built in memory first and then sent in sequential batches: a span processor
  // that exports as each span ends would open one request per span.
  const built = new InMemorySpanExporter();
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': settings.serviceName }),
    spanProcessors: [new SimpleSpanProcessor({ exporter: built })],
  });
  const tracer = provider.getTracer('correx');
  const children = new Map<string | null, SessionSpan[]>();
  for (const span of spans) {
    const siblings = children.get(span.parentId) ?? [];
    siblings.push(span);
    children.set(span.parentId, siblings);
  }
  const emit = (record: SessionSpan, parent: Span | undefined): void => {
    const parentContext =
      parent === undefined ? context.active() : trace.setSpan(context.active(), parent);
    const span = tracer.startSpan(
      record.name,
      { startTime: asTime(record.startTime), attributes: { ...record.attributes } },
      parentContext,
    );
    for (const event of record.events)
      span.addEvent(event.name, { ...event.attributes }, asTime(event.time));
    if (record.error !== null)
      span.setStatus({ code: SpanStatusCode.ERROR, message: record.error });
    const ordered = [...(children.get(record.id) ?? [])].sort((a, b) =>
      a.startTime < b.startTime ? -1 : a.startTime > b.startTime ? 1 : 0,
    );
    for (const child of ordered) emit(child, span);
    span.end(asTime(record.endTime));
  };
  for (const root of children.get(null) ?? []) emit(root, undefined);
  await provider.forceFlush();
  const finished = built.getFinishedSpans();
  await provider.shutdown();
  const exporter = new OTLPTraceExporter(settings.url === undefined ? {} : { url: settings.url });
  try {
    for (let from = 0; from < finished.length; from += SPANS_PER_REQUEST)
      await sendBatch(exporter, finished.slice(from, from + SPANS_PER_REQUEST));
  } finally {
    await exporter.shutdown();
  }
}

/** One OTLP request; a refusal or an unreachable receiver rejects with a named error. */
function sendBatch(exporter: OTLPTraceExporter, batch: ReadableSpan[]): Promise<void> {
  return new Promise((done, fail) => {
    exporter.export(batch, (result) => {
      // ExportResultCode.SUCCESS is 0.
      if (result.code === 0) return done();
      const cause = result.error;
      fail(
        new TelemetryExportError(
          `the OTLP receiver did not take the trace: ${cause instanceof Error ? cause.message : String(cause ?? 'export failed')}`,
        ),
      );
    });
  });
}

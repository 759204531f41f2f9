import { context, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
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
 * Sends one session's spans over OTLP/HTTP with their recorded times, parents before children,
 * and waits until the exporter has delivered them (or failed: the returned promise rejects).
 */
export async function exportSessionTrace(
  spans: readonly SessionSpan[],
  settings: OtelTraceSettings,
): Promise<void> {
  const failures: unknown[] = [];
  const exporter = new OTLPTraceExporter(settings.url === undefined ? {} : { url: settings.url });
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': settings.serviceName }),
    spanProcessors: [
      new SimpleSpanProcessor({
        exporter: {
          export: (batch, done) =>
            exporter.export(batch, (result) => {
              if (result.error !== undefined) failures.push(result.error);
              done(result);
            }),
          shutdown: () => exporter.shutdown(),
          forceFlush: () => exporter.forceFlush(),
        },
      }),
    ],
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
  await provider.shutdown();
  if (failures.length > 0) {
    const first = failures[0];
    throw new TelemetryExportError(
      `the OTLP receiver did not take the trace: ${first instanceof Error ? first.message : String(first)}`,
    );
  }
}

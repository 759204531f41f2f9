import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  MeterProvider,
  PeriodicExportingMetricReader,
  type PushMetricExporter,
} from '@opentelemetry/sdk-metrics';
import type { CorrexEvent } from '../../core/event-catalog.js';
import {
  evolveMetrics,
  kernelMetricsProjection,
  metricSignals,
} from '../../core/kernel/kernel-metrics.js';
import type { KernelMetrics } from '../../core/kernel/kernel-metrics.js';
import type { OtelMetricsSettings } from './otel-metrics-settings.js';

const FINAL = new Set(['workflow_completed', 'workflow_failed', 'workflow_cancelled']);

export type LiveMetricsExporter = {
  /** Give it every event the runner appends (a sub-session's too). */
  readonly onEvent: (event: CorrexEvent) => void;
  /** Resolves once every flush started so far has been sent (or has failed). */
  settled(): Promise<void>;
  /** Sends what is left and stops the reader. */
  shutdown(): Promise<void>;
};

/**
 * Session metrics over OTLP/HTTP with the official SDK: tokens, model calls, tool calls,
 * approvals, stage durations and ended sessions, each counted from the events the runner
 * appends (the same signals `kernelMetricsProjection` folds from a log, so the numbers are the
 * log's). Read every `intervalMs` and flushed when a session (not a sub-session) ends, so a
 * short `correx run` delivers them before it exits. Failures go to `report`; never to a session.
 */
export function createLiveMetricsExporter(
  settings: OtelMetricsSettings,
  report: (error: unknown) => void,
): LiveMetricsExporter {
  const otlp = new OTLPMetricExporter(settings.url === undefined ? {} : { url: settings.url });
  const exporter: PushMetricExporter = {
    export: (batch, done) =>
      otlp.export(batch, (result) => {
        if (result.error !== undefined) report(result.error);
        done(result);
      }),
    forceFlush: () => otlp.forceFlush(),
    shutdown: () => otlp.shutdown(),
    selectAggregationTemporality: (kind) => otlp.selectAggregationTemporality(kind),
  };
  const provider = new MeterProvider({
    resource: resourceFromAttributes({ 'service.name': settings.serviceName }),
    readers: [
      new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: settings.intervalMs }),
    ],
  });
  const meter = provider.getMeter('correx');
  const tokens = meter.createCounter('correx.tokens', {
    unit: '{token}',
    description: 'Tokens the model providers reported, by type (input, output)',
  });
  const modelCalls = meter.createCounter('correx.model.calls', {
    unit: '{call}',
    description: 'Completed model calls',
  });
  const toolCalls = meter.createCounter('correx.tool.calls', {
    unit: '{call}',
    description: 'Tool calls that ran, by tool and outcome',
  });
  const approvals = meter.createCounter('correx.approvals', {
    unit: '{approval}',
    description: 'Approvals requested, granted, denied or bypassed',
  });
  const stageDuration = meter.createHistogram('correx.stage.duration', {
    unit: 'ms',
    description: 'Wall time of finished stage attempts, from recorded timestamps',
  });
  const sessions = meter.createCounter('correx.sessions', {
    unit: '{session}',
    description: 'Sessions that ended, by status',
  });

  const state = new Map<string, KernelMetrics>();
  const children = new Set<string>();
  const inFlight = new Set<Promise<void>>();
  const track = (work: Promise<void>) => {
    const sending = work.catch(report).finally(() => inFlight.delete(sending));
    inFlight.add(sending);
  };
  return {
    onEvent(event) {
      const before = state.get(event.sessionId) ?? kernelMetricsProjection.initial();
      const signals = metricSignals(before, event);
      state.set(event.sessionId, evolveMetrics(before, event, signals));
      for (const signal of signals)
        switch (signal.kind) {
          case 'tokens': {
            const attributes = { 'gen_ai.provider.name': signal.tokens.provider };
            tokens.add(signal.tokens.input, { ...attributes, 'gen_ai.token.type': 'input' });
            tokens.add(signal.tokens.output, { ...attributes, 'gen_ai.token.type': 'output' });
            modelCalls.add(1, attributes);
            break;
          }
          case 'approval':
            approvals.add(1, {
              'correx.approval.decision': signal.approval.decision,
              ...(signal.approval.by === null
                ? {}
                : { 'correx.approval.by': signal.approval.by.kind }),
            });
            break;
          case 'stage_timing':
            stageDuration.record(signal.timing.durationMs, {
              'correx.stage.id': signal.timing.stageId,
              'correx.stage.outcome': signal.timing.outcome,
            });
            break;
          case 'transition':
          case 'artifact':
            break;
        }
      const payload = event.payload;
      if (payload.type === 'tool_receipt')
        toolCalls.add(1, {
          'gen_ai.tool.name': payload.tool,
          'correx.tool.outcome': payload.outcome,
        });
      if (payload.type === 'subagent_started') children.add(payload.childSessionId);
      if (!FINAL.has(payload.type)) return;
      sessions.add(1, {
        'correx.session.status': payload.type.slice('workflow_'.length),
        'correx.session.kind': children.has(event.sessionId) ? 'sub-session' : 'session',
      });
      state.delete(event.sessionId);
      if (!children.has(event.sessionId)) track(provider.forceFlush());
    },
    async settled() {
      await Promise.all([...inFlight]);
    },
    async shutdown() {
      await Promise.all([...inFlight]);
      await provider.shutdown();
    },
  };
}

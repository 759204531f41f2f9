import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CorrexEvent } from '../../src/core/event-catalog.js';
import { createLiveMetricsExporter } from '../../src/infrastructure/telemetry/live-metrics-exporter.js';
import { otelMetricsSettingsFrom } from '../../src/infrastructure/telemetry/otel-metrics-settings.js';
import { readCorpusEvents } from '../golden/sessions/session-corpus.js';
import { correx } from '../cli/cli-process.js';
import { startFakeHttpServer } from '../providers/fake-http-server.js';
import { writeThenFinish } from '../support/model-turns.js';
import { tempDir } from '../support/temp-dir.js';
import { WRITE_ONCE_WORKFLOW } from '../support/write-once-workflow.js';

/** OTLP/JSON metrics as the receiver decodes them. */
type OtlpAttribute = { key: string; value: Record<string, unknown> };
type OtlpPoint = {
  attributes?: OtlpAttribute[];
  asDouble?: number;
  asInt?: number | string;
  count?: number | string;
  sum?: number;
};
type OtlpMetric = {
  name: string;
  unit?: string;
  sum?: { dataPoints: OtlpPoint[]; isMonotonic?: boolean };
  histogram?: { dataPoints: OtlpPoint[] };
};

/** A loopback OTLP/HTTP metrics receiver: every export request the official exporter sends. */
let receiver: Server;
let url: string;
const requests: { service: string | undefined; metrics: OtlpMetric[] }[] = [];
beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      expect(request.url).toBe('/v1/metrics');
      expect(request.headers['content-type']).toMatch(/application\/json/);
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        resourceMetrics: {
          resource: { attributes: OtlpAttribute[] };
          scopeMetrics: { metrics: OtlpMetric[] }[];
        }[];
      };
      for (const resource of body.resourceMetrics)
        requests.push({
          service: resource.resource.attributes.find((a) => a.key === 'service.name')?.value
            .stringValue as string | undefined,
          metrics: resource.scopeMetrics.flatMap((scope) => scope.metrics),
        });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/v1/metrics`;
});
afterAll(async () => {
  await new Promise<void>((done) => receiver.close(() => done()));
});

const value = (point: OtlpPoint) => Number(point.asDouble ?? point.asInt ?? 0);
const attribute = (point: OtlpPoint, key: string) =>
  point.attributes?.find((a) => a.key === key)?.value.stringValue;

/** The sum of a counter's points whose attribute `key` is `wanted` (every point without a key). */
function total(metrics: readonly OtlpMetric[], name: string, key?: string, wanted?: string) {
  const metric = metrics.find((m) => m.name === name);
  if (metric?.sum === undefined) return 0;
  return metric.sum.dataPoints
    .filter((point) => key === undefined || attribute(point, key) === wanted)
    .reduce((sum, point) => sum + value(point), 0);
}

const parent = readCorpusEvents('cli-run-subagent-parent.ndjson');
const child = readCorpusEvents('cli-run-subagent-child.ndjson');
const both: readonly CorrexEvent[] = [...parent, ...child];
const count = (type: string) => both.filter((event) => event.payload.type === type).length;

describe('OpenTelemetry metrics', () => {
  it('is switched on by OTEL_METRICS_EXPORTER=otlp only, with the standard interval variable', () => {
    expect(otelMetricsSettingsFrom({})).toBeNull();
    expect(otelMetricsSettingsFrom({ OTEL_METRICS_EXPORTER: 'none' })).toBeNull();
    expect(
      otelMetricsSettingsFrom({ OTEL_METRICS_EXPORTER: 'otlp', OTEL_SDK_DISABLED: 'true' }),
    ).toBeNull();
    expect(
      otelMetricsSettingsFrom({
        OTEL_METRICS_EXPORTER: 'console,otlp',
        OTEL_METRIC_EXPORT_INTERVAL: '5000',
        OTEL_SERVICE_NAME: 'ci',
      }),
    ).toEqual({ serviceName: 'ci', intervalMs: 5000 });
  });

  it('sends tokens, model and tool calls, approvals, stage durations and ended sessions as the log counts them, when the session ends', async () => {
    const exporter = createLiveMetricsExporter(
      { serviceName: 'correx-test', url, intervalMs: 3_600_000 },
      (error) => {
        throw error;
      },
    );
    try {
      // The order a runner appends in: the child runs between the parent's start and finish.
      const split = parent.findIndex((event) => event.payload.type === 'subagent_started') + 1;
      for (const event of [...parent.slice(0, split), ...child]) exporter.onEvent(event);
      await exporter.settled();
      // A sub-session's end sends nothing yet: its parent is still running.
      expect(requests).toHaveLength(0);
      for (const event of parent.slice(split)) exporter.onEvent(event);
      await exporter.settled();
    } finally {
      await exporter.shutdown();
    }
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.every((request) => request.service === 'correx-test')).toBe(true);
    const metrics = requests[0]!.metrics;

    const usage = both.flatMap((event) =>
      event.payload.type === 'inference_completed' ? [event.payload.result.usage] : [],
    );
    const input = usage.reduce((sum, u) => sum + u.inputTokens, 0);
    const output = usage.reduce((sum, u) => sum + u.outputTokens, 0);
    expect(input + output).toBeGreaterThan(0);
    expect(total(metrics, 'correx.tokens', 'gen_ai.token.type', 'input')).toBe(input);
    expect(total(metrics, 'correx.tokens', 'gen_ai.token.type', 'output')).toBe(output);
    expect(total(metrics, 'correx.model.calls')).toBe(usage.length);
    expect(total(metrics, 'correx.tool.calls')).toBe(count('tool_receipt'));
    expect(count('approval_granted')).toBeGreaterThan(0);
    expect(total(metrics, 'correx.approvals', 'correx.approval.decision', 'requested')).toBe(
      count('approval_requested'),
    );
    expect(total(metrics, 'correx.approvals', 'correx.approval.decision', 'granted')).toBe(
      count('approval_granted'),
    );
    expect(total(metrics, 'correx.sessions', 'correx.session.kind', 'session')).toBe(1);
    expect(total(metrics, 'correx.sessions', 'correx.session.kind', 'sub-session')).toBe(1);
    const stages = metrics.find((m) => m.name === 'correx.stage.duration')!;
    expect(stages.unit).toBe('ms');
    const finished = count('stage_completed') + count('stage_failed');
    expect(finished).toBeGreaterThan(0);
    expect(stages.histogram!.dataPoints.reduce((sum, p) => sum + Number(p.count), 0)).toBe(
      finished,
    );
  });

  it("`correx run` with OTEL_METRICS_EXPORTER=otlp delivers the session's metrics before it exits", async () => {
    requests.length = 0;
    const model = await startFakeHttpServer();
    try {
      const root = realpathSync(tempDir('correx-otel-metrics-run-'));
      const home = join(root, 'home');
      const workspace = join(root, 'work');
      mkdirSync(home, { recursive: true });
      mkdirSync(workspace, { recursive: true });
      writeFileSync(join(root, 'write-once.yaml'), WRITE_ONCE_WORKFLOW);
      model.reply(...writeThenFinish('hello.txt', 'metered\n'));
      const result = await correx(
        home,
        [
          'run',
          'write hello.txt',
          '--workspace',
          workspace,
          '--workflow',
          join(root, 'write-once.yaml'),
          '--mode',
          'auto',
        ],
        {
          OPENAI_BASE_URL: `${model.url}/v1`,
          CORREX_MODEL: 'served-model',
          OTEL_METRICS_EXPORTER: 'otlp',
          OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: url,
          OTEL_SERVICE_NAME: 'correx-cli-test',
        },
      );
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).not.toContain('metrics export failed');
      const sent = requests.filter((request) => request.service === 'correx-cli-test');
      expect(sent.length).toBeGreaterThan(0);
      const metrics = sent.at(-1)!.metrics;
      // Two answers on the wire, each reporting 42 input and 7 output tokens.
      expect(total(metrics, 'correx.tokens', 'gen_ai.token.type', 'input')).toBe(84);
      expect(total(metrics, 'correx.tokens', 'gen_ai.token.type', 'output')).toBe(14);
      expect(total(metrics, 'correx.tool.calls', 'gen_ai.tool.name', 'write_file')).toBe(1);
      expect(total(metrics, 'correx.sessions', 'correx.session.status', 'completed')).toBe(1);
    } finally {
      await model.close();
    }
  }, 120_000);
});

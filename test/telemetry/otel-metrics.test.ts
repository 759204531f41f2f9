import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CorrexEvent } from '../../src/core/event-catalog.js';
import { createLiveMetricsExporter } from '../../src/infrastructure/telemetry/live-metrics-exporter.js';
import { correx } from '../cli/cli-process.js';
import { startFakeHttpServer } from '../providers/fake-http-server.js';
import { writeThenFinish } from '../support/model-turns.js';
import { WRITE_ONCE_WORKFLOW } from '../support/write-once-workflow.js';
import { readCorpusEvents } from '../golden/sessions/session-corpus.js';
import { tempDir } from '../support/temp-dir.js';
import { serviceOf, startOtlpReceiver, type OtlpReceiver } from './otlp-receiver.js';

/** OTLP/JSON metrics as the receiver decodes them. */
type OtlpAttribute = { key: string; value: Record<string, unknown> };
type OtlpPoint = {
  attributes: OtlpAttribute[];
  asInt?: string | number;
  asDouble?: number;
  count?: string | number;
  sum?: number;
};
type OtlpMetric = {
  name: string;
  unit?: string;
  sum?: { dataPoints: OtlpPoint[] };
  histogram?: { dataPoints: OtlpPoint[] };
};

/** What the official exporters sent, through a loopback OTLP/HTTP receiver. */
let receiver: OtlpReceiver;
let url: string;
beforeAll(async () => {
  receiver = await startOtlpReceiver();
  url = receiver.url;
});
afterAll(() => receiver.close());
beforeEach(() => {
  receiver.requests.length = 0;
});

type MetricsBody = {
  resourceMetrics: {
    resource: { attributes: OtlpAttribute[] };
    scopeMetrics: { metrics: OtlpMetric[] }[];
  }[];
};
/** Every metric received so far, with its resource's service name. */
function receivedMetrics(): { service: string | undefined; metric: OtlpMetric }[] {
  const received: { service: string | undefined; metric: OtlpMetric }[] = [];
  for (const request of receiver.requests) {
    if (request.path !== '/v1/metrics') continue;
    expect(request.contentType).toMatch(/application\/json/);
    for (const resource of (request.body as MetricsBody).resourceMetrics)
      for (const scope of resource.scopeMetrics)
        for (const metric of scope.metrics)
          received.push({ service: serviceOf(resource.resource), metric });
  }
  return received;
}
const traceBodies = () =>
  receiver.requests
    .filter((request) => request.path === '/v1/traces')
    .map((request) => JSON.stringify(request.body));

const attributesOf = (point: OtlpPoint) =>
  Object.fromEntries(
    point.attributes.map((a) => [
      a.key,
      a.value.stringValue ?? a.value.intValue ?? a.value.boolValue,
    ]),
  );

/** Each metric's points, summed over every export (cumulative exports are read once: the last). */
function points(
  name: string,
): { attributes: Record<string, unknown>; total: number; count: number }[] {
  const last = receivedMetrics()
    .filter((item) => item.metric.name === name)
    .at(-1)?.metric;
  if (last === undefined) return [];
  const data = last.sum?.dataPoints ?? last.histogram?.dataPoints ?? [];
  return data.map((point) => ({
    attributes: attributesOf(point),
    total: Number(point.asInt ?? point.asDouble ?? point.sum ?? 0),
    count: Number(point.count ?? 1),
  }));
}
const total = (
  name: string,
  where: (attributes: Record<string, unknown>) => boolean = () => true,
) =>
  points(name)
    .filter((point) => where(point.attributes))
    .reduce((sum, point) => sum + point.total, 0);

const parent = readCorpusEvents('cli-run-subagent-parent.ndjson');
const child = readCorpusEvents('cli-run-subagent-child.ndjson');
const both: readonly CorrexEvent[] = [...parent, ...child];
const count = (type: string) => both.filter((event) => event.payload.type === type).length;

describe('OpenTelemetry metrics', () => {
  it('reports tokens, calls, approvals and sessions of a session and its sub-session, as the log has them', async () => {
    const exporter = createLiveMetricsExporter(
      { serviceName: 'correx-test', intervalMs: 600_000, url: `${url}/v1/metrics` },
      (error) => {
        throw error;
      },
    );
    const split = parent.findIndex((event) => event.payload.type === 'subagent_started') + 1;
    for (const event of [...parent.slice(0, split), ...child, ...parent.slice(split)])
      exporter.onEvent(event);
    await exporter.shutdown();

    const received = receivedMetrics();
    expect(received.length).toBeGreaterThan(0);
    expect(received.every((item) => item.service === 'correx-test')).toBe(true);
    let input = 0;
    let output = 0;
    for (const event of both)
      if (event.payload.type === 'inference_completed') {
        input += event.payload.result.usage.inputTokens;
        output += event.payload.result.usage.outputTokens;
      }
    expect(input).toBeGreaterThan(0);
    expect(total('gen_ai.client.token.usage', (a) => a['gen_ai.token.type'] === 'input')).toBe(
      input,
    );
    expect(total('gen_ai.client.token.usage', (a) => a['gen_ai.token.type'] === 'output')).toBe(
      output,
    );
    const modelCalls = points('gen_ai.client.operation.duration').reduce((n, p) => n + p.count, 0);
    expect(modelCalls).toBe(count('inference_completed') + count('inference_failed'));
    expect(total('correx.tool.calls')).toBe(count('tool_call_proposed'));
    expect(total('correx.approvals', (a) => a['correx.approval.outcome'] === 'granted')).toBe(
      count('approval_granted'),
    );
    expect(count('approval_granted')).toBeGreaterThan(0);
    const waits = points('correx.approval.wait.duration').reduce((n, p) => n + p.count, 0);
    // Only a decision someone was asked for waited (auto grants are not waits).
    expect(waits).toBe(count('approval_requested'));
    // Both the parent and the sub-session ended, each counted once.
    expect(total('correx.sessions')).toBe(count('workflow_completed') + count('workflow_failed'));
    expect(total('correx.sessions')).toBe(2);
    // No content: only names, ids and numbers.
    const text = JSON.stringify(receiver.requests);
    for (const event of both)
      if (event.payload.type === 'inference_completed' && event.payload.result.text.length > 20)
        expect(text).not.toContain(event.payload.result.text);
  });

  it('a CLI run exports its metrics before the process exits and its trace when the session ends', async () => {
    const root = realpathSync(tempDir('correx-otel-metrics-'));
    const home = join(root, 'home');
    const workspace = join(root, 'work');
    mkdirSync(home, { recursive: true });
    mkdirSync(workspace, { recursive: true });
    writeFileSync(join(root, 'write-once.yaml'), WRITE_ONCE_WORKFLOW);
    const model = await startFakeHttpServer();
    try {
      // Each answer on the wire reports 42 input and 7 output tokens.
      model.reply(...writeThenFinish('hello.txt', 'hello\n'));
      const run = await correx(
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
          OTEL_TRACES_EXPORTER: 'otlp',
          OTEL_EXPORTER_OTLP_ENDPOINT: url,
          OTEL_SERVICE_NAME: 'correx-cli-test',
        },
      );
      expect(run.code).toBe(0);
    } finally {
      await model.close();
    }
    const received = receivedMetrics();
    expect(received.length).toBeGreaterThan(0);
    expect(received.every((item) => item.service === 'correx-cli-test')).toBe(true);
    expect(total('correx.sessions', (a) => a['correx.session.status'] === 'completed')).toBe(1);
    expect(total('gen_ai.client.token.usage', (a) => a['gen_ai.token.type'] === 'input')).toBe(84);
    expect(total('gen_ai.client.token.usage', (a) => a['gen_ai.token.type'] === 'output')).toBe(14);
    expect(total('correx.tool.calls', (a) => a['gen_ai.tool.name'] === 'write_file')).toBe(1);
    // The same process sent the session's trace live, when it ended.
    expect(traceBodies().join('')).toContain('"correx session"');
  });
});

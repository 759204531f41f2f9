import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CorrexEvent } from '../../src/core/event-catalog.js';
import { createLiveTraceExporter } from '../../src/infrastructure/telemetry/live-trace-exporter.js';
import { exportSessionTrace } from '../../src/infrastructure/telemetry/otel-trace-export.js';
import { sessionSpans } from '../../src/infrastructure/telemetry/session-spans.js';
import { correx } from '../cli/cli-process.js';
import { correxEventCatalog } from '../../src/core/event-catalog.js';
import { openSqliteEventStore } from '../../src/infrastructure/sqlite/sqlite-event-store.js';
import { recordSession } from '../../bench/bench-session.js';
import { readCorpusEvents } from '../golden/sessions/session-corpus.js';
import { tempDir } from '../support/temp-dir.js';
import { serviceOf, startOtlpReceiver, type OtlpReceiver } from './otlp-receiver.js';

/** OTLP/JSON as the receiver decodes it: every span of every request, flattened. */
type OtlpAttribute = { key: string; value: Record<string, unknown> };
type OtlpSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  startTimeUnixNano: string | number;
  endTimeUnixNano: string | number;
  attributes: OtlpAttribute[];
  events?: { name: string; attributes: OtlpAttribute[] }[];
  status?: { code?: number; message?: string };
};
type Received = { service: string | undefined; span: OtlpSpan };

/** What the official exporter sent, through a loopback OTLP/HTTP receiver, flattened. */
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

type TraceBody = {
  resourceSpans: {
    resource: { attributes: OtlpAttribute[] };
    scopeSpans: { spans: OtlpSpan[] }[];
  }[];
};
/** Every span received so far, with its resource's service name. */
function receivedSpans(): Received[] {
  const received: Received[] = [];
  for (const request of receiver.requests) {
    expect(request.path).toBe('/v1/traces');
    expect(request.contentType).toMatch(/application\/json/);
    for (const resource of (request.body as TraceBody).resourceSpans)
      for (const scope of resource.scopeSpans)
        for (const span of scope.spans)
          received.push({ service: serviceOf(resource.resource), span });
  }
  return received;
}

const attribute = (span: OtlpSpan, key: string): unknown => {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value === undefined ? undefined : (value.stringValue ?? value.intValue ?? value.boolValue);
};

/** The tree as names and parent names, with times and the attributes the tests read. */
function shape(spans: readonly OtlpSpan[]) {
  const byId = new Map(spans.map((span) => [span.spanId, span]));
  return spans
    .map((span) => ({
      name: span.name,
      parent: span.parentSpanId ? (byId.get(span.parentSpanId)?.name ?? 'missing') : null,
      start: String(span.startTimeUnixNano),
      end: String(span.endTimeUnixNano),
      attributes: Object.fromEntries(span.attributes.map((a) => [a.key, attribute(span, a.key)])),
      events: (span.events ?? []).map((event) => event.name),
    }))
    .sort((a, b) => `${a.start}${a.name}`.localeCompare(`${b.start}${b.name}`));
}

const parent = readCorpusEvents('subagent-approval-parent.ndjson');
const child = readCorpusEvents('subagent-approval-child.ndjson');
const bySession = new Map<string, readonly CorrexEvent[]>([
  [parent[0]!.sessionId, parent],
  [child[0]!.sessionId, child],
]);
const eventsOf = (id: string) => bySession.get(id) ?? [];

describe('OpenTelemetry traces', () => {
  it('sends session → stage → model and tool calls, with a sub-session under its stage, in recorded time', async () => {
    const spans = sessionSpans(parent[0]!.sessionId, eventsOf);
    await exportSessionTrace(spans, { serviceName: 'correx-test', url: `${url}/v1/traces` });
    const received = receivedSpans();
    const all = received.map((item) => item.span);
    expect(received.every((item) => item.service === 'correx-test')).toBe(true);
    expect(new Set(all.map((span) => span.traceId)).size).toBe(1);
    const tree = shape(all);
    const roots = tree.filter((span) => span.parent === null);
    expect(roots.map((span) => span.name)).toEqual(['correx session']);
    expect(roots[0]!.attributes['correx.session.id']).toBe(parent[0]!.sessionId);
    expect(roots[0]!.attributes['correx.session.status']).toBe('completed');
    // The root's times are the log's first and last timestamps.
    const nanos = (iso: string) => String(BigInt(Date.parse(iso)) * 1_000_000n);
    expect(roots[0]!.start).toBe(nanos(parent[0]!.timestamp));
    expect(roots[0]!.end).toBe(nanos(parent.at(-1)!.timestamp));
    // The sub-session is a session span under the parent's delegating stage.
    const sessions = tree.filter((span) => span.name === 'correx session');
    expect(sessions).toHaveLength(2);
    expect(sessions[1]!.parent).toMatch(/^stage /);
    const model = tree.find((span) => span.name.startsWith('chat '))!;
    expect(model.parent).toMatch(/^stage /);
    expect(model.attributes['gen_ai.operation.name']).toBe('chat');
    expect(model.attributes['gen_ai.request.model']).toBeDefined();
    expect(model.attributes['gen_ai.usage.input_tokens']).toBeDefined();
    const tool = tree.find((span) => span.name.startsWith('execute_tool '))!;
    expect(tool.attributes['gen_ai.operation.name']).toBe('execute_tool');
    expect(tool.attributes['gen_ai.tool.call.id']).toBeDefined();
    expect(tool.events).toContain('approval_requested');
    // No prompt or response content is exported.
    const text = JSON.stringify(all);
    for (const event of child)
      if (event.payload.type === 'inference_completed' && event.payload.result.text.length > 20)
        expect(text).not.toContain(event.payload.result.text);
  });

  it('gives the same tree live (as the runner appends) as after the fact', async () => {
    await exportSessionTrace(sessionSpans(parent[0]!.sessionId, eventsOf), {
      serviceName: 'correx-test',
      url: `${url}/v1/traces`,
    });
    const after = shape(receivedSpans().map((item) => item.span));
    receiver.requests.length = 0;

    const live = createLiveTraceExporter(
      { serviceName: 'correx-test', url: `${url}/v1/traces` },
      (error) => {
        throw error;
      },
    );
    // The order a runner appends in: the child runs between the parent's start and finish.
    const split = parent.findIndex((event) => event.payload.type === 'subagent_started') + 1;
    for (const event of [...parent.slice(0, split), ...child, ...parent.slice(split)])
      live.onEvent(event);
    await live.settled();
    expect(shape(receivedSpans().map((item) => item.span))).toEqual(after);
  });

  it('`correx export otel` sends a recorded session from the store', async () => {
    const home = tempDir('correx-otel-cli-');
    // Outside CORREX_HOME: correx's home is never writable by the agent.
    const workspace = join(tempDir('correx-otel-work-'), 'work');
    const demo = await correx(home, ['demo', '--workspace', workspace, '--json']);
    expect(demo.code).toBe(0);
    const sessionId = (JSON.parse(demo.stdout) as { sessionId: string }).sessionId;
    const sent = await correx(home, ['export', 'otel', sessionId, '--endpoint', url]);
    expect(sent.stderr).toBe('');
    expect(sent.code).toBe(0);
    expect(sent.stdout).toMatch(/^sent \d+ spans of session /);
    const tree = shape(receivedSpans().map((item) => item.span));
    expect(tree.filter((span) => span.parent === null).map((span) => span.name)).toEqual([
      'correx session',
    ]);
    expect(tree.some((span) => span.name.startsWith('stage '))).toBe(true);
    expect(tree.some((span) => span.name.startsWith('execute_tool '))).toBe(true);

    const missing = await correx(home, ['export', 'otel', 'no-such-session', '--endpoint', url]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no session no-such-session/);
  });

  it('`correx export otel` sends a 1,000-span session whole, in batched requests', async () => {
    const home = tempDir('correx-otel-large-');
    const path = join(home, 'large.db');
    const store = openSqliteEventStore(path, { catalog: correxEventCatalog });
    // 20 model turns of 50 tool calls each: over 1,000 spans (the exporter allows 30 requests
    // in flight; one request per span failed at the 31st).
    await recordSession(20, { store, sessionId: 'large' });
    await store.close();
    const sent = await correx(home, [
      '--store',
      path,
      'export',
      'otel',
      'large',
      '--endpoint',
      url,
    ]);
    expect(sent.stderr).toBe('');
    expect(sent.code).toBe(0);
    const count = Number(/^sent (\d+) spans of session large$/m.exec(sent.stdout)?.[1]);
    expect(count).toBeGreaterThan(1000);
    const spans = receivedSpans().map((item) => item.span);
    expect(spans).toHaveLength(count);
    expect(receiver.requests.length).toBeLessThan(count / 100);
    const ids = new Set(spans.map((span) => span.spanId));
    expect(spans.filter((span) => !span.parentSpanId).map((span) => span.name)).toEqual([
      'correx session',
    ]);
    expect(spans.every((span) => !span.parentSpanId || ids.has(span.parentSpanId))).toBe(true);
  });

  it('a receiver that refuses the trace is a named error, not a crash', async () => {
    const home = tempDir('correx-otel-refused-');
    const path = join(home, 'refused.db');
    const store = openSqliteEventStore(path, { catalog: correxEventCatalog });
    await recordSession(1, { store, sessionId: 'refused' });
    await store.close();
    // Nothing listens on port 9 of the loopback.
    const sent = await correx(home, [
      '--store',
      path,
      'export',
      'otel',
      'refused',
      '--endpoint',
      'http://127.0.0.1:9',
    ]);
    expect(sent.code).toBe(1);
    expect(sent.stderr).toMatch(/^correx: the OTLP receiver did not take the trace: /);
    expect(sent.stderr).not.toMatch(/Unhandled|at .*\.js:\d+/);
  });

  it("`OTEL_TRACES_EXPORTER=otlp correx demo` sends the demo session's trace before it exits", async () => {
    const home = tempDir('correx-otel-demo-');
    const workspace = join(tempDir('correx-otel-demo-work-'), 'work');
    const demo = await correx(home, ['demo', '--workspace', workspace, '--json'], {
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_ENDPOINT: url,
      OTEL_SERVICE_NAME: 'correx-demo-test',
    });
    expect(demo.code).toBe(0);
    const sessionId = (JSON.parse(demo.stdout) as { sessionId: string }).sessionId;
    const received = receivedSpans();
    expect(received.every((item) => item.service === 'correx-demo-test')).toBe(true);
    const roots = received.filter((item) => !item.span.parentSpanId).map((item) => item.span);
    expect(roots).toHaveLength(1);
    expect(attribute(roots[0]!, 'correx.session.id')).toBe(sessionId);
    expect(received.some((item) => item.span.name.startsWith('execute_tool '))).toBe(true);
  });
});

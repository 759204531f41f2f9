import { describe, expect, it } from 'vitest';
import { replay } from '../../src/core/events/replay.js';
import type { KernelObserver } from '../../src/core/kernel/index.js';
import {
  kernelMetricsProjection,
  type MetricSignal,
} from '../../src/core/kernel/queries/kernel-metrics.js';
import { runSession } from '../../src/core/kernel/index.js';
import {
  closeStoresAfterEach,
  eventsOf,
  expectReplayIdentical,
  implementOnlyWorkflow,
  livePorts,
  newClock,
  newIds,
  openStore,
  scenarioConfig,
  scenarioWorkspace,
  scriptedModel,
} from './kernel-harness.js';

const stores = closeStoresAfterEach();

describe('observability hooks', () => {
  it('tell an observer what the metrics projection folds from the same log', async () => {
    const { workspace, storePath } = scenarioWorkspace({});
    const store = openStore(storePath);
    stores.push(store);
    const config = scenarioConfig({ workflow: implementOnlyWorkflow(2) });
    const model = scriptedModel([
      { fail: { category: 'provider_down', message: 'HTTP 503' } },
      {
        toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'a\n' } }],
        usage: { inputTokens: 120, outputTokens: 30 },
      },
      {
        text: JSON.stringify({ summary: 'wrote a.txt', filesChanged: ['a.txt'] }),
        usage: { inputTokens: 200, outputTokens: 40 },
      },
    ]);
    const seen: { kind: MetricSignal['kind'] | 'event'; value: unknown }[] = [];
    const observer: KernelObserver = {
      onEvent: () => {
        throw new Error('an observer that throws changes nothing');
      },
      onStageTiming: (value) => void seen.push({ kind: 'stage_timing', value }),
      onTransition: (value) => void seen.push({ kind: 'transition', value }),
      onTokens: (value) => void seen.push({ kind: 'tokens', value }),
      onApproval: (value) => void seen.push({ kind: 'approval', value }),
      onArtifact: (value) => void seen.push({ kind: 'artifact', value }),
    };
    const outcome = await runSession(
      {
        store,
        sessionId: 's-observed',
        config,
        ports: livePorts(model),
        clock: newClock(),
        ids: newIds(),
        observer,
      },
      { type: 'start', task: 'Write a.txt', workspace, workflowId: 'implement-only', mode: 'auto' },
    );
    expect(outcome.status).toBe('completed');

    const { state: metrics } = await replay(store, kernelMetricsProjection, 's-observed');
    const events = await eventsOf(store, 's-observed');
    const stamp = (type: string, nth = 0) =>
      events.filter((event) => event.payload.type === type)[nth]!.timestamp;
    expect(metrics.stages).toEqual([
      {
        stageId: 'implement',
        attempt: 1,
        outcome: 'failed',
        startedAt: stamp('stage_started'),
        endedAt: stamp('stage_failed'),
        durationMs: Date.parse(stamp('stage_failed')) - Date.parse(stamp('stage_started')),
      },
      {
        stageId: 'implement',
        attempt: 2,
        outcome: 'completed',
        startedAt: stamp('stage_started', 1),
        endedAt: stamp('stage_completed'),
        durationMs: Date.parse(stamp('stage_completed')) - Date.parse(stamp('stage_started', 1)),
      },
    ]);
    expect(metrics.stages[1]!.durationMs).toBeGreaterThan(0);
    expect(metrics.tokens.map((t) => [t.requestId, t.stageId, t.input, t.output])).toEqual([
      ['implement.2.1', 'implement', 120, 30],
      ['implement.2.2', 'implement', 200, 40],
    ]);
    expect(metrics.totals).toEqual({ inputTokens: 320, outputTokens: 70 });
    expect(metrics.approvals).toMatchObject([
      { callId: 'implement.2.1.1', decision: 'granted', by: { kind: 'auto', id: 'auto' } },
    ]);
    expect(metrics.transitions.map((t) => [t.edge, t.condition, t.end])).toEqual([
      ['implement:retry', 'retry', null],
      ['implement->end:completed', 'success', 'completed'],
    ]);
    expect(metrics.artifacts.map((a) => [a.status, a.kind, a.stageId])).toEqual([
      ['proposed', 'change', 'implement'],
      ['accepted', 'change', 'implement'],
    ]);
    expect(metrics.artifacts[0]!.hash).toBe(metrics.artifacts[1]!.hash);

    // The live observer was told exactly what the projection holds, in log order.
    const byKind = (kind: string) => seen.filter((s) => s.kind === kind).map((s) => s.value);
    expect(byKind('stage_timing')).toEqual(metrics.stages);
    expect(byKind('tokens')).toEqual(metrics.tokens);
    expect(byKind('approval')).toEqual(metrics.approvals);
    expect(byKind('transition')).toEqual(metrics.transitions);
    expect(byKind('artifact')).toEqual(metrics.artifacts);
    await expectReplayIdentical(store, 's-observed', config);
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createInMemoryArtifactStore } from '../../src/core/artifacts/in-memory-artifact-store.js';
import { replaySession, runSession } from '../../src/core/kernel/index.js';
import {
  eventsOf,
  expectReplayIdentical,
  livePorts,
  newClock,
  newIds,
  openStore,
  scenarioConfig,
  scenarioWorkspace,
  scriptedModel,
  typesOf,
  closeStoresAfterEach,
} from './kernel-harness.js';

const stores = closeStoresAfterEach();

describe('a session through plan → implement → verify → review', () => {
  it('runs every stage with real tools on a real workspace, then replays byte for byte', async () => {
    const { workspace, storePath } = scenarioWorkspace({ 'greet.js': "console.log('hello');\n" });
    const store = openStore(storePath);
    stores.push(store);
    const model = scriptedModel([
      { toolCalls: [{ name: 'read_file', args: { path: 'greet.js' } }] },
      {
        text: JSON.stringify({
          summary: 'greet loudly',
          steps: ['edit greet.js'],
          files: [{ path: 'greet.js', change: 'modify' }],
        }),
      },
      {
        toolCalls: [
          { name: 'write_file', args: { path: 'greet.js', content: "console.log('HELLO');\n" } },
        ],
      },
      { text: JSON.stringify({ summary: 'uppercased', filesChanged: ['greet.js'] }) },
      { toolCalls: [{ name: 'exec', args: { argv: ['node', 'greet.js'] } }] },
      { text: JSON.stringify({ summary: 'prints HELLO', passed: true }) },
      {
        text: JSON.stringify({
          verdict: 'approved',
          reviewedArtifact: '{{artifact:change}}',
          notes: [],
        }),
      },
    ]);
    const config = scenarioConfig();
    const artifacts = createInMemoryArtifactStore();
    const outcome = await runSession(
      {
        store,
        artifacts,
        sessionId: 's-happy',
        config,
        ports: livePorts(model),
        clock: newClock(),
        ids: newIds(),
      },
      {
        type: 'start',
        task: 'Make greet.js shout',
        workspace,
        workflowId: 'default-coding',
        mode: 'auto',
      },
    );

    expect(outcome.status).toBe('completed');
    expect(outcome.waiting).toBeNull();
    expect(readFileSync(join(workspace, 'greet.js'), 'utf8')).toBe("console.log('HELLO');\n");
    const events = await eventsOf(store, 's-happy');
    const types = typesOf(events);
    expect(types.filter((type) => type === 'stage_completed')).toHaveLength(4);
    expect(types.filter((type) => type === 'tool_receipt')).toHaveLength(3);
    expect(types.at(-1)).toBe('workflow_completed');
    // Every call is assessed and approved before it starts, and starts before its receipt.
    for (const receipt of events.filter((event) => event.payload.type === 'tool_receipt')) {
      const callId = (receipt.payload as { callId: string }).callId;
      const order = events
        .filter((event) => (event.payload as { callId?: string }).callId === callId)
        .map((event) => event.payload.type)
        .filter((type) => type !== 'world_observed');
      expect(order).toEqual([
        'tool_call_proposed',
        'tool_call_assessed',
        'approval_granted',
        'tool_call_started',
        'tool_receipt',
      ]);
    }
    const exec = events.find(
      (event) => event.payload.type === 'tool_receipt' && event.payload.tool === 'exec',
    );
    expect(exec?.payload).toMatchObject({ outcome: 'succeeded', exitCode: 0 });
    expect((exec?.payload as { output: string }).output).toContain('HELLO');
    expect(model.requests()).toBe(7);

    // Every accepted artifact is in the artifact store under the hash its events name, with lineage.
    const stored = await artifacts.listBySession('s-happy');
    expect(stored.map((artifact) => artifact.kind)).toEqual([
      'plan',
      'change',
      'verification',
      'review',
    ]);
    const completed = events.flatMap((event) =>
      event.payload.type === 'stage_completed' ? [event.payload.artifactHash] : [],
    );
    expect(stored.map((artifact) => artifact.hash)).toEqual(completed);
    const review = stored[3]!;
    expect((review.content as { reviewedArtifact: string }).reviewedArtifact).toBe(stored[1]!.hash);
    expect((await artifacts.lineage(review.hash)).map((artifact) => artifact.kind)).toEqual([
      'review',
      'plan',
      'change',
      'verification',
    ]);

    const report = await expectReplayIdentical(store, 's-happy', config);
    expect(report.events).toBe(events.length);
    expect(report.state.session.status).toBe('completed');
  });

  it('reports the first divergence with both canonical payloads when the configuration differs', async () => {
    const { workspace, storePath } = scenarioWorkspace({ 'a.txt': 'a\n' });
    const store = openStore(storePath);
    stores.push(store);
    const fail = { fail: { category: 'provider_down' as const, message: 'connection refused' } };
    const model = scriptedModel([fail, fail, fail]);
    const config = scenarioConfig();
    const outcome = await runSession(
      {
        store,
        sessionId: 's-diverge',
        config,
        ports: livePorts(model),
        clock: newClock(),
        ids: newIds(),
      },
      { type: 'start', task: 'anything', workspace, workflowId: 'default-coding', mode: 'auto' },
    );
    // The stage's retry policy (3 attempts for provider failures) runs out, then the workflow fails.
    expect(outcome.status).toBe('failed');
    const events = await eventsOf(store, 's-diverge');
    expect(
      events
        .filter((event) => event.payload.type === 'stage_started')
        .map((event) => event.payload),
    ).toEqual([
      { type: 'stage_started', stageId: 'plan', attempt: 1 },
      { type: 'stage_started', stageId: 'plan', attempt: 2 },
      { type: 'stage_started', stageId: 'plan', attempt: 3 },
    ]);
    expect(events.at(-1)?.payload).toMatchObject({ type: 'workflow_failed', category: 'provider' });
    expect(await replaySession(store, 's-diverge', config)).toMatchObject({ ok: true });

    const other = scenarioConfig({ limits: { inferenceTimeoutMs: 5_000 } });
    const report = await replaySession(store, 's-diverge', other);
    expect(report.ok).toBe(false);
    if (report.ok) return;
    const firstRequest = events.find((event) => event.payload.type === 'inference_requested');
    expect(report.divergence.sequence).toBe(firstRequest?.sequence);
    expect(report.divergence.expected).toContain('"type":"inference_requested"');
    expect(report.divergence.actual).toContain('"type":"inference_requested"');
    expect(report.divergence.expected).not.toBe(report.divergence.actual);
  });
});

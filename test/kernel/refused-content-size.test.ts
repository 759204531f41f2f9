import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/core/events/canonical-json.js';
import { currentBehaviour } from '../../src/core/kernel/config/behaviour.js';
import { BOUNDED_REFUSED_ARGUMENTS } from '../../src/core/kernel/config/kernel-flags.js';
import { runSession, recordedKernelConfig, replaySession } from '../../src/core/kernel/index.js';
import { nodeSha256 } from '../../src/infrastructure/system/node-sha256.js';
import {
  closeStoresAfterEach,
  eventsOf,
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

/**
 * Issue 32.7: arguments the kernel refuses (here against the tool's schema: an 8 MB write past
 * write_file's 4,000,000 characters, a 100 KB path past 4,096) are recorded as a bounded head
 * and a digest, never whole, in the answer and in the proposal that echoes it.
 */
async function run(sessionId: string, flags: ReadonlySet<string>) {
  const { workspace, storePath } = scenarioWorkspace({});
  const store = openStore(storePath);
  stores.push(store);
  const behaviour = { kernelVersion: currentBehaviour().kernelVersion, flags };
  const config = scenarioConfig({ workflow: implementOnlyWorkflow(), behaviour });
  const model = scriptedModel([
    {
      toolCalls: [
        { name: 'write_file', args: { path: 'big.txt', content: 'x'.repeat(8_000_000) } },
        { name: 'read_file', args: { path: `${'d/'.repeat(50_000)}f.txt` } },
      ],
    },
    { text: JSON.stringify({ summary: 'nothing written', filesChanged: [] }) },
  ]);
  const outcome = await runSession(
    { store, sessionId, config, ports: livePorts(model), clock: newClock(), ids: newIds() },
    { type: 'start', task: 'Write big.txt', workspace, workflowId: 'implement-only', mode: 'auto' },
  );
  expect(outcome.status).toBe('completed');
  const report = await replaySession(
    store,
    sessionId,
    await recordedKernelConfig(store, sessionId, nodeSha256),
  );
  if (!report.ok) expect.fail(`replay diverged: ${JSON.stringify(report.divergence, null, 2)}`);
  const events = await eventsOf(store, sessionId);
  const largest = (type: string) =>
    Math.max(
      ...events
        .filter((event) => event.payload.type === type)
        .map((event) => canonicalJson(event).length),
    );
  const rejections = events.flatMap((event) =>
    event.payload.type === 'tool_call_rejected' ? [event.payload] : [],
  );
  return { largest, rejections, events, model };
}

describe('refused arguments in the log', () => {
  it('are kept as a bounded head with their length and digest, and the refusal says why', async () => {
    const { largest, rejections, events, model } = await run(
      's-refused-size',
      currentBehaviour().flags,
    );
    expect(largest('inference_completed')).toBeLessThan(16 * 1024);
    expect(largest('tool_call_proposed')).toBeLessThan(8 * 1024);
    expect(Math.max(...events.map((event) => canonicalJson(event).length))).toBeLessThan(64 * 1024);
    const answer = events.find((event) => event.payload.type === 'inference_completed')!
      .payload as { result: { toolCalls: Record<string, unknown>[] } };
    expect(answer.result.toolCalls[0]).toMatchObject({
      argsLength: 8_000_031,
      argsSha256: expect.stringMatching(/^[0-9a-f]{64}$/) as string,
      argsError: expect.stringContaining('content: Too big') as string,
    });
    expect(answer.result.toolCalls[0]).not.toHaveProperty('args');
    expect(rejections.map((rejection) => [rejection.reason, rejection.message])).toEqual([
      [
        'malformed_args',
        expect.stringMatching(
          /^the arguments do not match the schema: content: Too big.*\(8000031 characters; only the first 2048 are kept\)$/,
        ),
      ],
      [
        'malformed_args',
        expect.stringMatching(
          /^the arguments do not match the schema: path: Too big.*\(100016 characters; only the first 2048 are kept\)$/,
        ),
      ],
    ]);
    // The model is told why, and never sent its megabytes back.
    expect(model.request(1)).toContain('content: Too big');
    expect(model.request(1).length).toBeLessThan(64 * 1024);
  });

  it('are stored whole in a session recorded without bounded-refused-arguments', async () => {
    const flags = new Set(currentBehaviour().flags);
    flags.delete(BOUNDED_REFUSED_ARGUMENTS.name);
    const { largest } = await run('s-refused-size-legacy', flags);
    expect(largest('inference_completed')).toBeGreaterThan(8_000_000);
    expect(largest('tool_call_proposed')).toBeGreaterThan(8_000_000);
  });
});

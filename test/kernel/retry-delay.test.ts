import { describe, expect, it } from 'vitest';
import type { Clock } from '../../src/core/base/clock.js';
import type { Timer } from '../../src/core/kernel/index.js';
import { startSession } from '../../src/core/kernel/index.js';
import { createNodeTimer } from '../../src/infrastructure/kernel/node-timer.js';
import {
  closeStoresAfterEach,
  eventsOf,
  expectReplayIdentical,
  implementOnlyWorkflow,
  livePorts,
  newIds,
  openStore,
  scenarioConfig,
  scenarioWorkspace,
  scriptedModel,
  typesOf,
} from './kernel-harness.js';

const stores = closeStoresAfterEach();

const rateLimited = {
  fail: { category: 'rate_limit' as const, message: 'HTTP 429', retryAfterMs: 50 },
};
const done = { text: JSON.stringify({ summary: 'done', filesChanged: [] }) };

/** A clock that steps 7 ms per reading and a timer that advances it by what is slept. */
function virtualTime(): { clock: Clock; timer: Timer; slept: number[] } {
  let current = Date.parse('2026-11-30T12:00:00.000Z');
  const slept: number[] = [];
  return {
    slept,
    clock: {
      now() {
        const value = new Date(current).toISOString();
        current += 7;
        return value;
      },
    },
    timer: {
      async sleep(ms) {
        slept.push(ms);
        current += ms;
      },
    },
  };
}

async function setup(sessionId: string, turns: Parameters<typeof scriptedModel>[0]) {
  const { workspace, storePath } = scenarioWorkspace({});
  const store = openStore(storePath);
  stores.push(store);
  const config = scenarioConfig({ workflow: implementOnlyWorkflow(2) });
  const model = scriptedModel(turns);
  const start = {
    type: 'start' as const,
    task: 'Do nothing',
    workspace,
    workflowId: 'implement-only',
    mode: 'auto' as const,
  };
  return { store, config, model, start, sessionId };
}

describe('retry delays a provider asks for (retryAfterMs)', () => {
  it('records the delay, waits it out before the next model call, and replays', async () => {
    const { store, config, model, start, sessionId } = await setup('s-retry-after', [
      rateLimited,
      done,
    ]);
    const time = virtualTime();
    const run = startSession(
      {
        store,
        sessionId,
        config,
        ports: { ...livePorts(model), timer: time.timer },
        clock: time.clock,
        ids: newIds(),
      },
      start,
    );
    const outcome = await run.done;
    expect(outcome.status).toBe('completed');
    const events = await eventsOf(store, sessionId);
    const types = typesOf(events);
    const failed = types.indexOf('inference_failed');
    // A transient failure (transient-provider-waits): the same attempt calls again after the wait.
    expect(types.slice(failed, failed + 4)).toEqual([
      'inference_failed',
      'retry_delay_started',
      'retry_delay_elapsed',
      'inference_requested',
    ]);
    expect(types).not.toContain('stage_failed');
    const failure = events[failed]!;
    const delay = events[failed + 1]!;
    const elapsed = events[failed + 2]!;
    const until = new Date(Date.parse(failure.timestamp) + 50).toISOString();
    expect(delay.payload).toEqual({
      type: 'retry_delay_started',
      requestId: 'implement.1.1',
      provider: 'scripted',
      delayMs: 50,
      until,
    });
    expect(elapsed.payload).toEqual({ type: 'retry_delay_elapsed', until });
    // The runner slept what was left of the delay, and the next call was recorded after `until`.
    expect(time.slept).toHaveLength(1);
    expect(time.slept[0]).toBeGreaterThan(0);
    expect(time.slept[0]).toBeLessThanOrEqual(50);
    expect(Date.parse(elapsed.timestamp)).toBeGreaterThanOrEqual(Date.parse(until));
    expect(Date.parse(events[failed + 3]!.timestamp)).toBeGreaterThanOrEqual(Date.parse(until));
    expect(model.requests()).toBe(2);
    await expectReplayIdentical(store, sessionId, config);
  });

  it('waits on the real Node timer too', async () => {
    const { store, config, model, start, sessionId } = await setup('s-retry-node', [
      rateLimited,
      done,
    ]);
    const outcome = await startSession(
      {
        store,
        sessionId,
        config,
        ports: { ...livePorts(model), timer: createNodeTimer() },
        clock: { now: () => new Date().toISOString() },
        ids: newIds(),
      },
      start,
    ).done;
    expect(outcome.status).toBe('completed');
    const events = await eventsOf(store, sessionId);
    const failure = events.find((event) => event.payload.type === 'inference_failed')!;
    const elapsed = events.find((event) => event.payload.type === 'retry_delay_elapsed')!;
    expect(Date.parse(elapsed.timestamp)).toBeGreaterThanOrEqual(
      Date.parse(failure.timestamp) + 50,
    );
    await expectReplayIdentical(store, sessionId, config);
  });

  it('a cancel aborts the wait: nothing elapses and no model call follows', async () => {
    const { store, config, model, start, sessionId } = await setup('s-retry-cancel', [
      rateLimited,
      done,
    ]);
    const time = virtualTime();
    const holder: { run?: ReturnType<typeof startSession> } = {};
    const timer: Timer = {
      sleep: (_ms, signal) =>
        new Promise<void>((resolve) => {
          signal.addEventListener('abort', () => resolve(), { once: true });
          void holder.run!.cancel('alice', 'not now');
        }),
    };
    const run = (holder.run = startSession(
      {
        store,
        sessionId,
        config,
        ports: { ...livePorts(model), timer },
        clock: time.clock,
        ids: newIds(),
      },
      start,
    ));
    const outcome = await run.done;
    expect(outcome.status).toBe('cancelled');
    const types = typesOf(await eventsOf(store, sessionId));
    expect(types.slice(-2)).toEqual(['retry_delay_started', 'workflow_cancelled']);
    expect(types).not.toContain('retry_delay_elapsed');
    expect(model.requests()).toBe(1);
    await expectReplayIdentical(store, sessionId, config);
  });

  it('a pause aborts the wait; resuming waits again for what is left', async () => {
    const { store, config, model, start, sessionId } = await setup('s-retry-pause', [
      rateLimited,
      done,
    ]);
    const time = virtualTime();
    const holder: { run?: ReturnType<typeof startSession> } = {};
    const pausing: Timer = {
      sleep: (_ms, signal) =>
        new Promise<void>((resolve) => {
          signal.addEventListener('abort', () => resolve(), { once: true });
          void holder.run!.pause('alice');
        }),
    };
    const options = {
      store,
      sessionId,
      config,
      clock: time.clock,
      ids: newIds(),
    };
    holder.run = startSession(
      { ...options, ports: { ...livePorts(model), timer: pausing } },
      start,
    );
    expect((await holder.run.done).waiting).toEqual({ kind: 'paused' });
    expect(typesOf(await eventsOf(store, sessionId))).not.toContain('retry_delay_elapsed');
    const resumed = await startSession(
      { ...options, ports: { ...livePorts(model), timer: time.timer } },
      { type: 'resume', by: 'alice' },
    ).done;
    expect(resumed.status).toBe('completed');
    const types = typesOf(await eventsOf(store, sessionId));
    const paused = types.indexOf('orchestration_paused');
    expect(types.slice(paused, paused + 4)).toEqual([
      'orchestration_paused',
      'orchestration_resumed',
      'retry_delay_elapsed',
      'inference_requested',
    ]);
    expect(time.slept).toHaveLength(1);
    await expectReplayIdentical(store, sessionId, config);
  });
});

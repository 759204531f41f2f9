import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Clock } from '../../src/core/base/clock.js';
import { replaySession, runSession } from '../../src/core/kernel/index.js';
import {
  closeStoresAfterEach,
  eventsOf,
  implementOnlyWorkflow,
  livePorts,
  newIds,
  openStore,
  scenarioConfig,
  scenarioWorkspace,
  scriptedModel,
} from './kernel-harness.js';

const stores = closeStoresAfterEach();

/** A clock a test moves by hand (each reading steps 1 ms, so timestamps stay ordered). */
function handClock(start: string): Clock & { advance(ms: number): void } {
  let current = Date.parse(start);
  return {
    now: () => new Date(current++).toISOString(),
    advance: (ms) => void (current += ms),
  };
}

const write = { toolCalls: [{ name: 'write_file', args: { path: 'notes.txt', content: 'x\n' } }] };
const done = { text: JSON.stringify({ summary: 'gave up on the write', filesChanged: [] }) };

describe("the policy's approvalTimeoutMs", () => {
  it('denies a call nobody decided on by its deadline, recorded, never approved', async () => {
    const { workspace, storePath } = scenarioWorkspace({});
    const store = openStore(storePath);
    stores.push(store);
    const config = scenarioConfig({
      workflow: implementOnlyWorkflow(),
      policy: { approvalTimeoutMs: 60_000 },
    });
    const clock = handClock('2026-11-30T12:00:00.000Z');
    const drive = (round: number) =>
      runSession(
        {
          store,
          sessionId: 's-timeout',
          config,
          ports: livePorts(scriptedModel([write, done].slice(round === 0 ? 0 : 1))),
          clock,
          ids: newIds(`r${round}`),
        },
        round === 0
          ? {
              type: 'start',
              task: 'Write notes.txt',
              workspace,
              workflowId: 'implement-only',
              mode: 'prompt',
            }
          : undefined,
      );

    const asked = await drive(0);
    const requested = (await eventsOf(store, 's-timeout')).find(
      (event) => event.payload.type === 'approval_requested',
    )!;
    const deadline = (requested.payload as { deadline?: string }).deadline!;
    // Counted from the recorded time the decision read (the answer that proposed the call).
    expect(Date.parse(deadline) - Date.parse(requested.timestamp)).toBeGreaterThan(59_000);
    expect(Date.parse(deadline) - Date.parse(requested.timestamp)).toBeLessThanOrEqual(60_000);
    expect(asked.waiting).toEqual({ kind: 'approval', callId: 'implement.1.1.1', deadline });

    // Before the deadline a wake changes nothing: it still waits for a person.
    clock.advance(30_000);
    const before = await store.lastSequence('s-timeout');
    expect((await drive(1)).waiting).toMatchObject({ kind: 'approval', deadline });
    expect(await store.lastSequence('s-timeout')).toBe(before);

    // Past it, the runner records the timeout and the call is denied; the model is told.
    clock.advance(31_000);
    const finished = await drive(1);
    expect(finished.status).toBe('completed');
    const payloads = (await eventsOf(store, 's-timeout')).map((event) => event.payload);
    expect(payloads.filter((p) => p.type.startsWith('approval_'))).toEqual([
      expect.objectContaining({ type: 'approval_requested', callId: 'implement.1.1.1', deadline }),
      { type: 'approval_timed_out', callId: 'implement.1.1.1', deadline },
      {
        type: 'approval_denied',
        callId: 'implement.1.1.1',
        by: { kind: 'timeout', id: 'approvalTimeoutMs' },
        reason: expect.stringContaining(`nobody decided by ${deadline}`),
      },
    ]);
    expect(payloads.some((p) => p.type === 'tool_receipt')).toBe(false);
    expect(existsSync(join(workspace, 'notes.txt'))).toBe(false);
    // Replayed with the configuration the session recorded (the timeout is part of its policy).
    const report = await replaySession(store, 's-timeout');
    expect(report.ok).toBe(true);
  });

  it('waits for a person as before when the policy sets no timeout', async () => {
    const { workspace, storePath } = scenarioWorkspace({});
    const store = openStore(storePath);
    stores.push(store);
    const outcome = await runSession(
      {
        store,
        sessionId: 's-no-timeout',
        config: scenarioConfig({ workflow: implementOnlyWorkflow() }),
        ports: livePorts(scriptedModel([write, done])),
        clock: handClock('2026-11-30T12:00:00.000Z'),
        ids: newIds(),
      },
      { type: 'start', task: 'Write', workspace, workflowId: 'implement-only', mode: 'prompt' },
    );
    expect(outcome.waiting).toEqual({ kind: 'approval', callId: 'implement.1.1.1' });
  });
});

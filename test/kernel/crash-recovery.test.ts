import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { KernelCommand } from '../../src/core/kernel/index.js';
import { createCountingIdSource } from '../../src/core/base/id-source.js';
import { sha256Hex } from '../../src/core/base/sha256.js';
import { FAULT_POINTS } from '../../src/infrastructure/system/fault-point.js';
import type { CorrexEventStore } from '../../src/core/event-catalog.js';
import { runSession } from '../../src/core/kernel/index.js';
import { APPEND_JS, CRASH_SCRIPT, EFFECT_MJS, EFFECT_SCRIPT, PAIR_SCRIPT } from './crash-script.js';
import {
  eventsOf,
  expectReplayIdentical,
  implementOnlyWorkflow,
  livePorts,
  openStore,
  scenarioConfig,
  scenarioWorkspace,
  scriptedModel,
} from './kernel-harness.js';
import { killWhenPaused, runChild } from './crash-process.js';
import { resumeOnce } from './resume-once.js';

/** A last-resort bound for a test of real processes on a busy machine: they wait for states, never for time. */
const OUTER_BOUND_MS = 300_000;

/**
 * Resumes the session in this process until it ends. When the kernel asks whether an exec of
 * unknown effect may run again, the person looks at the workspace, as a person would: the line
 * is there, so deny; it is not, so approve.
 */
async function resumeUntilDone(store: CorrexEventStore, workspace: string): Promise<string[]> {
  const asked: string[] = [];
  // Killed before even the start was recorded: start it now.
  let command: KernelCommand | undefined =
    (await store.lastSequence('s-crash')) === 0
      ? {
          type: 'start',
          task: 'write a, log once, write b',
          workspace,
          workflowId: 'implement-only',
          mode: 'auto',
        }
      : undefined;
  for (let round = 0; round < 5; round++) {
    const answered = (await store.read('s-crash')).filter(
      (event) => event.payload.type === 'inference_completed',
    ).length;
    const outcome = await runSession(
      {
        store,
        sessionId: 's-crash',
        config: scenarioConfig({ workflow: implementOnlyWorkflow() }),
        ports: livePorts(scriptedModel(CRASH_SCRIPT.slice(answered))),
        clock: { now: () => new Date().toISOString() },
        ids: createCountingIdSource(`resume${round}`),
      },
      command,
    );
    if (outcome.waiting?.kind !== 'approval') return asked;
    const callId = outcome.waiting.callId;
    asked.push(callId);
    command = existsSync(join(workspace, 'log.txt'))
      ? { type: 'deny', callId, by: 'tester', reason: 'it already ran once' }
      : { type: 'approve', callId, by: 'tester', reason: 'it never ran' };
  }
  throw new Error('the session did not finish');
}

async function crashAndRecover(crash: { env?: Record<string, string>; pauseAt?: string }) {
  const { workspace, storePath } = scenarioWorkspace({ 'append.js': APPEND_JS });
  const args = [storePath, workspace, 's-crash'];
  const first =
    crash.pauseAt === undefined
      ? await runChild(args, crash.env)
      : await killWhenPaused(args, crash.env ?? {}, crash.pauseAt, dirname(storePath));
  const store = openStore(storePath);
  try {
    const asked = await resumeUntilDone(store, workspace);
    const events = await eventsOf(store, 's-crash');
    const config = scenarioConfig({ workflow: implementOnlyWorkflow() });
    return {
      first,
      asked,
      events,
      workspace,
      report: await expectReplayIdentical(store, 's-crash', config),
    };
  } finally {
    await store.close();
  }
}

function expectExactlyOnce(result: Awaited<ReturnType<typeof crashAndRecover>>) {
  const { events, workspace, report } = result;
  expect(report.state.session.status).toBe('completed');
  expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe('one\n');
  expect(readFileSync(join(workspace, 'b.txt'), 'utf8')).toBe('two\n');
  // The non-idempotent exec ran exactly once: not repeated after the crash, not lost.
  expect(readFileSync(join(workspace, 'log.txt'), 'utf8')).toBe('x\n');
  const ids = events.map((event) => event.eventId);
  expect(new Set(ids).size).toBe(ids.length);
  expect(events.map((event) => event.sequence)).toEqual(events.map((_event, index) => index + 1));
  const proposals = events
    .filter((event) => event.payload.type === 'tool_call_proposed')
    .map((event) => (event.payload as { callId: string }).callId);
  expect(proposals).toEqual(['implement.1.1.1', 'implement.1.2.1', 'implement.1.3.1']);
  for (const callId of proposals) {
    // Every call is closed exactly once: by its receipt, by "applied" recovery, or by a denial.
    const closing = events.filter((event) => {
      const payload = event.payload as { type: string; callId?: string; action?: string };
      if (payload.callId !== callId) return false;
      return (
        payload.type === 'tool_receipt' ||
        payload.type === 'approval_denied' ||
        (payload.type === 'tool_call_classified' && payload.action === 'record')
      );
    });
    expect(closing, `call ${callId}`).toHaveLength(1);
  }
}

// Each case spawns fresh tsx processes (seconds each), so the cases run side by side.
describe.concurrent('crash-exact recovery (kill -9 of a real child process)', () => {
  it(
    'runs to the end without a crash',
    async () => {
      const result = await crashAndRecover({});
      expect(result.first).toMatchObject({ code: 0, outcome: { status: 'completed' } });
      expectExactlyOnce(result);
    },
    OUTER_BOUND_MS,
  );

  // Right after appends of every kind: the command, a decided batch (workflow start, a proposal,
  // assessment + approval + intent, a stage end), a probe result, a receipt, a model answer.
  for (const at of [1, 2, 5, 6, 7, 8, 11, 13, 14, 18, 22, 26, 28]) {
    it(
      `is killed after its append #${at} and resumes with nothing lost or repeated`,
      async () => {
        const result = await crashAndRecover({ env: { CRASH_AT_EVENT: String(at) } });
        expect(result.first.signal).toBe('SIGKILL');
        expectExactlyOnce(result);
      },
      OUTER_BOUND_MS,
    );
  }

  it(
    'classifies a write that took effect before the kill as applied and does not repeat it',
    async () => {
      const result = await crashAndRecover({ env: { CRASH_AFTER_TOOL: '1' } });
      expect(result.first.signal).toBe('SIGKILL');
      expectExactlyOnce(result);
      const classified = result.events.find(
        (event) => event.payload.type === 'tool_call_classified',
      );
      expect(classified?.payload).toMatchObject({
        callId: 'implement.1.1.1',
        classification: 'applied',
        action: 'record',
      });
    },
    OUTER_BOUND_MS,
  );

  it(
    'asks a person before re-running an exec whose effect cannot be observed',
    async () => {
      const result = await crashAndRecover({ env: { CRASH_AFTER_TOOL: '2' } });
      expect(result.first.signal).toBe('SIGKILL');
      expect(result.asked).toEqual(['implement.1.2.1']);
      expectExactlyOnce(result);
      expect(
        result.events.find((event) => event.payload.type === 'tool_call_classified')?.payload,
      ).toMatchObject({
        classification: 'unknown',
        action: 'ask',
      });
    },
    OUTER_BOUND_MS,
  );

  it(
    'never re-runs an interrupted exec because its redirect target is unchanged',
    async () => {
      // `node effect.mjs >> marker.log` is killed (the driver by kill -9, mid-effect) after the
      // program appended to other.log but before anything reached marker.log.
      const { workspace, storePath } = scenarioWorkspace({
        'effect.mjs': EFFECT_MJS,
        'marker.log': 'an earlier run\n',
      });
      const other = join(workspace, 'other.log');
      const markerHash = sha256Hex('an earlier run\n');
      const first = await runChild(
        [storePath, workspace, 's-effect'],
        { CRASH_SCRIPT: 'effect' },
        () => existsSync(other),
      );
      expect(first.signal).toBe('SIGKILL');
      // The orphaned program would write to marker.log a minute later: end it now.
      const pid = Number(/ran (\d+)/.exec(readFileSync(other, 'utf8'))?.[1]);
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
      expect(readFileSync(join(workspace, 'marker.log'), 'utf8')).toBe('an earlier run\n');
      const store = openStore(storePath);
      try {
        const config = scenarioConfig({ workflow: implementOnlyWorkflow() });
        const resume = (round: number, command?: KernelCommand) =>
          runSession(
            {
              store,
              sessionId: 's-effect',
              config,
              ports: livePorts(scriptedModel(EFFECT_SCRIPT.slice(1))),
              clock: { now: () => new Date().toISOString() },
              ids: createCountingIdSource(`effect${round}`),
            },
            command,
          );
        const asked = await resume(0);
        expect(asked.waiting).toMatchObject({ kind: 'approval', callId: 'implement.1.1.1' });
        // The person sees the line in other.log: it ran, so it must not run again.
        const done = await resume(1, {
          type: 'deny',
          callId: 'implement.1.1.1',
          by: 'tester',
          reason: 'other.log shows it ran',
        });
        expect(done.status).toBe('completed');
        expect(readFileSync(other, 'utf8').trim().split('\n')).toHaveLength(1);
        const payloads = (await eventsOf(store, 's-effect')).map((event) => event.payload);
        const interrupted = payloads.findIndex(
          (payload) => payload.type === 'tool_call_interrupted',
        );
        expect(interrupted).toBeGreaterThan(0);
        // Crash recovery records a fresh observation of the call's target before it classifies.
        expect(payloads.slice(interrupted)).toContainEqual(
          expect.objectContaining({
            type: 'world_observed',
            callId: 'implement.1.1.1',
            observation: expect.objectContaining({ path: join(workspace, 'marker.log') }),
          }),
        );
        expect(payloads.find((payload) => payload.type === 'tool_call_classified')).toMatchObject({
          classification: 'unknown',
          action: 'ask',
          targets: [
            { path: join(workspace, 'marker.log'), recorded: markerHash, observed: markerHash },
          ],
        });
        await expectReplayIdentical(store, 's-effect', config);
      } finally {
        await store.close();
      }
    },
    OUTER_BOUND_MS,
  );

  it(
    'loses only read-only work when killed while it is held back, and runs it again',
    async () => {
      // One turn reads a.txt, then writes b.txt. The second observation is b.txt's probe: the read
      // has run and is held, to be committed with the write's intent, and the process dies.
      const { workspace, storePath } = scenarioWorkspace({ 'a.txt': 'one\n' });
      const first = await runChild([storePath, workspace, 's-held'], {
        CRASH_SCRIPT: 'pair',
        CRASH_IN_PROBE: '2',
        // Time read from a stepping clock: how long a busy machine takes between the read and the
        // probe never decides whether the read is still held (HOLD_LIMITS.maxMs) when it dies.
        CRASH_CLOCK: 'stepping',
      });
      expect(first.signal).toBe('SIGKILL');
      const store = openStore(storePath);
      try {
        const before = (await eventsOf(store, 's-held')).map((event) => event.payload.type);
        expect(before).toContain('tool_call_proposed');
        expect(before).not.toContain('tool_call_started');
        const { config, done } = resumeOnce(store, 's-held', PAIR_SCRIPT);
        const outcome = await done;
        expect(outcome.status).toBe('completed');
        expect(readFileSync(join(workspace, 'b.txt'), 'utf8')).toBe('two\n');
        const events = await eventsOf(store, 's-held');
        // Nothing was interrupted (nothing had started), and each call ran to one receipt.
        expect(events.map((event) => event.payload.type)).not.toContain('tool_call_interrupted');
        for (const callId of ['implement.1.1.1', 'implement.1.1.2']) {
          const receipts = events.filter(
            (event) =>
              event.payload.type === 'tool_receipt' &&
              (event.payload as { callId: string }).callId === callId,
          );
          expect(receipts, `call ${callId}`).toHaveLength(1);
        }
        await expectReplayIdentical(store, 's-held', config);
      } finally {
        await store.close();
      }
    },
    OUTER_BOUND_MS,
  );

  // Inside effects, not only between appends, each at a recorded point (never after a delay that
  // a busy machine stretches past the moment): a file write with its new bytes written and not
  // yet in place, and each observation of the workspace.
  for (const pass of [1, 2]) {
    it(
      `is killed inside file write ${pass}, before its bytes are in place, and resumes exactly`,
      async () => {
        const result = await crashAndRecover({
          pauseAt: `${FAULT_POINTS.writeContentPending}@${pass}`,
        });
        expect(result.first.signal).toBe('SIGKILL');
        expectExactlyOnce(result);
      },
      OUTER_BOUND_MS,
    );
  }
  for (const name of ['a.txt', 'b.txt']) {
    it(
      `is killed as it observes ${name}, a write's target, and resumes exactly`,
      async () => {
        const result = await crashAndRecover({ env: { CRASH_AT_PROBE_OF: name } });
        expect(result.first.signal).toBe('SIGKILL');
        expectExactlyOnce(result);
      },
      OUTER_BOUND_MS,
    );
  }
});

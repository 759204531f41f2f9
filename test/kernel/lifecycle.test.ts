import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InferenceError } from '../../src/core/inference/inference-failure.js';
import type { InferenceProvider } from '../../src/core/inference/inference-provider.js';
import { KernelCommandError } from '../../src/core/kernel/decider/kernel-errors.js';
import { runSession, startSession } from '../../src/core/kernel/index.js';
import {
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
  typesOf,
  closeStoresAfterEach,
} from './kernel-harness.js';

const stores = closeStoresAfterEach();

const write = { toolCalls: [{ name: 'write_file', args: { path: 'notes.txt', content: 'hi\n' } }] };
const done = { text: JSON.stringify({ summary: 'done', filesChanged: ['notes.txt'] }) };

function setup(files: Record<string, string> = {}) {
  const { workspace, storePath } = scenarioWorkspace(files);
  const store = openStore(storePath);
  stores.push(store);
  const config = scenarioConfig({ workflow: implementOnlyWorkflow() });
  return { workspace, storePath, store, config };
}

describe('sessions that wait, pause, steer and cancel', () => {
  it('waits for a person in prompt mode; an approval appended by another process wakes it on resume', async () => {
    const { workspace, storePath, store, config } = setup();
    const model = scriptedModel([write, done]);
    const options = {
      store,
      sessionId: 's-approve',
      config,
      ports: livePorts(model),
      clock: newClock(),
      ids: newIds(),
    };
    const first = await runSession(options, {
      type: 'start',
      task: 'write notes',
      workspace,
      workflowId: 'implement-only',
      mode: 'prompt',
    });
    expect(first.waiting).toEqual({ kind: 'approval', callId: 'implement.1.1.1' });
    expect(first.status).toBe('running');
    expect(existsSync(join(workspace, 'notes.txt'))).toBe(false);
    expect(first.state.session.pendingApprovals).toMatchObject([
      { callId: 'implement.1.1.1', tier: 'T1' },
    ]);

    // Nothing of this process runs while it waits: another OS process records the decision.
    execFileSync(process.execPath, [
      '--import',
      'tsx',
      join(import.meta.dirname, 'grant-approval.ts'),
      storePath,
      's-approve',
      'implement.1.1.1',
    ]);

    const second = await runSession(
      { ...options, ids: newIds('later') },
      { type: 'resume', by: 'alice' },
    );
    expect(second.status).toBe('completed');
    expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe('hi\n');
    const events = await eventsOf(store, 's-approve');
    expect(typesOf(events)).toContain('approval_requested');
    expect(
      events.find((event) => event.payload.type === 'approval_granted')?.payload,
    ).toMatchObject({ by: { kind: 'human', id: 'alice' } });
    await expectReplayIdentical(store, 's-approve', config);
  });

  it('records a denial from a person, tells the model, and refuses to approve what is not pending', async () => {
    const { workspace, store, config } = setup();
    // After the denial the honest answer changed nothing (claiming notes.txt would be refuted).
    const nothingChanged = { text: JSON.stringify({ summary: 'not written', filesChanged: [] }) };
    const model = scriptedModel([write, nothingChanged]);
    const options = {
      store,
      sessionId: 's-deny',
      config,
      ports: livePorts(model),
      clock: newClock(),
      ids: newIds(),
    };
    await runSession(options, {
      type: 'start',
      task: 'write notes',
      workspace,
      workflowId: 'implement-only',
      mode: 'prompt',
    });
    await expect(
      runSession(options, { type: 'approve', callId: 'nope', by: 'bob' }),
    ).rejects.toThrow(KernelCommandError);
    const outcome = await runSession(
      { ...options, ids: newIds('d') },
      { type: 'deny', callId: 'implement.1.1.1', by: 'bob', reason: 'not that file' },
    );
    expect(outcome.status).toBe('completed');
    expect(existsSync(join(workspace, 'notes.txt'))).toBe(false);
    expect(model.request(1)).toContain('was not run: not that file');
    await expectReplayIdentical(store, 's-deny', config);
  });

  it('pauses between effects, refuses a second pause, and resumes where it stopped', async () => {
    const { workspace, store, config } = setup();
    const model = scriptedModel([write, done]);
    const options = {
      store,
      sessionId: 's-pause',
      config,
      ports: livePorts(model),
      clock: newClock(),
      ids: newIds(),
      onEvent: (event: { payload: { type: string } }) => {
        if (event.payload.type === 'inference_requested') void run.pause('carol', 'lunch');
      },
    };
    const run = startSession(options, {
      type: 'start',
      task: 'write notes',
      workspace,
      workflowId: 'implement-only',
      mode: 'auto',
    });
    const paused = await run.done;
    expect(paused).toMatchObject({ status: 'paused', waiting: { kind: 'paused' } });
    // The pause was recorded before the model call that was due: nothing ran.
    expect(model.requests()).toBe(0);
    expect(existsSync(join(workspace, 'notes.txt'))).toBe(false);
    const again = await runSession(
      { ...options, onEvent: () => {}, ids: newIds('p2') },
      { type: 'pause', by: 'carol' },
    );
    expect(again.status).toBe('paused');
    const resumed = await runSession(
      { ...options, onEvent: () => {}, ids: newIds('p3') },
      { type: 'resume', by: 'carol' },
    );
    expect(resumed.status).toBe('completed');
    const types = typesOf(await eventsOf(store, 's-pause'));
    expect(types).toContain('lifecycle_rejected');
    expect(types.indexOf('orchestration_paused')).toBeLessThan(
      types.indexOf('orchestration_resumed'),
    );
    await expectReplayIdentical(store, 's-pause', config);
  });

  it('carries a steering note added mid-stage into the next context pack', async () => {
    const { workspace, store, config } = setup();
    const model = scriptedModel([write, done]);
    const run = startSession(
      {
        store,
        sessionId: 's-steer',
        config,
        ports: livePorts(model),
        clock: newClock(),
        ids: newIds(),
        onEvent: (event) => {
          if (event.payload.type === 'inference_completed' && model.requests() === 1)
            void run.steer('Keep notes.txt under ten lines.', 'implement');
        },
      },
      { type: 'start', task: 'write notes', workspace, workflowId: 'implement-only', mode: 'auto' },
    );
    expect((await run.done).status).toBe('completed');
    expect(model.request(0)).not.toContain('Keep notes.txt under ten lines.');
    expect(model.request(1)).toContain(
      'Steering note from the operator:\nKeep notes.txt under ten lines.',
    );
    await expectReplayIdentical(store, 's-steer', config);
  });

  it('stops during a model call without recording a failure, and asks again on resume', async () => {
    const { workspace, store, config } = setup();
    const stop = new AbortController();
    let asked = 0;
    const hanging: InferenceProvider = {
      name: 'scripted',
      infer: (_request, signal) =>
        new Promise((_resolve, reject) => {
          asked += 1;
          signal?.addEventListener('abort', () =>
            reject(
              new InferenceError({
                category: 'cancelled',
                provider: 'scripted',
                message: 'aborted',
              }),
            ),
          );
          stop.abort();
        }),
    };
    const options = { store, sessionId: 's-stop-infer', config, clock: newClock(), ids: newIds() };
    const stopped = await runSession(
      { ...options, ports: livePorts(hanging), signal: stop.signal },
      { type: 'start', task: 'write notes', workspace, workflowId: 'implement-only', mode: 'auto' },
    );
    expect(stopped).toMatchObject({ status: 'running', waiting: { kind: 'stopped' } });
    expect(asked).toBe(1);
    expect(typesOf(await eventsOf(store, 's-stop-infer'))).not.toContain('inference_failed');
    const resumed = await runSession({
      ...options,
      ports: livePorts(scriptedModel([write, done])),
      ids: newIds('r'),
    });
    expect(resumed.status).toBe('completed');
    const types = typesOf(await eventsOf(store, 's-stop-infer'));
    expect(types.filter((type) => type === 'stage_started')).toHaveLength(1);
    await expectReplayIdentical(store, 's-stop-infer', config);
  });
});

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSession, runSession } from '../../src/core/kernel/index.js';
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

const json = (value: unknown) => ({ text: JSON.stringify(value) });
const plan = json({ summary: 'plan', steps: ['change it'], files: [] });
const change = json({ summary: 'changed', filesChanged: [] });
const verified = json({ summary: 'checked', passed: true });
const rework = (note: string) =>
  json({ verdict: 'rework', reviewedArtifact: '{{artifact:change}}', notes: [note] });
const recovery = json({
  summary: 'fixed everything',
  notesAddressed: ['n1', 'n2', 'n3'],
  filesChanged: [],
});

describe('review → rework loops', () => {
  it('allows three rework cycles, routes the notes to recovery once, then fails the workflow', async () => {
    const { workspace, storePath } = scenarioWorkspace({});
    const store = openStore(storePath);
    stores.push(store);
    const turns = [plan];
    for (const note of ['n1', 'n2', 'n3']) turns.push(change, verified, rework(note));
    turns.push(change, verified, rework('n4'), recovery, verified, rework('n5'));
    const model = scriptedModel(turns);
    const config = scenarioConfig();
    const outcome = await runSession(
      {
        store,
        sessionId: 's-rework',
        config,
        ports: livePorts(model),
        clock: newClock(),
        ids: newIds(),
      },
      {
        type: 'start',
        task: 'never good enough',
        workspace,
        workflowId: 'default-coding',
        mode: 'auto',
      },
    );
    expect(outcome.status).toBe('failed');
    const events = await eventsOf(store, 's-rework');
    const edges = events.flatMap((event) =>
      event.payload.type === 'transition_taken' ? [event.payload.edge] : [],
    );
    expect(edges.filter((edge) => edge === 'review->implement')).toHaveLength(3);
    expect(edges.filter((edge) => edge === 'review->recovery')).toHaveLength(1);
    expect(edges.slice(-3)).toEqual(['recovery->verify', 'verify->review', 'review->end:failed']);
    expect(events.at(-1)?.payload).toMatchObject({
      type: 'workflow_failed',
      category: 'validation',
      stageId: 'review',
    });
    // The recovery stage saw every review's notes (accepted artifacts of earlier stages are in its pack).
    const recoveryPack = model.request(turns.indexOf(recovery));
    for (const note of ['n1', 'n2', 'n3', 'n4'])
      expect(recoveryPack).toContain(`"notes":["${note}"]`);
    expect(model.requests()).toBe(turns.length);
    await expectReplayIdentical(store, 's-rework', config);
  });
});

describe('cancellation', () => {
  it('kills a long exec through the AbortSignal and leaves no process behind', async () => {
    const { workspace, storePath } = scenarioWorkspace({
      'slow.js':
        "require('fs').writeFileSync('pid.txt', String(process.pid));\nsetInterval(() => {}, 1000);\n",
    });
    const store = openStore(storePath);
    stores.push(store);
    const config = scenarioConfig({ workflow: implementOnlyWorkflow() });
    const model = scriptedModel([
      { toolCalls: [{ name: 'exec', args: { argv: ['node', 'slow.js'], timeoutMs: 600_000 } }] },
    ]);
    const pidFile = join(workspace, 'pid.txt');
    const run = startSession(
      {
        store,
        sessionId: 's-cancel',
        config,
        ports: livePorts(model),
        clock: newClock(),
        ids: newIds(),
        onEvent: (event) => {
          if (event.payload.type !== 'tool_call_started') return;
          // Cancel once the program is really running (it wrote its pid).
          const poll = () =>
            existsSync(pidFile) && readFileSync(pidFile, 'utf8') !== ''
              ? run.cancel('dave', 'taking too long')
              : setImmediate(poll);
          void poll();
        },
      },
      {
        type: 'start',
        task: 'run the slow thing',
        workspace,
        workflowId: 'implement-only',
        mode: 'auto',
      },
    );
    const outcome = await run.done;
    expect(outcome.status).toBe('cancelled');
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
    const events = await eventsOf(store, 's-cancel');
    // The cancel is recorded when it is issued; the receipt of the exec it killed follows.
    expect(typesOf(events).slice(-2)).toEqual(['workflow_cancelled', 'tool_receipt']);
    expect(events.at(-2)?.payload).toMatchObject({ by: 'dave', reason: 'taking too long' });
    expect(events.at(-1)?.payload).toMatchObject({ outcome: 'aborted' });
    await expectReplayIdentical(store, 's-cancel', config);
    writeFileSync(pidFile, '');
  });

  it('stops this process on its AbortSignal without ending the session, which resumes later', async () => {
    const { workspace, storePath } = scenarioWorkspace({
      'slow.js':
        "require('fs').writeFileSync('pid.txt', String(process.pid));\nsetInterval(() => {}, 1000);\n",
    });
    const store = openStore(storePath);
    stores.push(store);
    const config = scenarioConfig({ workflow: implementOnlyWorkflow() });
    const model = scriptedModel([
      { toolCalls: [{ name: 'exec', args: { argv: ['node', 'slow.js'] } }] },
      json({ summary: 'gave up on slow.js', filesChanged: [] }),
    ]);
    const pidFile = join(workspace, 'pid.txt');
    const stop = new AbortController();
    const options = {
      store,
      sessionId: 's-stop',
      config,
      ports: livePorts(model),
      clock: newClock(),
      ids: newIds(),
    };
    const stopped = await runSession(
      {
        ...options,
        signal: stop.signal,
        onEvent: (event) => {
          if (event.payload.type !== 'tool_call_started') return;
          const poll = () =>
            existsSync(pidFile) && readFileSync(pidFile, 'utf8') !== ''
              ? stop.abort()
              : setImmediate(poll);
          poll();
        },
      },
      {
        type: 'start',
        task: 'run the slow thing',
        workspace,
        workflowId: 'implement-only',
        mode: 'auto',
      },
    );
    expect(stopped).toMatchObject({ status: 'running', waiting: { kind: 'stopped' } });
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
    const events = await eventsOf(store, 's-stop');
    expect(events.find((event) => event.payload.type === 'tool_receipt')?.payload).toMatchObject({
      outcome: 'aborted',
    });
    // The model was not called again by the stopped process; the decision to call it is recorded.
    expect(model.requests()).toBe(1);
    expect(events.at(-1)?.payload.type).toBe('inference_requested');

    const resumed = await runSession({ ...options, ids: newIds('again') });
    expect(resumed.status).toBe('completed');
    await expectReplayIdentical(store, 's-stop', config);
  });
});

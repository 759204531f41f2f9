import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { CorrexEvent, CorrexEventStore } from '../../src/core/event-catalog.js';
import { InferenceError } from '../../src/core/inference/inference-failure.js';
import type { InferenceProvider } from '../../src/core/inference/inference-provider.js';
import {
  childKernelConfig,
  InvalidKernelConfigError,
  type KernelConfig,
} from '../../src/core/kernel/config/kernel-config.js';
import type { KernelObserver } from '../../src/core/kernel/index.js';
import {
  recordCommand,
  replaySession,
  runSession,
  startSession,
  type SessionRun,
} from '../../src/core/kernel/index.js';
import {
  describeKernelConfig,
  kernelConfigFromConfiguration,
  sessionConfiguredPayload,
} from '../../src/core/kernel/config/session-configuration.js';
import { ChangeArtifactSchema } from '../../src/core/transitions/default-coding-workflow.js';
import { parseWorkflow, type Workflow } from '../../src/core/transitions/workflow.js';
import type { ScriptedTurn } from '../../src/infrastructure/providers/scripted-provider.js';
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
  typesOf,
} from './kernel-harness.js';

const stores = closeStoresAfterEach();

/** The child: one stage that writes files and reports a change. */
function writeNoteWorkflow(): Workflow {
  return parseWorkflow(
    {
      id: 'write-note',
      initialStage: 'write',
      stages: [
        {
          id: 'write',
          role: 'writer',
          instructions: 'Write the file the task asks for.',
          allowedTools: ['read_file', 'write_file'],
          capabilities: ['tool_calling'],
          artifact: { kind: 'change', schema: z.toJSONSchema(ChangeArtifactSchema) },
          transitions: [
            { when: { on: 'success' }, end: 'completed' },
            { when: { on: 'failure' }, end: 'failed' },
          ],
        },
      ],
    },
    { source: 'writeNoteWorkflow' },
  );
}

/** The parent: one stage that delegates to `write-note`; `schema` is what it accepts. */
function delegatingWorkflow(
  options: { maxAttempts?: number; schema?: Record<string, unknown> } = {},
): Workflow {
  return parseWorkflow(
    {
      id: 'delegating',
      initialStage: 'delegate',
      stages: [
        {
          id: 'delegate',
          role: 'delegator',
          instructions: 'Have a sub-agent write the note.',
          artifact: {
            kind: 'change',
            schema: options.schema ?? z.toJSONSchema(ChangeArtifactSchema),
          },
          retry: { maxAttempts: options.maxAttempts ?? 1, retryOn: ['inference'] },
          subagent: { workflow: 'write-note', task: 'Write NOTES.md for: {{task}}' },
          transitions: [
            { when: { on: 'success' }, end: 'completed' },
            { when: { on: 'failure' }, end: 'failed' },
          ],
        },
      ],
    },
    { source: 'delegatingWorkflow' },
  );
}

const writeNote: ScriptedTurn = {
  toolCalls: [{ name: 'write_file', args: { path: 'NOTES.md', content: '# Notes\n' } }],
};
const wroteNote: ScriptedTurn = {
  text: JSON.stringify({ summary: 'wrote NOTES.md', filesChanged: ['NOTES.md'] }),
};

function setup(workflow: Workflow = delegatingWorkflow()) {
  const { workspace, storePath } = scenarioWorkspace({});
  const store = openStore(storePath);
  stores.push(store);
  const config = scenarioConfig({ workflow, subWorkflows: [writeNoteWorkflow()] });
  return { workspace, store, config };
}

const start = (workspace: string, mode: 'auto' | 'prompt' = 'auto') =>
  ({
    type: 'start',
    task: 'document the parser',
    workspace,
    workflowId: 'delegating',
    mode,
  }) as const;

function payloadsOf<Type extends CorrexEvent['payload']['type']>(
  events: readonly CorrexEvent[],
  type: Type,
): Extract<CorrexEvent['payload'], { type: Type }>[] {
  return events.flatMap((event) =>
    event.payload.type === type
      ? [event.payload as Extract<CorrexEvent['payload'], { type: Type }>]
      : [],
  );
}

/** Both sessions replay byte for byte, the child under the config derived for it and as recorded. */
async function expectBothReplay(
  store: CorrexEventStore,
  parent: string,
  child: string,
  config: KernelConfig,
) {
  await expectReplayIdentical(store, parent, config);
  await expectReplayIdentical(store, child, childKernelConfig(config, 'write-note'));
  // Without a config: each rebuilds the one it recorded (the parent's lists its sub-workflows).
  for (const id of [parent, child]) {
    const report = await replaySession(store, id);
    expect(report.ok, JSON.stringify(report)).toBe(true);
  }
}

/** A provider that hangs until aborted (as a model call does when the runner stops it). */
function hangingProvider(onCall: () => void): InferenceProvider {
  return {
    name: 'scripted',
    infer: (_request, signal) =>
      new Promise((_resolve, reject) => {
        signal?.addEventListener('abort', () =>
          reject(
            new InferenceError({ category: 'cancelled', provider: 'scripted', message: 'aborted' }),
          ),
        );
        onCall();
      }),
  };
}

describe('a stage that runs a sub-session', () => {
  it("tells the parent run's observer the child's events and signals, naming the child's session", async () => {
    const { workspace, store, config } = setup();
    const model = scriptedModel([
      { ...writeNote, usage: { inputTokens: 11, outputTokens: 3 } },
      { ...wroteNote, usage: { inputTokens: 13, outputTokens: 5 } },
    ]);
    const events: string[] = [];
    const tokens: { sessionId: string; input: number }[] = [];
    const stages: string[] = [];
    const observer: KernelObserver = {
      onEvent: (event) => void events.push(`${event.sessionId}:${event.payload.type}`),
      onTokens: (signal, sessionId) => void tokens.push({ sessionId, input: signal.input }),
      onStageTiming: (timing, sessionId) => void stages.push(`${sessionId}:${timing.stageId}`),
    };
    const outcome = await runSession(
      {
        store,
        sessionId: 'p',
        config,
        ports: livePorts(model),
        clock: newClock(),
        ids: newIds(),
        observer,
      },
      start(workspace),
    );
    expect(outcome.status).toBe('completed');
    const child = await eventsOf(store, 'p.delegate.1');
    for (const event of child) expect(events).toContain(`p.delegate.1:${event.payload.type}`);
    expect(events).toContain('p:workflow_completed');
    expect(tokens).toEqual([
      { sessionId: 'p.delegate.1', input: 11 },
      { sessionId: 'p.delegate.1', input: 13 },
    ]);
    expect(stages).toEqual(['p.delegate.1:write', 'p:delegate']);
    await expectBothReplay(store, 'p', 'p.delegate.1', config);
  });

  it('delegates to a child workflow, completes with its artifact, and both sessions replay', async () => {
    const { workspace, store, config } = setup();
    const model = scriptedModel([writeNote, wroteNote]);
    const outcome = await runSession(
      { store, sessionId: 'p', config, ports: livePorts(model), clock: newClock(), ids: newIds() },
      start(workspace),
    );
    expect(outcome).toMatchObject({ status: 'completed', waiting: null });
    expect(readFileSync(join(workspace, 'NOTES.md'), 'utf8')).toBe('# Notes\n');
    expect(model.requests()).toBe(2);

    const parent = await eventsOf(store, 'p');
    expect(typesOf(parent)).toEqual([
      'session_configured',
      'session_created',
      'workflow_started',
      'project_checks_detected',
      'brief_checked',
      'stage_checkpoint_recorded',
      'stage_started',
      'subagent_started',
      'subagent_finished',
      'artifact_proposed',
      'artifact_accepted',
      'stage_completed',
      'transition_taken',
      'workflow_completed',
    ]);
    const [started] = payloadsOf(parent, 'subagent_started');
    expect(started).toEqual({
      type: 'subagent_started',
      stageId: 'delegate',
      attempt: 1,
      childSessionId: 'p.delegate.1',
      workflowId: 'write-note',
      task: 'Write NOTES.md for: document the parser',
    });
    const startedEvent = parent.find((event) => event.payload.type === 'subagent_started')!;

    // The child is a session of its own, linked both ways.
    const child = await eventsOf(store, 'p.delegate.1');
    expect(typesOf(child).slice(0, 2)).toEqual(['session_configured', 'session_created']);
    expect(typesOf(child).at(-1)).toBe('workflow_completed');
    expect(child[1]!.payload).toMatchObject({
      task: 'Write NOTES.md for: document the parser',
      workspace,
      workflowId: 'write-note',
      mode: 'auto',
      parent: { sessionId: 'p', stageId: 'delegate', attempt: 1, eventId: startedEvent.eventId },
    });
    expect(child.slice(0, 2).map((event) => event.correlationId)).toEqual([
      startedEvent.eventId,
      startedEvent.eventId,
    ]);
    expect(child[0]!.payload).toEqual(
      sessionConfiguredPayload(childKernelConfig(config, 'write-note')),
    );

    // The child's final artifact is the parent stage's answer, validated by the parent.
    const childAccepted = payloadsOf(child, 'artifact_accepted').at(-1)!;
    const [finished] = payloadsOf(parent, 'subagent_finished');
    expect(finished).toEqual({
      type: 'subagent_finished',
      childSessionId: 'p.delegate.1',
      status: 'completed',
      artifact: {
        hash: childAccepted.hash,
        kind: 'change',
        stageId: 'write',
        content: { filesChanged: ['NOTES.md'], summary: 'wrote NOTES.md' },
      },
    });
    const finishedEvent = parent.find((event) => event.payload.type === 'subagent_finished')!;
    const [proposed] = payloadsOf(parent, 'artifact_proposed');
    expect(proposed).toMatchObject({
      stageId: 'delegate',
      inferenceEventId: finishedEvent.eventId,
    });
    expect(payloadsOf(parent, 'stage_completed')[0]?.artifactHash).toBe(proposed!.hash);

    await expectBothReplay(store, 'p', 'p.delegate.1', config);
  });

  it('fails the parent attempt when the child fails, and the retry runs a new child', async () => {
    const { workspace, store, config } = setup(delegatingWorkflow({ maxAttempts: 2 }));
    const model = scriptedModel([
      { fail: { category: 'malformed_response', message: 'not JSON at all' } },
      writeNote,
      wroteNote,
    ]);
    const outcome = await runSession(
      { store, sessionId: 'p', config, ports: livePorts(model), clock: newClock(), ids: newIds() },
      start(workspace),
    );
    expect(outcome.status).toBe('completed');
    const parent = await eventsOf(store, 'p');
    expect(
      payloadsOf(parent, 'subagent_finished').map((p) => [p.childSessionId, p.status]),
    ).toEqual([
      ['p.delegate.1', 'failed'],
      ['p.delegate.2', 'completed'],
    ]);
    const [failed] = payloadsOf(parent, 'stage_failed');
    expect(failed).toMatchObject({ stageId: 'delegate', attempt: 1, category: 'inference' });
    expect(failed!.message).toContain('sub-session p.delegate.1 failed');
    expect(typesOf(await eventsOf(store, 'p.delegate.1')).at(-1)).toBe('workflow_failed');
    expect(payloadsOf(parent, 'stage_started').map((p) => p.attempt)).toEqual([1, 2]);
    await expectBothReplay(store, 'p', 'p.delegate.1', config);
    await expectReplayIdentical(store, 'p.delegate.2', childKernelConfig(config, 'write-note'));
  });

  it("fails the parent attempt as validation when the parent rejects the child's artifact", async () => {
    const schema = z.toJSONSchema(z.strictObject({ note: z.string() }));
    const { workspace, store, config } = setup(delegatingWorkflow({ schema }));
    const outcome = await runSession(
      {
        store,
        sessionId: 'p',
        config,
        ports: livePorts(scriptedModel([writeNote, wroteNote])),
        clock: newClock(),
        ids: newIds(),
      },
      start(workspace),
    );
    expect(outcome.status).toBe('failed');
    const parent = await eventsOf(store, 'p');
    expect(typesOf(parent)).toContain('validation_failed');
    const [failed] = payloadsOf(parent, 'stage_failed');
    expect(failed).toMatchObject({ category: 'validation' });
    expect(failed!.message).toContain('the artifact of sub-session p.delegate.1 was not accepted');
    expect(typesOf(await eventsOf(store, 'p.delegate.1')).at(-1)).toBe('workflow_completed');
    await expectBothReplay(store, 'p', 'p.delegate.1', config);
  });

  it('cancels the running child when the parent is cancelled', async () => {
    const { workspace, store, config } = setup();
    const provider = hangingProvider(() => run.cancel('dave', 'not needed'));
    const run: SessionRun = startSession(
      {
        store,
        sessionId: 'p',
        config,
        ports: livePorts(provider),
        clock: newClock(),
        ids: newIds(),
      },
      start(workspace),
    );
    const outcome = await run.done;
    expect(outcome.status).toBe('cancelled');
    const parent = await eventsOf(store, 'p');
    // The cancel is recorded when it is issued; the child's end, which it caused, follows.
    expect(typesOf(parent).slice(-2)).toEqual(['workflow_cancelled', 'subagent_finished']);
    expect(payloadsOf(parent, 'subagent_finished')[0]).toMatchObject({ status: 'cancelled' });
    const child = await eventsOf(store, 'p.delegate.1');
    expect(typesOf(child).at(-1)).toBe('workflow_cancelled');
    expect(child.at(-1)?.payload).toMatchObject({ by: 'dave' });
    await expectBothReplay(store, 'p', 'p.delegate.1', config);
  });

  it('cancels a waiting child when a person cancels the parent from outside', async () => {
    const { workspace, store, config } = setup();
    const options = { store, sessionId: 'p', config, clock: newClock(), ids: newIds() };
    const waiting = await runSession(
      { ...options, ports: livePorts(scriptedModel([writeNote])) },
      start(workspace, 'prompt'),
    );
    expect(waiting.waiting).toMatchObject({ kind: 'approval', sessionId: 'p.delegate.1' });
    await recordCommand({ clock: newClock(), ids: newIds('c') }, store, 'p', {
      type: 'cancel',
      by: 'erin',
    });
    expect(typesOf(await eventsOf(store, 'p')).at(-1)).toBe('workflow_cancelled');
    expect(typesOf(await eventsOf(store, 'p.delegate.1')).at(-1)).toBe('workflow_cancelled');
  });

  it('pauses the child with the parent, and resuming the parent resumes both', async () => {
    const { workspace, store, config } = setup();
    const model = scriptedModel([writeNote, wroteNote]);
    let paused = false;
    const pausing: InferenceProvider = {
      name: 'scripted',
      infer: (request, signal) => {
        if (!paused) {
          paused = true;
          void run.pause('frank', 'coffee');
        }
        return model.infer(request, signal);
      },
    };
    const options = { store, sessionId: 'p', config, clock: newClock(), ids: newIds() };
    const run: SessionRun = startSession(
      { ...options, ports: livePorts(pausing) },
      start(workspace),
    );
    const first = await run.done;
    expect(first).toMatchObject({ status: 'paused', waiting: { kind: 'paused' } });
    // The pause is recorded when it is issued; the child's running model call still completes and
    // is recorded, and nothing is decided after it.
    const childEvents = await eventsOf(store, 'p.delegate.1');
    const after = childEvents.slice(typesOf(childEvents).indexOf('orchestration_paused') + 1);
    expect(typesOf(after)).toEqual(['inference_completed']);
    const resumed = await runSession(
      { ...options, ports: livePorts(pausing), ids: newIds('r') },
      { type: 'resume', by: 'frank' },
    );
    expect(resumed.status).toBe('completed');
    const child = await eventsOf(store, 'p.delegate.1');
    expect(typesOf(child)).toContain('orchestration_resumed');
    expect(typesOf(child).at(-1)).toBe('workflow_completed');
    await expectBothReplay(store, 'p', 'p.delegate.1', config);
  });

  it('waits with the child for an approval, and continues both once it is granted', async () => {
    const { workspace, store, config } = setup();
    const model = scriptedModel([writeNote, wroteNote]);
    const options = { store, sessionId: 'p', config, clock: newClock(), ids: newIds() };
    const waiting = await runSession(
      { ...options, ports: livePorts(model) },
      start(workspace, 'prompt'),
    );
    expect(waiting.status).toBe('running');
    expect(waiting.waiting).toMatchObject({ kind: 'approval', sessionId: 'p.delegate.1' });
    const callId = (waiting.waiting as { callId: string }).callId;
    await recordCommand({ clock: newClock(), ids: newIds('a') }, store, 'p.delegate.1', {
      type: 'approve',
      callId,
      by: 'alice',
    });
    const resumed = await runSession(
      { ...options, ports: livePorts(model), ids: newIds('r') },
      { type: 'resume', by: 'alice' },
    );
    expect(resumed.status).toBe('completed');
    expect(readFileSync(join(workspace, 'NOTES.md'), 'utf8')).toBe('# Notes\n');
    await expectBothReplay(store, 'p', 'p.delegate.1', config);
  });

  it('re-attaches to the existing child after a stop mid-child instead of starting another', async () => {
    const { workspace, store, config } = setup();
    const stop = new AbortController();
    const options = { store, sessionId: 'p', config, clock: newClock(), ids: newIds() };
    const stopped = await runSession(
      { ...options, ports: livePorts(hangingProvider(() => stop.abort())), signal: stop.signal },
      start(workspace),
    );
    expect(stopped).toMatchObject({ status: 'running', waiting: { kind: 'stopped' } });
    expect(typesOf(await eventsOf(store, 'p')).at(-1)).toBe('subagent_started');
    expect(typesOf(await eventsOf(store, 'p.delegate.1')).at(-1)).toBe('inference_requested');

    const resumed = await runSession({
      ...options,
      ports: livePorts(scriptedModel([writeNote, wroteNote])),
      ids: newIds('r'),
    });
    expect(resumed.status).toBe('completed');
    const parent = await eventsOf(store, 'p');
    expect(payloadsOf(parent, 'subagent_started')).toHaveLength(1);
    const child = await eventsOf(store, 'p.delegate.1');
    expect(typesOf(child).filter((type) => type === 'session_created')).toHaveLength(1);
    expect(typesOf(child).at(-1)).toBe('workflow_completed');
    expect(await store.lastSequence('p.delegate.2')).toBe(0);
    await expectBothReplay(store, 'p', 'p.delegate.1', config);
  });
});

describe('a sub-session and its parent, further', () => {
  it('only reads a child that ended while its parent was not running', async () => {
    const { workspace, store, config } = setup();
    const stop = new AbortController();
    const options = { store, sessionId: 'p', config, clock: newClock(), ids: newIds() };
    await runSession(
      { ...options, ports: livePorts(hangingProvider(() => stop.abort())), signal: stop.signal },
      start(workspace),
    );
    // Someone else drove the child to its end (a crash between its end and the parent's record).
    const childConfig = childKernelConfig(config, 'write-note');
    const child = await runSession({
      ...options,
      sessionId: 'p.delegate.1',
      config: childConfig,
      ports: livePorts(scriptedModel([writeNote, wroteNote])),
      ids: newIds('c'),
    });
    expect(child.status).toBe('completed');
    const childEvents = (await eventsOf(store, 'p.delegate.1')).length;
    const unused = scriptedModel([]);
    const resumed = await runSession({ ...options, ports: livePorts(unused), ids: newIds('r') });
    expect(resumed.status).toBe('completed');
    expect(unused.requests()).toBe(0);
    expect(await eventsOf(store, 'p.delegate.1')).toHaveLength(childEvents);
    await expectBothReplay(store, 'p', 'p.delegate.1', config);
  });

  it('cancels the child when the parent is redirected away from its stage', async () => {
    const definition = delegatingWorkflow().definition;
    const workflow = parseWorkflow(
      {
        ...definition,
        stages: [
          {
            ...definition.stages[0]!,
            transitions: [
              { when: { on: 'success' }, end: 'completed' },
              { when: { on: 'failure' }, to: 'manual' },
            ],
          },
          {
            ...implementOnlyWorkflow().definition.stages[0]!,
            id: 'manual',
          },
        ],
      },
      { source: 'redirecting' },
    );
    const { workspace, store, config } = setup(workflow);
    // The manual stage writes the note itself: its claim must match what the log records.
    const model = scriptedModel([writeNote, wroteNote]);
    let calls = 0;
    const provider: InferenceProvider = {
      name: 'scripted',
      infer: (request, signal) => {
        calls += 1;
        return calls === 1
          ? hangingProvider(() => run.redirect('manual', 'gina', 'do it by hand')).infer(
              request,
              signal,
            )
          : model.infer(request, signal);
      },
    };
    const run: SessionRun = startSession(
      {
        store,
        sessionId: 'p',
        config,
        ports: livePorts(provider),
        clock: newClock(),
        ids: newIds(),
      },
      start(workspace),
    );
    const outcome = await run.done;
    expect(outcome.status).toBe('completed');
    const parent = typesOf(await eventsOf(store, 'p'));
    // The redirect is recorded when it is issued; the end of the child it cancelled follows.
    const at = parent.indexOf('redirect_requested');
    expect(parent.slice(at, at + 4)).toEqual([
      'redirect_requested',
      'subagent_finished',
      'stage_redirected',
      'transition_taken',
    ]);
    expect(typesOf(await eventsOf(store, 'p.delegate.1')).at(-1)).toBe('workflow_cancelled');
    await expectBothReplay(store, 'p', 'p.delegate.1', config);
  });
});

describe('sub-workflows in the kernel configuration', () => {
  it('refuses a stage that names an unknown sub-workflow, and workflows that run each other', () => {
    expect(() => scenarioConfig({ workflow: delegatingWorkflow() })).toThrow(
      InvalidKernelConfigError,
    );
    expect(() => scenarioConfig({ workflow: delegatingWorkflow() })).toThrow(
      /runs sub-workflow write-note, which the configuration does not list/,
    );
    const looping = parseWorkflow(
      {
        ...writeNoteWorkflow().definition,
        stages: writeNoteWorkflow().definition.stages.map((stage) => ({
          ...stage,
          subagent: { workflow: 'write-note', task: '{{task}}' },
        })),
      },
      { source: 'looping' },
    );
    expect(() =>
      scenarioConfig({ workflow: delegatingWorkflow(), subWorkflows: [looping] }),
    ).toThrow(/in a cycle: delegating -> write-note -> write-note/);
  });

  it('records sub-workflows only when there are any, and rebuilds them', () => {
    const plain = scenarioConfig({ workflow: implementOnlyWorkflow() });
    expect(describeKernelConfig(plain)).not.toHaveProperty('subWorkflows');
    const config = scenarioConfig({
      workflow: delegatingWorkflow(),
      subWorkflows: [writeNoteWorkflow()],
    });
    const described = describeKernelConfig(config);
    expect(Object.keys(described.subWorkflows ?? {})).toEqual(['write-note']);
    const rebuilt = kernelConfigFromConfiguration(described);
    expect([...(rebuilt.subWorkflows?.keys() ?? [])]).toEqual(['write-note']);
    expect(sessionConfiguredPayload(rebuilt).digest).toBe(sessionConfiguredPayload(config).digest);
  });
});

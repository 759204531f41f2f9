import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InferenceError } from '../../src/core/inference/inference-failure.js';
import type { InferenceProvider } from '../../src/core/inference/inference-provider.js';
import { runSession, startSession } from '../../src/core/kernel/index.js';
import { ChangeArtifactSchema } from '../../src/core/transitions/default-coding-workflow.js';
import { parseWorkflow } from '../../src/core/transitions/workflow.js';
import {
  closeStoresAfterEach,
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
} from './kernel-harness.js';

const stores = closeStoresAfterEach();

const artifact = { kind: 'change', schema: z.toJSONSchema(ChangeArtifactSchema) };

/** explore → implement → end; explore's artifact needs a person's approval. */
const workflow = parseWorkflow(
  {
    id: 'explore-implement',
    initialStage: 'explore',
    stages: [
      {
        id: 'explore',
        role: 'explorer',
        instructions: 'Look around.',
        allowedTools: ['read_file', 'list_dir'],
        capabilities: ['tool_calling'],
        artifact,
        requiresApproval: true,
        transitions: [
          { when: { on: 'success' }, to: 'implement' },
          { when: { on: 'failure' }, end: 'failed' },
        ],
      },
      {
        id: 'implement',
        role: 'implementer',
        instructions: 'Change the workspace.',
        allowedTools: ['read_file', 'write_file'],
        capabilities: ['tool_calling'],
        artifact,
        transitions: [
          { when: { on: 'success' }, end: 'completed' },
          { when: { on: 'failure' }, end: 'failed' },
        ],
      },
    ],
  },
  { source: 'redirect.test' },
);

const change = (summary: string) => ({ text: JSON.stringify({ summary, filesChanged: [] }) });

async function setup(sessionId: string, provider: InferenceProvider) {
  const { workspace, storePath } = scenarioWorkspace({});
  const store = openStore(storePath);
  stores.push(store);
  const config = scenarioConfig({ workflow });
  const options = {
    store,
    sessionId,
    config,
    ports: livePorts(provider),
    clock: newClock(),
    ids: newIds(),
  };
  const start = {
    type: 'start' as const,
    task: 'Explore, then implement',
    workspace,
    workflowId: 'explore-implement',
    mode: 'prompt' as const,
  };
  return { store, config, options, start };
}

describe('preempt redirect', () => {
  it('aborts the running model call and starts the target stage along a declared transition', async () => {
    const model = scriptedModel([change('implemented')]);
    const holder: { run?: ReturnType<typeof startSession> } = {};
    let calls = 0;
    const provider: InferenceProvider = {
      name: 'scripted',
      async infer(request, signal) {
        if (calls++ > 0) return model.infer(request, signal);
        void holder.run!.redirect('implement', 'alice', 'no need to explore');
        // A legal redirect aborts the running call at once.
        expect(signal?.aborted).toBe(true);
        throw new InferenceError({
          category: 'cancelled',
          provider: 'scripted',
          message: 'aborted',
        });
      },
    };
    const { store, config, options, start } = await setup('s-redirect', provider);
    holder.run = startSession(options, start);
    const outcome = await holder.run.done;
    expect(outcome.status).toBe('completed');
    const events = await eventsOf(store, 's-redirect');
    const types = typesOf(events);
    const at = types.indexOf('redirect_requested');
    expect(types.slice(at - 2, at + 6)).toEqual([
      'stage_started',
      'inference_requested',
      'redirect_requested',
      'stage_redirected',
      'transition_taken',
      'stage_checkpoint_recorded',
      'stage_started',
      'inference_requested',
    ]);
    expect(events[at + 1]!.payload).toEqual({
      type: 'stage_redirected',
      from: 'explore',
      to: 'implement',
      attempt: 1,
      by: 'alice',
      reason: 'no need to explore',
    });
    expect(events[at + 2]!.payload).toMatchObject({
      from: 'explore',
      to: 'implement',
      condition: 'redirect',
      edge: 'explore->implement',
      traversal: 1,
    });
    // The aborted call recorded nothing; the explore stage never got an answer.
    expect(types.filter((type) => type === 'inference_completed')).toHaveLength(1);
    expect(outcome.state.session.cycles).toEqual({
      'explore->implement': 1,
      'implement->end:completed': 1,
    });
    await expectReplayIdentical(store, 's-redirect', config);
  });

  it('refuses a move the workflow does not declare, and a waiting session redirected elsewhere drops its pending approval', async () => {
    const model = scriptedModel([change('explored'), change('implemented')]);
    const { store, config, options, start } = await setup('s-redirect-wait', model);
    const waiting = await runSession(options, start);
    expect(waiting.waiting?.kind).toBe('approval');

    // explore has no transition to itself, and there is no stage `deploy`.
    for (const to of ['explore', 'deploy']) {
      const refused = await runSession(options, { type: 'redirect', to, by: 'alice' });
      expect(refused.waiting?.kind).toBe('approval');
    }
    const refusals = (await eventsOf(store, 's-redirect-wait')).filter(
      (event) => event.payload.type === 'redirect_rejected',
    );
    expect(refusals.map((event) => event.payload)).toEqual([
      {
        type: 'redirect_rejected',
        from: 'explore',
        to: 'explore',
        by: 'alice',
        message: 'stage explore has no transition to explore; it may go to: implement',
      },
      {
        type: 'redirect_rejected',
        from: 'explore',
        to: 'deploy',
        by: 'alice',
        message: 'workflow explore-implement has no stage deploy',
      },
    ]);

    const moved = await runSession(options, { type: 'redirect', to: 'implement', by: 'alice' });
    expect(moved.status).toBe('completed');
    expect(moved.state.session.pendingApprovals).toEqual([]);
    const types = typesOf(await eventsOf(store, 's-redirect-wait'));
    const at = types.lastIndexOf('redirect_requested');
    expect(types.slice(at, at + 6)).toEqual([
      'redirect_requested',
      'approval_denied',
      'stage_redirected',
      'transition_taken',
      'stage_checkpoint_recorded',
      'stage_started',
    ]);
    await expectReplayIdentical(store, 's-redirect-wait', config);
  });

  it('cannot redirect a session that is not running', async () => {
    const model = scriptedModel([]);
    const { options } = await setup('s-redirect-new', model);
    await expect(
      runSession(options, { type: 'redirect', to: 'implement', by: 'alice' }),
    ).rejects.toThrow(/only a running session can be redirected/);
  });
});

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSession } from '../../src/core/kernel/index.js';
import { decideCommand } from '../../src/core/kernel/decider/decide-command.js';
import { kernelProjection } from '../../src/core/kernel/decider/kernel-state.js';
import { chatWorkflow } from '../../src/core/transitions/chat-workflow.js';
import { currentBehaviour } from '../../src/core/kernel/config/behaviour.js';
import { FOLLOW_UP_TURNS } from '../../src/core/kernel/config/kernel-flags.js';
import { replay } from '../../src/core/events/replay.js';
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
const json = (value: unknown) => ({ text: JSON.stringify(value) });

describe('follow-up turns (flag follow-up-turns)', () => {
  it('takes a second request after the workflow completed, notices a hand edit, runs chat, replays', async () => {
    const { workspace, storePath } = scenarioWorkspace({ 'notes.txt': 'start\n' });
    const store = openStore(storePath);
    stores.push(store);
    const model = scriptedModel([
      { toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'one\n' } }] },
      json({ summary: 'wrote a.txt', filesChanged: ['a.txt'] }),
      // Turn 2, in the chat workflow: reads the file the person edited, writes b.txt, replies.
      { toolCalls: [{ name: 'read_file', args: { path: 'a.txt' } }] },
      { toolCalls: [{ name: 'write_file', args: { path: 'b.txt', content: 'two\n' } }] },
      json({ message: 'Wrote b.txt and kept your edit of a.txt.' }),
    ]);
    const config = scenarioConfig({ workflow: implementOnlyWorkflow() });
    const options = {
      store,
      sessionId: 's-turns',
      config,
      ports: livePorts(model),
      clock: newClock(),
      ids: newIds(),
    };
    const first = await runSession(options, {
      type: 'start',
      task: 'Write a.txt',
      workspace,
      workflowId: 'implement-only',
      mode: 'yolo',
    });
    expect(first.status).toBe('completed');

    // The person edits the file the session wrote, by hand, between the turns.
    writeFileSync(join(workspace, 'a.txt'), 'one, edited by hand\n');

    const second = await runSession(options, {
      type: 'continue',
      text: 'Now also write b.txt',
      by: 'ana',
      workflowId: 'chat',
      workflow: chatWorkflow.definition as { [key: string]: unknown },
    });
    expect(second.status).toBe('completed');
    expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe('one, edited by hand\n');
    expect(readFileSync(join(workspace, 'b.txt'), 'utf8')).toBe('two\n');

    const events = await eventsOf(store, 's-turns');
    const types = typesOf(events);
    const turnAt = types.indexOf('turn_requested');
    expect(types.slice(turnAt, turnAt + 6)).toEqual([
      'turn_requested',
      'world_observed',
      'turn_workspace_checked',
      'workflow_started',
      'stage_checkpoint_recorded',
      'stage_started',
    ]);
    expect(types.filter((type) => type === 'workflow_completed')).toHaveLength(2);
    const byType = (type: string) => events.find((event) => event.payload.type === type)!.payload;
    expect(byType('turn_requested')).toMatchObject({
      turn: 2,
      text: 'Now also write b.txt',
      requestedBy: 'ana',
      workflowId: 'chat',
    });
    expect(byType('turn_workspace_checked')).toMatchObject({
      turn: 2,
      compared: 1,
      changed: [{ path: join(workspace, 'a.txt'), kind: 'modified' }],
    });
    expect(events.filter((e) => e.payload.type === 'workflow_started').at(-1)!.payload).toEqual({
      type: 'workflow_started',
      workflowId: 'chat',
      firstStageId: 'chat',
    });
    expect(byType('turn_reply_recorded')).toMatchObject({
      turn: 2,
      stageId: 'chat',
      message: 'Wrote b.txt and kept your edit of a.txt.',
      filesChanged: [join(workspace, 'b.txt')],
    });
    // The turn's model was told what the first turn did and what was edited by hand.
    const pack = model.request(2);
    expect(pack).toContain('Task (follow-up turn 2 of this session');
    expect(pack).toContain('Now also write b.txt');
    expect(pack).toContain('Turn 1 of this session');
    expect(pack).toContain('files changed: a.txt');
    expect(pack).toContain('changed outside correx');
    expect(pack).toMatch(/- a\.txt: modified/);

    await expectReplayIdentical(store, 's-turns', config);

    // A third turn without a workflow named stays in chat; the state says turn 3 is next.
    const { state } = await replay(store, kernelProjection, 's-turns');
    expect(state.features.turns.turns.map((turn) => [turn.turn, turn.outcome])).toEqual([
      [1, 'completed'],
      [2, 'completed'],
    ]);
    expect(decideCommand(state, 's-turns', { type: 'continue', text: 'more', by: 'ana' })).toEqual([
      {
        type: 'turn_requested',
        turn: 3,
        text: 'more',
        requestedBy: 'ana',
        workflowId: 'chat',
        workflow: chatWorkflow.definition,
      },
    ]);
  });

  it('refuses a running session, an empty request, and a session recorded without the flag', async () => {
    const { workspace, storePath } = scenarioWorkspace({});
    const store = openStore(storePath);
    stores.push(store);
    const behaviour = currentBehaviour();
    const without = new Set([...behaviour.flags].filter((flag) => flag !== FOLLOW_UP_TURNS.name));
    const model = scriptedModel([json({ summary: 'nothing to do', filesChanged: [] })]);
    const config = scenarioConfig({
      workflow: implementOnlyWorkflow(),
      behaviour: { ...behaviour, flags: without },
    });
    const outcome = await runSession(
      {
        store,
        sessionId: 's-old',
        config,
        ports: livePorts(model),
        clock: newClock(),
        ids: newIds(),
      },
      { type: 'start', task: 'Do nothing', workspace, workflowId: 'implement-only', mode: 'yolo' },
    );
    expect(outcome.status).toBe('completed');
    const { state } = await replay(store, kernelProjection, 's-old');
    expect(() =>
      decideCommand(state, 's-old', { type: 'continue', text: 'again', by: 'ana' }),
    ).toThrow(/without follow-up turns/);
    const on = {
      ...state,
      features: { ...state.features, turns: { ...state.features.turns, on: true } },
    };
    expect(() => decideCommand(on, 's-old', { type: 'continue', text: '  ', by: 'ana' })).toThrow(
      /needs a request text/,
    );
    const running = { ...on, session: { ...on.session, status: 'running' as const } };
    expect(() =>
      decideCommand(running, 's-old', { type: 'continue', text: 'x', by: 'ana' }),
    ).toThrow(/waits until its workflow ended/);
  });
});

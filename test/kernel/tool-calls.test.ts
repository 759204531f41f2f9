import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSession } from '../../src/core/kernel/index.js';
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

const done = { text: JSON.stringify({ summary: 'done', filesChanged: ['notes.txt'] }) };

async function run(
  sessionId: string,
  turns: Parameters<typeof scriptedModel>[0],
  mode: 'auto' | 'yolo' | 'prompt' = 'auto',
  files: Record<string, string> = {},
) {
  const { workspace, storePath } = scenarioWorkspace(files);
  const store = openStore(storePath);
  stores.push(store);
  const model = scriptedModel(turns);
  const config = scenarioConfig({ workflow: implementOnlyWorkflow() });
  const outcome = await runSession(
    { store, sessionId, config, ports: livePorts(model), clock: newClock(), ids: newIds() },
    { type: 'start', task: 'Write notes.txt', workspace, workflowId: 'implement-only', mode },
  );
  const events = await eventsOf(store, sessionId);
  await expectReplayIdentical(store, sessionId, config);
  return { workspace, store, model, outcome, events, config };
}

describe('tool calls in a stage turn', () => {
  it('turns malformed arguments into a recoverable failure whose schema hint reaches the next pack', async () => {
    const { workspace, model, outcome, events } = await run('s-malformed', [
      { toolCalls: [{ name: 'write_file', argsRaw: '{"path": "notes.txt", "content": ' }] },
      { toolCalls: [{ name: 'write_file', args: { path: 'notes.txt', contents: 'x' } }] },
      { toolCalls: [{ name: 'write_file', args: { path: 'notes.txt', content: 'fixed\n' } }] },
      done,
    ]);
    expect(outcome.status).toBe('completed');
    expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe('fixed\n');
    const rejections = events.filter((event) => event.payload.type === 'tool_call_rejected');
    expect(rejections.map((event) => event.payload)).toMatchObject([
      {
        reason: 'malformed_args',
        tool: 'write_file',
        message: expect.stringContaining('not valid JSON'),
      },
      {
        reason: 'malformed_args',
        tool: 'write_file',
        message: expect.stringContaining('the schema'),
      },
    ]);
    // Neither malformed call was assessed or run; the hint with the schema reached the next packs.
    expect(typesOf(events).filter((type) => type === 'tool_call_assessed')).toHaveLength(1);
    expect(model.request(1)).toContain('Call it again with arguments matching this JSON Schema');
    expect(model.request(1)).toContain('"content"');
    expect(model.request(2)).toContain('Your last call to tool "write_file" failed');
  });

  it('blocks a write outside the workspace in every mode (yolo included) and tells the model', async () => {
    const { workspace, model, outcome, events } = await run(
      's-blocked',
      [
        { toolCalls: [{ name: 'write_file', args: { path: '../escape.txt', content: 'out\n' } }] },
        // Nothing was written: claiming a changed file would be refuted by the log.
        { text: JSON.stringify({ summary: 'could not write', filesChanged: [] }) },
      ],
      'yolo',
    );
    expect(outcome.status).toBe('completed');
    expect(existsSync(join(dirname(workspace), 'escape.txt'))).toBe(false);
    const assessed = events.find((event) => event.payload.type === 'tool_call_assessed');
    expect(assessed?.payload).toMatchObject({ verdict: 'BLOCK' });
    const denied = events.find((event) => event.payload.type === 'approval_denied');
    expect(denied?.payload).toMatchObject({ by: { kind: 'auto', id: 'policy' } });
    expect(typesOf(events)).not.toContain('tool_call_started');
    expect(model.request(1)).toContain('was not run: blocked by policy');
  });

  it('stops a model that repeats the same failing call, by fingerprint', async () => {
    const edit = {
      toolCalls: [
        { name: 'edit_file', args: { path: 'notes.txt', search: 'absent', replace: 'x' } },
      ],
    };
    const read = { toolCalls: [{ name: 'read_file', args: { path: 'notes.txt' } }] };
    const { outcome, events, model } = await run(
      's-repeat',
      [read, edit, edit, edit, edit],
      'auto',
      {
        'notes.txt': 'text\n',
      },
    );
    expect(outcome.status).toBe('failed');
    // Two identical failures ran; the third identical proposal failed the attempt without running.
    expect(
      events.filter((event) => event.payload.type === 'tool_receipt').map((event) => event.payload),
    ).toMatchObject([
      { outcome: 'succeeded', tool: 'read_file' },
      { outcome: 'failed' },
      { outcome: 'failed' },
    ]);
    expect(events.find((event) => event.payload.type === 'stage_failed')?.payload).toMatchObject({
      category: 'tool',
      message: expect.stringContaining('same failing edit_file call 3 times'),
    });
    expect(model.requests()).toBe(4);
    // Every proposal ends with exactly one outcome: a receipt, or a refusal (the third repeat).
    const outcomes = new Set(['tool_receipt', 'tool_call_rejected', 'approval_denied']);
    for (const proposed of events.filter((event) => event.payload.type === 'tool_call_proposed')) {
      const callId = (proposed.payload as { callId: string }).callId;
      const ending = events.filter(
        (event) =>
          outcomes.has(event.payload.type) &&
          (event.payload as { callId?: string }).callId === callId,
      );
      expect(
        ending.map((event) => event.payload.type),
        callId,
      ).toHaveLength(1);
    }
    expect(
      events.find((event) => event.payload.type === 'tool_call_rejected')?.payload,
    ).toMatchObject({
      reason: 'repeated_failure',
      tool: 'edit_file',
    });
  });

  it('rejects an exec whose program cannot be named as malformed, never asks it as a program', async () => {
    const argvs = [[''], [' sh'], ['sh\u0000'], ['sh', '-c', 'a\u0000b']];
    const { outcome, events } = await run(
      's-malformed-argv',
      [
        ...argvs.map((argv) => ({ toolCalls: [{ name: 'exec', args: { argv } }] })),
        { text: JSON.stringify({ summary: 'nothing ran', filesChanged: [] }) },
      ],
      'prompt',
    );
    expect(outcome.status).toBe('completed');
    const rejections = events
      .filter((event) => event.payload.type === 'tool_call_rejected')
      .map((event) => event.payload);
    expect(rejections).toMatchObject([
      {
        reason: 'malformed_args',
        message: expect.stringContaining('`argv[0]` (the program) is empty'),
      },
      {
        reason: 'malformed_args',
        message: expect.stringContaining('starts or ends with white space'),
      },
      { reason: 'malformed_args', message: expect.stringContaining('holds a control character') },
      { reason: 'malformed_args', message: expect.stringContaining('`argv[2]` holds a NUL') },
    ]);
    // None of them was assessed, asked or run.
    expect(typesOf(events)).not.toContain('tool_call_assessed');
    expect(typesOf(events)).not.toContain('approval_requested');
    expect(typesOf(events)).not.toContain('tool_receipt');
  });

  it('bounds the turns of a stage', async () => {
    const list = { toolCalls: [{ name: 'list_dir', args: { path: '.' } }] };
    const { workspace, storePath } = scenarioWorkspace({});
    const store = openStore(storePath);
    stores.push(store);
    const config = scenarioConfig({
      workflow: implementOnlyWorkflow(),
      limits: { maxTurnsPerStage: 3 },
    });
    const outcome = await runSession(
      {
        store,
        sessionId: 's-turns',
        config,
        ports: livePorts(scriptedModel([list, list, list, list])),
        clock: newClock(),
        ids: newIds(),
      },
      { type: 'start', task: 'loop', workspace, workflowId: 'implement-only', mode: 'auto' },
    );
    expect(outcome.status).toBe('failed');
    const events = await eventsOf(store, 's-turns');
    expect(typesOf(events).filter((type) => type === 'inference_requested')).toHaveLength(3);
    expect(events.find((event) => event.payload.type === 'stage_failed')?.payload).toMatchObject({
      category: 'inference',
      message: expect.stringContaining('used its 3 turns'),
    });
    await expectReplayIdentical(store, 's-turns', config);
  });
});

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  sse,
  startFakeHttpServer,
  type FakeHandler,
  type FakeHttpServer,
} from '../providers/fake-http-server.js';
import { chatCompletionStream } from '../providers/openai-wire.js';
import { outsideTmpFolder } from '../support/outside-tmp.js';
import { correx } from './cli-process.js';

type Event = {
  sequence: number;
  payload: Record<string, unknown> & { type: string };
};

function stage(id: string, next: string | null): string {
  return `  - id: ${id}
    role: worker
    instructions: Change the workspace as the task says.
    allowedTools: [read_file, write_file]
    capabilities: [tool_calling]
    artifact:
      kind: change
      schema:
        type: object
        properties:
          summary: { type: string }
          filesChanged: { type: array, items: { type: string } }
        required: [summary, filesChanged]
        additionalProperties: false
    transitions:
      - when: { on: success }
        ${next === null ? 'end: completed' : `to: ${next}`}
      - when: { on: failure }
        end: failed
`;
}

/** A workflow of the given stages in order, each changing files and then finishing. */
function workflow(id: string, stages: readonly string[]): string {
  return `id: ${id}\ninitialStage: ${stages[0]}\nstages:\n${stages
    .map((name, index) => stage(name, stages[index + 1] ?? null))
    .join('')}`;
}

function call(id: string, name: string, args: Record<string, unknown>): FakeHandler {
  return sse(chatCompletionStream({ toolCalls: [{ id, name, arguments: JSON.stringify(args) }] }));
}

function write(id: string, path: string, content: string): FakeHandler {
  return call(id, 'write_file', { path, content });
}

function finish(files: string[]): FakeHandler {
  return call('fin', 'finish_change', { summary: 'changed files', filesChanged: files });
}

const TIMEOUT = 240_000;

describe('correx fork --at a stage or a call, with another profile set, policy or workflow', () => {
  const root = outsideTmpFolder();
  const home = join(root, 'home');
  const workspace = join(root, 'project');
  const twoStages = join(root, 'two-stages.yaml');
  let model: FakeHttpServer;
  let parentId = '';
  let parent: Event[] = [];

  async function events(sessionId: string): Promise<Event[]> {
    const listed = await correx(home, ['events', sessionId, '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    return listed.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Event);
  }

  /** The last input before `sequence` that no open effect surrounds, as the fork point is defined. */
  function lastInputBefore(sequence: number, types: readonly string[]): number {
    return parent
      .filter((event) => event.sequence < sequence && types.includes(event.payload.type))
      .at(-1)!.sequence;
  }

  async function forked(args: string[]): Promise<{ id: string; stdout: string; events: Event[] }> {
    const ran = await correx(home, ['fork', parentId, ...args, '--mode', 'auto']);
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
    const id = /^session (\S+)$/m.exec(ran.stdout)![1]!;
    const replayed = await correx(home, ['replay', id, '--verify']);
    expect(replayed.code, replayed.stdout + replayed.stderr).toBe(0);
    return { id, stdout: ran.stdout, events: await events(id) };
  }

  beforeAll(async () => {
    model = await startFakeHttpServer();
    mkdirSync(home, { recursive: true });
    mkdirSync(workspace, { recursive: true });
    writeFileSync(join(workspace, 'keep.txt'), 'keep\n');
    writeFileSync(twoStages, workflow('two-stages', ['draft', 'polish']));
    writeFileSync(
      join(root, 'draft-finalize.yaml'),
      workflow('draft-finalize', ['draft', 'finalize']),
    );
    writeFileSync(join(root, 'polish-only.yaml'), workflow('polish-only', ['polish']));
    writeFileSync(
      join(root, 'policy.yaml'),
      ['policy:', '  neverWritable: ["**/b.txt"]', ''].join('\n'),
    );
    writeFileSync(
      join(home, 'harness.yaml'),
      [
        'providers:',
        `  wire: { kind: openai-compatible, baseUrl: "${model.url}/v1" }`,
        'models:',
        ...['a', 'b', 'c'].flatMap((name) => [
          `  - id: model-${name}`,
          '    provider: wire',
          `    model: served-${name}`,
          '    capabilities: [tool_calling, json_output]',
          '    contextWindow: 32768',
          ...(name === 'c' ? ['    priority: 5'] : []),
        ]),
        '',
      ].join('\n'),
    );
    // The parent: draft writes a.txt, polish writes b.txt.
    model.reply(
      write('d1', 'a.txt', 'draft\n'),
      finish(['a.txt']),
      write('p1', 'b.txt', 'polished\n'),
      finish(['b.txt']),
    );
    const ran = await correx(home, [
      'run',
      'draft then polish',
      '--workspace',
      workspace,
      '--workflow',
      twoStages,
      '--model',
      'model-a',
      '--mode',
      'auto',
    ]);
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
    parentId = /^session (\S+)$/m.exec(ran.stdout)![1]!;
    parent = await events(parentId);
    expect(parent.at(-1)!.payload.type).toBe('workflow_completed');
  }, TIMEOUT);
  afterAll(async () => {
    await model?.close();
  });

  it(
    'refuses an unknown stage or call, naming the ones the session has',
    async () => {
      const sessionsBefore = (await correx(home, ['sessions', '--json'])).stdout;
      const stageUnknown = await correx(home, ['fork', parentId, '--at', 'stage:review']);
      expect(stageUnknown.code).toBe(1);
      expect(stageUnknown.stderr).toMatch(
        /never started a stage "review"; the stages it started: draft#1 \(#\d+\), polish#1 \(#\d+\)/,
      );
      const attempt = await correx(home, ['fork', parentId, '--at', 'polish#2']);
      expect(attempt.code).toBe(1);
      expect(attempt.stderr).toMatch(
        /started stage polish 1 time\(s\), not an attempt 2: stage:polish#1/,
      );
      const callUnknown = await correx(home, ['fork', parentId, '--at', 'call:polish.1.1.9']);
      expect(callUnknown.code).toBe(1);
      expect(callUnknown.stderr).toMatch(
        /proposed no tool call "polish\.1\.1\.9"; the nearest: polish\.1\.1\.1 \(write_file, #\d+\)/,
      );
      const callIndex = await correx(home, ['fork', parentId, '--at', 'call:7']);
      expect(callIndex.code).toBe(1);
      expect(callIndex.stderr).toContain(
        'proposed 2 tool call(s): call:7 is not one of call:1..call:2',
      );
      const nonsense = await correx(home, ['fork', parentId, '--at', 'Not A Point']);
      expect(nonsense.code).toBe(1);
      expect(nonsense.stderr).toContain('not a sequence, a stage');
      // Names given to the fork are checked too, before anything is written.
      const both = await correx(home, [
        'fork',
        parentId,
        '--at',
        'polish',
        '--model',
        'model-b',
        '--profile',
        'model-c',
      ]);
      expect(both.code).toBe(2);
      expect(both.stderr).toContain('give one of them');
      const unknownProfile = await correx(home, [
        'fork',
        parentId,
        '--at',
        'polish',
        '--profile',
        'nope',
      ]);
      expect(unknownProfile.code).toBe(2);
      expect(unknownProfile.stderr).toContain('no model profile "nope"');
      // A workflow without the stage the fork is in (draft, still active before polish starts).
      const lacking = await correx(home, [
        'fork',
        parentId,
        '--at',
        'stage:polish',
        '--workflow',
        join(root, 'polish-only.yaml'),
      ]);
      expect(lacking.code).toBe(1);
      expect(lacking.stderr).toContain(
        'workflow polish-only has no stage "draft", where the fork goes on (its stages: polish)',
      );
      expect((await correx(home, ['sessions', '--json'])).stdout).toBe(sessionsBefore);
    },
    TIMEOUT,
  );

  it(
    'forks at a stage (stage:<id> or the bare id) onto another model: from the point before it started',
    async () => {
      const polishStarted = parent.find(
        (event) => event.payload.type === 'stage_started' && event.payload.stageId === 'polish',
      )!.sequence;
      const k = lastInputBefore(polishStarted, [
        'inference_completed',
        'tool_receipt',
        'world_observed',
      ]);
      model.reply(write('q1', 'b.txt', 'other polish\n'), finish(['b.txt']));
      const before = model.requests.length;
      const fork = await forked(['--at', 'stage:polish', '--model', 'model-b']);
      expect(fork.stdout).toContain(
        `at #${k} (before stage polish#1 (started at #${polishStarted}))`,
      );
      expect(fork.events[k]!.payload).toMatchObject({
        type: 'session_forked',
        atSequence: k,
        modelProfile: 'model-b',
      });
      for (const request of model.requests.slice(before))
        expect(request.body).toMatchObject({ model: 'served-b' });
      // The bare stage id names the same point (refused here only for its workspace).
      mkdirSync(join(root, 'taken'), { recursive: true });
      writeFileSync(join(root, 'taken', 'x'), 'x');
      const bare = await correx(home, [
        'fork',
        parentId,
        '--at',
        'polish',
        '--workspace',
        join(root, 'taken'),
      ]);
      expect(bare.code).toBe(1);
      expect(bare.stderr).toContain('is not empty');
      const forkWorkspace = fork.events[k]!.payload.workspace as string;
      expect(readFileSync(join(forkWorkspace, 'b.txt'), 'utf8')).toBe('other polish\n');
      expect(readFileSync(join(forkWorkspace, 'a.txt'), 'utf8')).toBe('draft\n');
    },
    TIMEOUT,
  );

  it(
    'forks at a call under another policy: the recorded proposal is assessed anew and blocked',
    async () => {
      const proposed = parent.find(
        (event) =>
          event.payload.type === 'tool_call_proposed' && event.payload.callId === 'polish.1.1.1',
      )!.sequence;
      const k = lastInputBefore(proposed, [
        'inference_completed',
        'tool_receipt',
        'world_observed',
      ]);
      const parentVerdict = parent.find(
        (event) =>
          event.payload.type === 'tool_call_assessed' && event.payload.callId === 'polish.1.1.1',
      )!.payload.verdict;
      expect(parentVerdict).not.toBe('BLOCK');
      model.reply(finish([]));
      const fork = await forked(['--at', 'call:2', '--policy', join(root, 'policy.yaml')]);
      expect(fork.stdout).toContain(
        `at #${k} (before call polish.1.1.1 (write_file, proposed at #${proposed}))`,
      );
      expect(fork.events[k]!.payload).toMatchObject({
        type: 'session_forked',
        policy: { path: join(root, 'policy.yaml') },
      });
      const configuration = fork.events[0]!.payload as unknown as {
        configuration: { policy: { neverWritable: string[] } };
        files: { path: string }[];
      };
      expect(configuration.configuration.policy.neverWritable).toContain('**/b.txt');
      // Protected as any session's policy is: correx's home stays never writable.
      expect(
        configuration.configuration.policy.neverWritable.some((glob) => glob.startsWith(home)),
      ).toBe(true);
      expect(configuration.files.map((file) => file.path)).toContain(join(root, 'policy.yaml'));
      const assessed = fork.events.find(
        (event) =>
          event.sequence > k &&
          event.payload.type === 'tool_call_assessed' &&
          event.payload.callId === 'polish.1.1.1',
      )!;
      expect(assessed.payload.verdict).toBe('BLOCK');
      const forkWorkspace = fork.events[k]!.payload.workspace as string;
      expect(existsSync(join(forkWorkspace, 'b.txt'))).toBe(false);
      // By call id: the same point.
      const byId = await correx(home, [
        'fork',
        parentId,
        '--at',
        'call:polish.1.1.1',
        '--workspace',
        join(root, 'taken'),
      ]);
      expect(byId.stderr).toContain('is not empty');
    },
    TIMEOUT,
  );

  it(
    'forks onto a set of profiles (--profile, routed by priority) and onto another workflow',
    async () => {
      model.reply(write('r1', 'b.txt', 'routed\n'), finish(['b.txt']));
      const before = model.requests.length;
      const routed = await forked([
        '--at',
        'polish',
        '--profile',
        'model-b',
        '--profile',
        'model-c',
      ]);
      const k = routed.events.findIndex((event) => event.payload.type === 'session_forked');
      expect(routed.events[k]!.payload).toMatchObject({ profiles: ['model-b', 'model-c'] });
      expect(routed.events[k]!.payload.modelProfile).toBeUndefined();
      const models = (routed.events[0]!.payload.configuration as { models: { id: string }[] })
        .models;
      expect(models.map((profile) => profile.id)).toEqual(['model-b', 'model-c']);
      // model-c has the higher priority.
      for (const request of model.requests.slice(before))
        expect(request.body).toMatchObject({ model: 'served-c' });

      model.reply(write('w1', 'final.txt', 'final\n'), finish(['final.txt']));
      const other = await forked([
        '--at',
        'stage:polish',
        '--workflow',
        join(root, 'draft-finalize.yaml'),
      ]);
      const marker = other.events.find((event) => event.payload.type === 'session_forked')!;
      expect(marker.payload).toMatchObject({ workflow: 'draft-finalize' });
      expect(
        (other.events[0]!.payload.configuration as { workflow: { id: string } }).workflow.id,
      ).toBe('draft-finalize');
      const stages = other.events
        .filter(
          (event) => event.sequence > marker.sequence && event.payload.type === 'stage_started',
        )
        .map((event) => event.payload.stageId);
      expect(stages).toEqual(['finalize']);
      expect(other.events.at(-1)!.payload.type).toBe('workflow_completed');
    },
    TIMEOUT,
  );
});

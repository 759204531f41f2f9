import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';
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
import { oneStageWorkflow } from '../support/write-once-workflow.js';

const WORKFLOW = oneStageWorkflow('change-files', ['read_file', 'write_file', 'exec']);

type Snapshot = Record<string, { mode: number; sha256: string }>;
type Event = {
  eventId: string;
  sequence: number;
  hash: string;
  timestamp: string;
  payload: Record<string, unknown> & { type: string };
};

/** Every file under `root`, by relative path: its SHA-256 and mode. */
function snapshot(root: string): Snapshot {
  const out: Snapshot = {};
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else
        out[relative(root, path)] = {
          mode: statSync(path).mode & 0o7777,
          sha256: createHash('sha256').update(readFileSync(path)).digest('hex'),
        };
    }
  };
  walk(root);
  return out;
}

function call(id: string, name: string, args: Record<string, unknown>): FakeHandler {
  return sse(chatCompletionStream({ toolCalls: [{ id, name, arguments: JSON.stringify(args) }] }));
}

/** Takes a snapshot of `root` when the model is asked, then answers as `then`. */
function snapshotting(root: string, into: Snapshot[], then: FakeHandler): FakeHandler {
  return (request, response) => {
    into.push(snapshot(root));
    then(request, response);
  };
}

function finish(files: string[]): FakeHandler {
  return call('fin', 'finish_change', { summary: 'changed files', filesChanged: files });
}

describe('correx fork: a session forked mid-way onto another model, workspace included', () => {
  const root = outsideTmpFolder();
  const home = join(root, 'home');
  const parentWorkspace = join(root, 'project');
  const workflowFile = join(root, 'change-files.yaml');
  let model: FakeHttpServer;

  beforeAll(async () => {
    model = await startFakeHttpServer();
    mkdirSync(home, { recursive: true });
    mkdirSync(join(parentWorkspace, 'src'), { recursive: true });
    writeFileSync(join(parentWorkspace, 'keep.txt'), 'keep\n');
    writeFileSync(join(parentWorkspace, 'old.txt'), 'old\n');
    writeFileSync(join(parentWorkspace, 'src/tool.sh'), '#!/bin/sh\necho tool\n');
    chmodSync(join(parentWorkspace, 'src/tool.sh'), 0o755);
    writeFileSync(workflowFile, WORKFLOW);
    writeFileSync(
      join(home, 'harness.yaml'),
      [
        'providers:',
        `  wire: { kind: openai-compatible, baseUrl: "${model.url}/v1" }`,
        'models:',
        '  - id: model-a',
        '    provider: wire',
        '    model: served-a',
        '    capabilities: [tool_calling, json_output]',
        '    contextWindow: 32768',
        '  - id: model-b',
        '    provider: wire',
        '    model: served-b',
        '    capabilities: [tool_calling, json_output]',
        '    contextWindow: 32768',
        'policy:',
        '  allowedExecutables: [sh]',
        '',
      ].join('\n'),
    );
  });
  afterAll(async () => {
    await model?.close();
  });

  async function events(sessionId: string): Promise<Event[]> {
    const listed = await correx(home, ['events', sessionId, '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    return listed.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Event);
  }

  it('rebuilds the workspace at the event file by file, copies the prefix, goes on with the other model, and both replay; a missing pre-image is refused by name', async () => {
    // The parent: a write, a command that changes, creates, re-modes and deletes files, then (the
    // workspace snapshotted as the model is asked a third time) another write and a command.
    const parentSnapshots: Snapshot[] = [];
    model.reply(
      call('c1', 'write_file', { path: 'a.txt', content: 'one\n' }),
      call('c2', 'exec', {
        argv: ['sh', '-c', 'echo two >> a.txt; echo made > b.txt; chmod 600 b.txt; rm old.txt'],
      }),
      snapshotting(
        parentWorkspace,
        parentSnapshots,
        call('c3', 'write_file', { path: 'src/c.txt', content: 'three\n' }),
      ),
      call('c4', 'exec', {
        argv: ['sh', '-c', 'echo four > a.txt; chmod 755 a.txt; echo z > keep.txt; rm b.txt'],
      }),
      finish(['a.txt', 'b.txt', 'src/c.txt', 'keep.txt']),
    );
    const ran = await correx(home, [
      'run',
      'change the files',
      '--workspace',
      parentWorkspace,
      '--workflow',
      workflowFile,
      '--model',
      'model-a',
      '--mode',
      'auto',
    ]);
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
    const parentId = /^session (\S+)$/m.exec(ran.stdout)![1]!;
    const parent = await events(parentId);
    expect(parentSnapshots).toHaveLength(1);
    // The parent's workspace moved on after the snapshot.
    expect(snapshot(parentWorkspace)).not.toEqual(parentSnapshots[0]);

    // k: the last input before the third model request, where the snapshot was taken.
    const requests = parent.filter((event) => event.payload.type === 'inference_requested');
    const third = requests[2]!.sequence;
    const k = parent
      .filter(
        (event) =>
          event.sequence < third &&
          ['tool_receipt', 'world_observed', 'inference_completed'].includes(event.payload.type),
      )
      .at(-1)!.sequence;

    // Inside an open effect: refused, naming where it may fork.
    const started = parent.find((event) => event.payload.type === 'tool_call_started')!;
    const inside = await correx(home, ['fork', parentId, '--at', String(started.sequence)]);
    expect(inside.code).toBe(1);
    expect(inside.stderr).toMatch(
      /cannot fork .* at #\d+ \(tool_call_started\).*nearest points to fork at are #\d+/,
    );

    // The fork, onto model-b, snapshotted as its model is first asked.
    const forkWorkspace = join(root, 'forked');
    const forkSnapshots: Snapshot[] = [];
    model.reply(
      snapshotting(
        forkWorkspace,
        forkSnapshots,
        call('f1', 'write_file', { path: 'fork.txt', content: 'forked\n' }),
      ),
      finish(['fork.txt']),
    );
    const requestsBefore = model.requests.length;
    const forked = await correx(home, [
      'fork',
      parentId,
      '--at',
      String(k),
      '--model',
      'model-b',
      '--workspace',
      forkWorkspace,
    ]);
    expect(forked.code, forked.stdout + forked.stderr).toBe(0);
    const forkId = /^session (\S+)$/m.exec(forked.stdout)![1]!;
    expect(forked.stdout).toContain(`fork ${forkId} of ${parentId} at #${k}`);
    expect(forked.stdout).toContain(`⑂ forked by`);
    expect(forkId).not.toBe(parentId);

    // The rebuilt workspace is the parent's at k, file by file, contents and modes.
    expect(forkSnapshots).toHaveLength(1);
    expect(forkSnapshots[0]).toEqual(parentSnapshots[0]);
    expect(Object.keys(forkSnapshots[0]!).sort()).toEqual(
      ['a.txt', 'b.txt', 'keep.txt', 'src/tool.sh'].sort(),
    );
    expect(forkSnapshots[0]!['b.txt']!.mode).toBe(0o600);
    // The fork ran on model-b.
    const asked = model.requests.slice(requestsBefore).map((request) => request.body);
    expect(asked.length).toBeGreaterThan(0);
    for (const body of asked) expect(body).toMatchObject({ model: 'served-b' });

    // Its first k events are the parent's: payloads equal except its configuration (the other
    // model) and session_created's workspace; then session_forked names parent, k and hash.
    const fork = await events(forkId);
    const differing: string[] = [];
    for (let index = 0; index < k; index++) {
      expect(fork[index]!.timestamp).toBe(parent[index]!.timestamp);
      if (JSON.stringify(fork[index]!.payload) !== JSON.stringify(parent[index]!.payload))
        differing.push(fork[index]!.payload.type);
    }
    expect(differing).toEqual(['session_configured', 'session_created']);
    expect({
      ...fork.find((e) => e.payload.type === 'session_created')!.payload,
      workspace: parentWorkspace,
    }).toEqual(parent.find((e) => e.payload.type === 'session_created')!.payload);
    expect(fork[k]!.payload).toMatchObject({
      type: 'session_forked',
      parentSessionId: parentId,
      atSequence: k,
      parentHash: parent[k - 1]!.hash,
      parentWorkspace,
      workspace: forkWorkspace,
      modelProfile: 'model-b',
      missing: [],
    });
    // It completed, in its own workspace; the parent's is untouched by it.
    expect(fork.at(-1)!.payload.type).toBe('workflow_completed');
    expect(readFileSync(join(forkWorkspace, 'fork.txt'), 'utf8')).toBe('forked\n');
    expect(existsSync(join(parentWorkspace, 'fork.txt'))).toBe(false);

    // Both replay.
    const replayFork = await correx(home, ['replay', forkId, '--verify']);
    expect(replayFork.code, replayFork.stdout + replayFork.stderr).toBe(0);
    expect(replayFork.stdout).toContain(`fork of ${parentId} at #${k}`);
    const replayParent = await correx(home, ['replay', parentId, '--verify']);
    expect(replayParent.code, replayParent.stdout + replayParent.stderr).toBe(0);
    // The CI gate takes both too, and compare finds where they part: after the prefix.
    const gate = await correx(home, ['eval', 'replay', parentId, forkId]);
    expect(gate.code, gate.stdout + gate.stderr).toBe(0);
    const compared = await correx(home, ['compare', parentId, forkId, '--json']);
    expect(compared.code, compared.stderr).toBe(0);
    const comparison = JSON.parse(compared.stdout) as {
      configurationDiffers: string[];
      firstDifference: { sequence: number } | null;
    };
    expect(comparison.configurationDiffers).toContain('models');
    expect(comparison.firstDifference!.sequence).toBeGreaterThan(k);

    // The same fork with a needed content missing: a.txt's bytes at k ('one\ntwo\n') are gone
    // from the pre-image store. Refused, naming it, before anything is recorded or written.
    const needed = createHash('sha256').update('one\ntwo\n').digest('hex');
    const blob = join(home, 'preimages', needed.slice(0, 2), needed);
    expect(existsSync(blob)).toBe(true);
    rmSync(blob);
    const sessionsBefore = (await correx(home, ['sessions', '--json'])).stdout;
    const refusedWorkspace = join(root, 'refused');
    const refused = await correx(home, [
      'fork',
      parentId,
      '--at',
      String(k),
      '--model',
      'model-b',
      '--workspace',
      refusedWorkspace,
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/cannot rebuild the workspace .* a\.txt .*never kept/);
    expect(existsSync(refusedWorkspace)).toBe(false);
    expect((await correx(home, ['sessions', '--json'])).stdout).toBe(sessionsBefore);

    // Told to go on without it: a.txt is left as the parent's workspace holds it now, and named.
    model.reply(
      call('m1', 'write_file', { path: 'more.txt', content: 'more\n' }),
      finish(['more.txt']),
    );
    const allowed = await correx(home, [
      'fork',
      parentId,
      '--at',
      String(k),
      '--allow-missing',
      '--mode',
      'auto',
      '--workspace',
      refusedWorkspace,
      '--json',
    ]);
    expect(allowed.code, allowed.stdout + allowed.stderr).toBe(0);
    // With --json what a person reads goes to stderr; stdout streams the fork's events from
    // its session_forked on.
    expect(allowed.stderr).toContain(`not rebuilt (no content recorded at #${k}): a.txt`);
    const partialId = /^session (\S+)$/m.exec(allowed.stderr)![1]!;
    const streamed = allowed.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Event & { sessionId: string });
    expect(streamed[0]).toMatchObject({
      sessionId: partialId,
      sequence: k + 1,
      payload: { type: 'session_forked' },
    });
    expect(streamed.map((line) => line.payload?.type)).toContain('workflow_completed');
    const partial = await events(partialId);
    expect(partial[k]!.payload).toMatchObject({ type: 'session_forked', missing: ['a.txt'] });
    // Without --model the fork keeps the parent's configuration event as it is.
    expect(partial[0]!.payload).toEqual(parent[0]!.payload);
    expect(readFileSync(join(refusedWorkspace, 'a.txt'), 'utf8')).toBe('four\n');
    expect(readFileSync(join(refusedWorkspace, 'keep.txt'), 'utf8')).toBe('keep\n');
    expect((await correx(home, ['replay', partialId, '--verify'])).code).toBe(0);
    // A dozen CLI processes one after another: generous on a loaded machine.
  }, 300_000);
});

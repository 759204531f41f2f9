import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sse } from '../providers/fake-http-server.js';
import { chatCompletionStream } from '../providers/openai-wire.js';
import { cliWorld } from './cli-world.js';
import { correx } from './cli-process.js';

type Line = Record<string, unknown> & { type?: string; payload?: Record<string, unknown> };

const parseLines = (stdout: string): Line[] =>
  stdout
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Line);

const call = (id: string, name: string, args: Record<string, unknown>) =>
  sse(chatCompletionStream({ toolCalls: [{ id, name, arguments: JSON.stringify(args) }] }));

/**
 * A repository's harness.yaml asking for `writeScope: ["**"]` under a user whose scope is
 * narrower: the widening is dropped and the merged scope means "nothing writable". What is
 * recorded must still build the session again in another process (approve, resume, replay).
 */
describe('a workspace overlay whose write scope is refused as a widening', () => {
  const world = cliWorld('correx-overlay-scope-test-');

  it('records a policy other processes rebuild: approve, resume and replay --verify all work, and nothing is writable', async () => {
    const home = join(world.root, 'overlay-home');
    mkdirSync(home, { recursive: true });
    writeFileSync(
      join(home, 'harness.yaml'),
      ['policy:', '  writeScope: [["src/**"]]', '  tierOverrides: { read_file: T3 }', ''].join(
        '\n',
      ),
    );
    const workspace = world.workspace('overlay-ws');
    mkdirSync(join(workspace, 'src'));
    writeFileSync(join(workspace, 'src/a.txt'), 'hello\n');
    writeFileSync(join(workspace, 'harness.yaml'), 'policy:\n  writeScope: ["**"]\n');
    world.model.reply(
      call('call_1', 'read_file', { path: 'src/a.txt' }),
      call('call_2', 'write_file', { path: 'src/b.txt', content: 'x\n' }),
      call('call_3', 'finish_change', { summary: 'read only', filesChanged: [] }),
    );

    // The read asks (T3); nobody answers within the second, so the run stops with exit 4.
    const first = await correx(
      home,
      [
        'run',
        'read a file',
        '--workspace',
        workspace,
        '--workflow',
        world.workflowFile,
        '--mode',
        'prompt',
        '--json',
        '--wait-for-approval',
        '1s',
      ],
      world.env,
    );
    expect(first.code, first.stderr).toBe(4);
    const lines = parseLines(first.stdout);
    const configured = lines.find((line) => line.payload?.type === 'session_configured')!;
    const policy = (configured.payload!.configuration as { policy: { writeScope: string[][] } })
      .policy;
    expect(policy.writeScope).toEqual([['src/**'], []]);
    expect(JSON.stringify(configured)).not.toContain('\\u0000');
    const waiting = lines.find((line) => line.type === 'waiting')!;
    const id = waiting.sessionId as string;

    // Another process decides: it rebuilds the session's kernel from the recorded policy.
    const approved = await correx(home, ['approve', id, waiting.callId as string], world.env);
    expect(approved.code, approved.stderr).toBe(0);
    const resumed = await correx(
      home,
      ['resume', id, '--json', '--wait-for-approval', '1s'],
      world.env,
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    const after = parseLines(resumed.stdout);
    expect(after.at(-1)).toMatchObject({ type: 'summary', status: 'completed', exitCode: 0 });
    // The merged scope still narrows to nothing: the write is blocked, naming why.
    const denied = after.find(
      (line) => line.payload?.type === 'approval_denied' && line.payload.callId !== undefined,
    )!;
    expect(String(denied.payload!.reason)).toContain('nothing is writable');

    const replayed = await correx(home, ['replay', id, '--verify'], world.env);
    expect(replayed.code, replayed.stderr + replayed.stdout).toBe(0);
  }, 120_000);
});

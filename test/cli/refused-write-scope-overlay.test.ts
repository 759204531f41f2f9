import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
 * narrower. Untrusted, it is refused whole: a run without a terminal fails closed and records
 * nothing (before trust existed, the widening was dropped and the merged scope recorded an
 * internal NUL sentinel no other process could rebuild). Trusted, what is recorded builds the
 * session again in other processes: approve, resume and replay.
 */
describe('a workspace overlay that widens the write scope', () => {
  const world = cliWorld('correx-overlay-scope-test-');

  it('fails closed untrusted; trusted, records a policy other processes rebuild (approve, resume, replay --verify)', async () => {
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
    const runArgs = [
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
    ];

    const untrusted = await correx(home, runArgs, world.env);
    expect(untrusted.code, untrusted.stderr).toBe(2);
    expect(untrusted.stderr).toContain('policy widening writeScope **');
    expect(untrusted.stderr).toContain('correx trust');
    expect(untrusted.stdout).not.toContain('session_configured');

    const trusted = await correx(home, ['trust', workspace], world.env);
    expect(trusted.code, trusted.stderr).toBe(0);

    world.model.reply(
      call('call_1', 'read_file', { path: 'src/a.txt' }),
      call('call_2', 'write_file', { path: 'src/b.txt', content: 'x\n' }),
      call('call_3', 'finish_change', { summary: 'read and wrote', filesChanged: ['src/b.txt'] }),
    );
    // The read asks (T3); nobody answers within the second, so the run stops with exit 4.
    const first = await correx(home, runArgs, world.env);
    expect(first.code, first.stderr).toBe(4);
    const lines = parseLines(first.stdout);
    const configured = lines.find((line) => line.payload?.type === 'session_configured')!;
    expect(JSON.stringify(configured)).not.toContain('\\u0000');
    const waiting = lines.find((line) => line.type === 'waiting')!;
    const id = waiting.sessionId as string;

    // Other processes decide each call (the read, then the write) and resume: each rebuilds the
    // session's kernel from the recorded policy.
    let waitingFor: Line | undefined = waiting;
    let after: Line[] = [];
    for (let round = 0; waitingFor !== undefined && round < 4; round++) {
      const approved = await correx(home, ['approve', id, waitingFor.callId as string], world.env);
      expect(approved.code, approved.stderr).toBe(0);
      const resumed = await correx(
        home,
        ['resume', id, '--json', '--wait-for-approval', '1s'],
        world.env,
      );
      expect([0, 4], resumed.stderr).toContain(resumed.code);
      after = parseLines(resumed.stdout);
      waitingFor = after.find((line) => line.type === 'waiting');
    }
    expect(after.at(-1)).toMatchObject({ type: 'summary', status: 'completed', exitCode: 0 });
    expect(readFileSync(join(workspace, 'src/b.txt'), 'utf8')).toBe('x\n');

    const replayed = await correx(home, ['replay', id, '--verify'], world.env);
    expect(replayed.code, replayed.stderr + replayed.stdout).toBe(0);
  }, 120_000);
});

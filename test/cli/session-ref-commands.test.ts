import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeThenFinish } from '../support/model-turns.js';
import { startOtlpReceiver, type OtlpReceiver } from '../telemetry/otlp-receiver.js';
import { cliWorld } from './cli-world.js';
import { correx } from './cli-process.js';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-C', cwd, ...args], { encoding: 'utf8' }).trim();

/**
 * Issue #37: the commands the run summary tells a person to type next took neither a unique
 * start of an id nor --last, and each said "unknown" its own way.
 */
describe('every command that names a session takes a unique start of its id or --last', () => {
  const world = cliWorld('correx-session-ref-test-');
  let receiver: OtlpReceiver;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
  });
  afterAll(() => receiver.close());

  it('diff, undo, export otel, branch, merge, discard: by a start of the id and by --last; unknown ids alike', async () => {
    const { home, env } = world;
    const repository = world.workspace('repo');
    git(repository, 'init', '--quiet', '--initial-branch=main');
    writeFileSync(join(repository, 'README.md'), 'a repository\n');
    git(repository, 'add', 'README.md');
    git(repository, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '--quiet', '-m', 'i');
    world.model.reply(...writeThenFinish('hello.txt', 'hello\n'));
    const run = await correx(
      home,
      [
        'run',
        'write hello.txt',
        '--workspace',
        repository,
        '--workflow',
        world.workflowFile,
        '--mode',
        'auto',
        '--worktree',
      ],
      env,
    );
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const sessionId = /^session (\S+)$/m.exec(run.stdout)![1]!;
    const start = sessionId.slice(0, 10);

    const diff = await correx(home, ['diff', start]);
    expect(diff.code, diff.stderr).toBe(0);
    expect(diff.stdout).toContain('hello.txt');
    expect((await correx(home, ['diff', '--last'])).stdout).toBe(diff.stdout);

    const exported = await correx(home, ['export', 'otel', '--last', '--endpoint', receiver.url]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toMatch(new RegExp(`^sent \\d+ spans of session ${sessionId}$`, 'm'));
    expect(receiver.requests.length).toBeGreaterThan(0);

    const branch = await correx(home, ['branch', start]);
    expect(branch.code, branch.stderr).toBe(0);
    expect(branch.stdout.split('\n')[0]).toBe(`correx/${sessionId}`);
    expect((await correx(home, ['branch', '--last'])).stdout).toBe(branch.stdout);

    const merged = await correx(home, ['merge', start]);
    expect(merged.code, merged.stderr).toBe(0);
    expect(merged.stdout).toMatch(new RegExp(`^merged correx/${sessionId} into main`));
    expect(readFileSync(join(repository, 'hello.txt'), 'utf8')).toBe('hello\n');

    const undone = await correx(home, ['undo', '--last']);
    expect(undone.code, undone.stderr).toBe(0);
    expect(undone.stdout).toMatch(new RegExp(`recorded workspace_restored .* ${sessionId}`));

    const discarded = await correx(home, ['discard', start]);
    expect(discarded.code, discarded.stderr).toBe(0);
    expect(discarded.stdout).toMatch(/^removed worktree /m);

    const policyFile = join(world.root, 'policy.yaml');
    writeFileSync(policyFile, 'policy: {}\n');
    // An id naming no session: one wording, one exit code, whichever command was typed.
    for (const args of [
      ['diff', 'no-such'],
      ['undo', 'no-such'],
      ['export', 'otel', 'no-such', '--endpoint', receiver.url],
      ['branch', 'no-such'],
      ['merge', 'no-such'],
      ['discard', 'no-such'],
      ['show', 'no-such'],
      ['events', 'no-such'],
      ['replay', 'no-such'],
      ['policy', 'what-if', '--session', 'no-such', '--policy', policyFile],
    ]) {
      const unknown = await correx(home, args);
      expect(unknown.code, args.join(' ')).toBe(1);
      expect(unknown.stderr, args.join(' ')).toBe(
        'correx: no session no-such in this store (see `correx sessions`)\n',
      );
    }
    // Neither an id nor --last: a usage error, the same for all of them.
    for (const command of ['diff', 'undo', 'branch', 'merge', 'discard']) {
      const bare = await correx(home, [command]);
      expect(bare.code, command).toBe(2);
      expect(bare.stderr, command).toContain(
        'give a session id (or a unique start of one), or --last',
      );
    }
  }, 180_000);
});

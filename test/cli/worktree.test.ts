import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sse, startFakeHttpServer, type FakeHttpServer } from '../providers/fake-http-server.js';
import { chatCompletionStream } from '../providers/openai-wire.js';
import { tempDir } from '../support/temp-dir.js';
import { correx, startCorrex } from './cli-process.js';
import { WRITE_ONCE_WORKFLOW as WORKFLOW } from '../support/write-once-workflow.js';

/**
 * A stateless model for many sessions: the task names a letter; the session writes
 * `shared.txt` with that letter, then finishes with an artifact whose summary names it.
 */
function scriptModel(server: FakeHttpServer) {
  server.reply((request, response) => {
    const body = JSON.stringify(request.body);
    const letter = /TASK-([A-Z])/.exec(body)?.[1] ?? 'X';
    const content = `from session ${letter}\n`;
    const answer = body.includes(`from session ${letter}`)
      ? chatCompletionStream({
          toolCalls: [
            {
              id: 'finish',
              name: 'finish_change',
              arguments: JSON.stringify({
                summary: `shared.txt from ${letter}`,
                filesChanged: ['shared.txt'],
              }),
            },
          ],
        })
      : chatCompletionStream({
          toolCalls: [
            {
              id: 'call_1',
              name: 'write_file',
              arguments: JSON.stringify({ path: 'shared.txt', content }),
            },
          ],
        });
    sse(answer)(request, response);
  });
}

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-C', cwd, ...args], { encoding: 'utf8' }).trim();

describe('sessions isolated in git worktrees', () => {
  const root = realpathSync(tempDir('correx-worktree-test-'));
  const home = join(root, 'home');
  const repository = join(root, 'repo');
  const workflowFile = join(root, 'write-once.yaml');
  let model: FakeHttpServer;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    mkdirSync(home, { recursive: true });
    mkdirSync(repository);
    writeFileSync(workflowFile, WORKFLOW);
    git(repository, 'init', '--quiet', '--initial-branch=main');
    writeFileSync(join(repository, 'README.md'), 'a repository\n');
    git(repository, 'add', 'README.md');
    git(repository, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '--quiet', '-m', 'init');
    model = await startFakeHttpServer();
    scriptModel(model);
    env = { OPENAI_BASE_URL: `${model.url}/v1`, CORREX_MODEL: 'served-model' };
  });
  afterAll(async () => {
    await model.close();
  });

  it('runs two sessions at once on one repository, each on its own branch; merges one and refuses the conflicting other', async () => {
    // A change the sessions must not see, and that must stay where it is.
    writeFileSync(join(repository, 'scratch.txt'), 'uncommitted\n');
    const args = (letter: string) => [
      'run',
      `write TASK-${letter}`,
      '--workspace',
      repository,
      '--workflow',
      workflowFile,
      '--mode',
      'auto',
      '--worktree',
    ];
    const [a, b] = [startCorrex(home, args('A'), env), startCorrex(home, args('B'), env)];
    const [doneA, doneB] = await Promise.all([a.exited, b.exited]);
    for (const done of [doneA, doneB]) {
      expect(done.code, done.stdout + done.stderr).toBe(0);
      expect(done.stdout).toContain('✓ workflow completed');
      expect(done.stdout).toMatch(/note: 1 uncommitted change\(s\) in the original tree/);
    }
    const idOf = (stdout: string) => /^session (\S+)$/m.exec(stdout)![1]!;
    const worktreeOf = (stdout: string) =>
      /^worktree (\S+) on branch (\S+) \(from main\)$/m.exec(stdout)!;
    const [idA, idB] = [idOf(doneA.stdout), idOf(doneB.stdout)];
    const [, pathA, branchA] = worktreeOf(doneA.stdout);
    const [, pathB, branchB] = worktreeOf(doneB.stdout);
    expect(branchA).toBe(`correx/${idA}`);
    expect(branchB).toBe(`correx/${idB}`);
    expect(pathA).not.toBe(pathB);
    expect(readFileSync(join(pathA!, 'shared.txt'), 'utf8')).toBe('from session A\n');
    expect(readFileSync(join(pathB!, 'shared.txt'), 'utf8')).toBe('from session B\n');
    // The original tree is untouched: no session file, its own change still there.
    expect(existsSync(join(repository, 'shared.txt'))).toBe(false);
    expect(readFileSync(join(repository, 'scratch.txt'), 'utf8')).toBe('uncommitted\n');
    expect(existsSync(join(pathA!, 'scratch.txt'))).toBe(false);

    // One commit per accepted stage, pointing back into the log.
    const message = git(repository, 'log', '-1', '--format=%B', branchA!);
    expect(message).toMatch(/^implement: shared\.txt from A/);
    expect(message).toContain(`Correx-Session: ${idA}`);
    const sequence = Number(/Correx-Event: (\d+)/.exec(message)![1]);
    const events = await correx(home, ['events', idA, '--json'], env);
    const completed = events.stdout
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as { sequence: number; payload: { type: string } })
      .find((event) => event.sequence === sequence);
    expect(completed?.payload.type).toBe('stage_completed');
    expect(git(repository, 'rev-list', '--count', `main..${branchB}`)).toBe('1');

    const branch = await correx(home, ['branch', idA], env);
    expect(branch.stdout.split('\n')[0]).toBe(branchA);

    const mergedA = await correx(home, ['merge', idA], env);
    expect(mergedA.code, mergedA.stderr).toBe(0);
    expect(mergedA.stdout).toContain(`merged ${branchA} into main`);
    expect(readFileSync(join(repository, 'shared.txt'), 'utf8')).toBe('from session A\n');

    const mergedB = await correx(home, ['merge', idB], env);
    expect(mergedB.code).toBe(1);
    expect(mergedB.stderr).toMatch(/conflicts in shared\.txt; nothing was merged/);
    expect(readFileSync(join(repository, 'shared.txt'), 'utf8')).toBe('from session A\n');
    expect(git(repository, 'status', '--porcelain')).toBe('?? scratch.txt');

    const discarded = await correx(home, ['discard', idB], env);
    expect(discarded.code, discarded.stderr).toBe(0);
    expect(discarded.stdout).toContain(`removed worktree ${pathB} and branch ${branchB}`);
    expect(existsSync(pathB!)).toBe(false);
    expect(git(repository, 'branch', '--list', branchB!)).toBe('');

    // Both still replay byte for byte.
    for (const id of [idA, idB])
      expect((await correx(home, ['replay', id, '--verify'], env)).code).toBe(0);
  }, 180_000);
});

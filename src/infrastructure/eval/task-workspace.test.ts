import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  EvalGitReferenceError,
  materialiseTaskWorkspace,
  resolveGitWorkspace,
} from './task-workspace.js';

const root = mkdtempSync(join(tmpdir(), 'correx-task-workspace-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** git as a person runs it in the test's repository (their own configuration aside). */
function git(repository: string, args: string[]): string {
  return execFileSync('git', ['-C', repository, ...args], {
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      HOME: root,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@example.com',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@example.com',
    },
  }).trim();
}

/** A repository with two commits: `v1` (version one, a script, a link) and `main` after it. */
function twoCommits(name: string): { repository: string; first: string; second: string } {
  const repository = join(root, name);
  mkdirSync(join(repository, 'bin'), { recursive: true });
  git(repository, ['init', '-q', '-b', 'main']);
  writeFileSync(join(repository, 'version.txt'), 'one\n');
  writeFileSync(join(repository, 'bin', 'run.sh'), '#!/bin/sh\necho run\n');
  chmodSync(join(repository, 'bin', 'run.sh'), 0o755);
  execFileSync('ln', ['-s', 'version.txt', join(repository, 'current')]);
  git(repository, ['add', '-A']);
  git(repository, ['commit', '-q', '-m', 'one']);
  git(repository, ['tag', 'v1']);
  const first = git(repository, ['rev-parse', 'HEAD']);
  writeFileSync(join(repository, 'version.txt'), 'two\n');
  writeFileSync(join(repository, 'added.txt'), 'added in two\n');
  git(repository, ['add', '-A']);
  git(repository, ['commit', '-q', '-m', 'two']);
  return { repository, first, second: git(repository, ['rev-parse', 'HEAD']) };
}

describe('an eval task whose workspace is a git reference', () => {
  it('writes the tree of the commit the reference names, and names that commit', () => {
    const { repository, first, second } = twoCommits('two-commits');
    const atTag = resolveGitWorkspace(repository, 'v1');
    expect(atTag).toEqual({ kind: 'git', repository, ref: 'v1', commit: first });
    expect(resolveGitWorkspace(repository, first.slice(0, 10)).commit).toBe(first);
    expect(resolveGitWorkspace(repository, 'main').commit).toBe(second);

    const target = join(root, 'run-v1');
    materialiseTaskWorkspace(atTag, target);
    expect(readFileSync(join(target, 'version.txt'), 'utf8')).toBe('one\n');
    expect(existsSync(join(target, 'added.txt'))).toBe(false);
    expect(lstatSync(join(target, 'bin', 'run.sh')).mode & 0o777).toBe(0o755);
    expect(lstatSync(join(target, 'version.txt')).mode & 0o777).toBe(0o644);
    expect(readlinkSync(join(target, 'current'))).toBe('version.txt');
    // No git directory: nothing of the repository travels into the run's folder.
    expect(existsSync(join(target, '.git'))).toBe(false);

    const atMain = join(root, 'run-main');
    materialiseTaskWorkspace(resolveGitWorkspace(repository, 'main'), atMain);
    expect(readFileSync(join(atMain, 'version.txt'), 'utf8')).toBe('two\n');
    expect(readFileSync(join(atMain, 'added.txt'), 'utf8')).toBe('added in two\n');
    // A folder that is not empty is not written over.
    expect(() => materialiseTaskWorkspace(atTag, atMain)).toThrow(EvalGitReferenceError);
  });

  it('refuses a reference that does not name a commit, by name', () => {
    const { repository } = twoCommits('bad-refs');
    for (const ref of ['no-such-branch', 'v1:version.txt', '-c', 'a b'])
      expect(() => resolveGitWorkspace(repository, ref)).toThrow(
        expect.objectContaining({ code: 'eval_git_reference' }),
      );
    expect(() => resolveGitWorkspace(repository, 'no-such-branch')).toThrow(
      /git reference "no-such-branch" does not name a commit of the repository at/,
    );
    expect(() => resolveGitWorkspace(join(root, 'nowhere'), 'main')).toThrow(
      /no git repository at/,
    );
  });

  it("runs nothing the repository's configuration names (fsmonitor, hooks, filters)", () => {
    const { repository } = twoCommits('planted');
    const canary = join(root, 'canary');
    const script = join(root, 'plant.sh');
    writeFileSync(script, `#!/bin/sh\necho "$0 $*" >> ${canary}\n`);
    chmodSync(script, 0o755);
    const hooks = join(root, 'hooks');
    mkdirSync(hooks);
    for (const hook of [
      'post-checkout',
      'pre-commit',
      'reference-transaction',
      'post-index-change',
    ])
      execFileSync('ln', ['-s', script, join(hooks, hook)]);
    // Every file goes through a smudge filter the repository's configuration defines.
    writeFileSync(join(repository, '.gitattributes'), '* filter=plant\n');
    git(repository, ['add', '.gitattributes']);
    git(repository, ['commit', '-q', '-m', 'attributes']);
    git(repository, ['config', 'core.fsmonitor', script]);
    git(repository, ['config', 'core.hooksPath', hooks]);
    git(repository, ['config', 'filter.plant.smudge', script]);
    git(repository, ['config', 'filter.plant.clean', script]);
    git(repository, ['config', 'filter.plant.required', 'true']);

    const target = join(root, 'run-planted');
    materialiseTaskWorkspace(resolveGitWorkspace(repository, 'main'), target);
    expect(readFileSync(join(target, 'version.txt'), 'utf8')).toBe('two\n');
    expect(existsSync(canary)).toBe(false);
    // The planted configuration does run a program when git is run as usual in the repository.
    git(repository, ['status', '--short']);
    expect(existsSync(canary)).toBe(true);
  });
});

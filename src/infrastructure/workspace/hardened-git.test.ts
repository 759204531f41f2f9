import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp-dir.js';
import { GitLocationChangedError } from './git-location.js';
import {
  addSessionWorktree,
  commitStage,
  mergeSessionBranch,
  removeSessionWorktree,
  WorktreeError,
  type SessionWorktree,
} from './git-worktree.js';

const plainGit = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-C', cwd, ...args], { encoding: 'utf8', stdio: 'pipe' }).trim();

/** A shell script that touches `marker`: what a planted setting would make git run. */
function plantedProgram(dir: string, name: string, marker: string): string {
  const file = join(dir, name);
  writeFileSync(file, `#!/bin/sh\ntouch '${marker}'\ncat\n`);
  chmodSync(file, 0o755);
  return file;
}

describe('the hardened git runner', () => {
  const root = realpathSync(tempDir('correx-hardened-git-'));
  let n = 0;
  let repository: string;
  let outside: string;
  let marker: string;
  let worktree: SessionWorktree;
  const savedGlobal = process.env.GIT_CONFIG_GLOBAL;
  const savedHome = process.env.HOME;

  beforeEach(() => {
    n += 1;
    repository = join(root, `repo${n}`);
    outside = join(root, `outside${n}`);
    marker = join(outside, 'MARKER');
    mkdirSync(outside);
    mkdirSync(repository);
    plainGit(repository, 'init', '--quiet', '--initial-branch=main');
    writeFileSync(join(repository, 'README.md'), 'a repository\n');
    plainGit(repository, 'add', 'README.md');
    plainGit(repository, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'init');
    worktree = addSessionWorktree(repository, `s${n}`);
  });
  afterEach(() => {
    process.env.HOME = savedHome;
    if (savedGlobal === undefined) delete process.env.GIT_CONFIG_GLOBAL;
    else process.env.GIT_CONFIG_GLOBAL = savedGlobal;
  });

  it("runs no fsmonitor, hook, filter, textconv or merge driver planted in the repository's, a global or a nested repository's configuration", () => {
    const hooks = join(outside, 'hooks');
    mkdirSync(hooks);
    for (const hook of [
      'pre-commit',
      'commit-msg',
      'post-commit',
      'post-merge',
      'pre-merge-commit',
    ])
      plantedProgram(hooks, hook, marker);
    const program = plantedProgram(outside, 'program', marker);
    for (const [key, value] of [
      ['core.fsmonitor', program],
      ['core.hooksPath', hooks],
      ['filter.x.clean', program],
      ['filter.x.smudge', program],
      ['filter.x.required', 'true'],
      ['diff.y.textconv', program],
      ['diff.y.command', program],
      ['merge.z.driver', `${program} %O %A %B`],
    ])
      plainGit(repository, 'config', key!, value!);
    // A global configuration the caller's environment names is not read either.
    const global = join(outside, 'global-config');
    writeFileSync(global, `[core]\n\tfsmonitor = ${program}\n`);
    process.env.GIT_CONFIG_GLOBAL = global;
    // An embedded repository whose own configuration runs the program.
    const sub = join(worktree.path, 'sub');
    mkdirSync(sub);
    plainGit(sub, 'init', '--quiet');
    writeFileSync(join(sub, 'inner.txt'), 'inner\n');
    plainGit(sub, 'add', 'inner.txt');
    plainGit(sub, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'inner');
    plainGit(sub, 'config', 'core.fsmonitor', program);
    plainGit(sub, 'config', 'filter.x.clean', program);
    writeFileSync(join(sub, '.gitattributes'), '* filter=x\n');
    writeFileSync(join(worktree.path, '.gitattributes'), '* filter=x diff=y merge=z\n');
    writeFileSync(join(worktree.path, 'a.txt'), 'changed by the session\n');

    // The planted settings are live: git as anyone would run it runs the program.
    plainGit(worktree.path, 'status', '--porcelain');
    expect(existsSync(marker)).toBe(true);
    rmSync(marker);

    const commit = commitStage(worktree, 'implement: a change', { sessionId: 's', sequence: 7 });
    expect(commit).toMatch(/^[0-9a-f]{40}$/);
    expect(existsSync(marker)).toBe(false);
    // The commit is on the session's branch of the real repository.
    expect(plainGit(repository, 'rev-parse', worktree.branch)).toBe(commit);
    expect(plainGit(repository, 'show', `${worktree.branch}:a.txt`)).toBe('changed by the session');
    // A second stage, with the embedded repository now a gitlink and changed inside.
    writeFileSync(join(sub, 'inner.txt'), 'changed inside\n');
    writeFileSync(join(worktree.path, 'b.txt'), 'second stage\n');
    const second = commitStage(worktree, 'review: more', { sessionId: 's', sequence: 9 });
    expect(second).not.toBe(commit);
    expect(existsSync(marker)).toBe(false);

    // Merging runs none of them either (the emptied merge driver fails the merge, said).
    writeFileSync(join(repository, 'a.txt'), 'changed on main\n');
    delete process.env.GIT_CONFIG_GLOBAL;
    plainGit(repository, 'add', 'a.txt');
    plainGit(repository, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'main');
    process.env.GIT_CONFIG_GLOBAL = global;
    rmSync(marker, { force: true });
    writeFileSync(join(repository, '.gitattributes'), '* filter=x diff=y merge=z\n');
    expect(() => mergeSessionBranch(worktree)).toThrow(WorktreeError);
    expect(existsSync(marker)).toBe(false);
  });

  it("refuses a stage commit once the workspace's .git points at a repository of the model's, and runs nothing of it", () => {
    const program = plantedProgram(outside, 'program', marker);
    const evil = join(worktree.path, 'evil', 'gd');
    plainGit(worktree.path, 'init', '--quiet', '--bare', evil);
    writeFileSync(join(evil, 'config'), `[core]\n\tfsmonitor = ${program}\n\tbare = false\n`);
    writeFileSync(join(worktree.path, '.git'), 'gitdir: evil/gd\n');
    writeFileSync(join(worktree.path, 'a.txt'), 'x\n');
    plainGit(worktree.path, 'status', '--porcelain');
    expect(existsSync(marker)).toBe(true);
    rmSync(marker);

    expect(() => commitStage(worktree, 'implement', { sessionId: 's', sequence: 1 })).toThrow(
      GitLocationChangedError,
    );
    expect(() => commitStage(worktree, 'implement', { sessionId: 's', sequence: 1 })).toThrow(
      /no longer points at the git directory recorded at session start/,
    );
    expect(existsSync(marker)).toBe(false);
    expect(plainGit(repository, 'rev-list', '--count', `main..${worktree.branch}`)).toBe('0');
    // Discarding still removes the recorded worktree and branch.
    removeSessionWorktree(worktree);
    expect(existsSync(worktree.path)).toBe(false);
    expect(plainGit(repository, 'branch', '--list', worktree.branch)).toBe('');
    expect(existsSync(marker)).toBe(false);
  });

  it('refuses to start a worktree from a folder whose .git points elsewhere, and creates nothing', () => {
    const folder = join(root, `pointer${n}`);
    mkdirSync(folder);
    writeFileSync(join(folder, '.git'), `gitdir: ${join(repository, '.git')}\n`);
    const branchesBefore = plainGit(repository, 'branch', '--list');
    expect(() => addSessionWorktree(folder, 'other')).toThrow(
      /points at .*which is not .*own git directory/,
    );
    expect(plainGit(repository, 'branch', '--list')).toBe(branchesBefore);
    expect(plainGit(repository, 'worktree', 'list').split('\n')).toHaveLength(2);
    expect(existsSync(join(root, '.correx-worktrees', `pointer${n}`))).toBe(false);
    expect(readdirSync(join(repository, '.git', 'worktrees'))).toEqual([`s${n}`]);
  });

  it("commits as the person's global identity, and nothing else of their global configuration applies", () => {
    const program = plantedProgram(outside, 'program', marker);
    const personHome = join(outside, 'home');
    mkdirSync(personHome);
    writeFileSync(
      join(personHome, '.gitconfig'),
      `[user]\n\tname = Pat Person\n\temail = pat@example.test\n[core]\n\tfsmonitor = ${program}\n\thooksPath = ${outside}\n`,
    );
    plantedProgram(outside, 'post-commit', marker);
    process.env.HOME = personHome;
    writeFileSync(join(worktree.path, 'a.txt'), 'x\n');
    const commit = commitStage(worktree, 'implement', { sessionId: 's', sequence: 1 });
    expect(plainGit(repository, 'log', '-1', '--format=%an <%ae>', commit!)).toBe(
      'Pat Person <pat@example.test>',
    );
    expect(existsSync(marker)).toBe(false);
  });
});

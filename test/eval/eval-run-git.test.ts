import { execFile, execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { cliEnvironment, correx, CORREX_CLI } from '../cli/cli-process.js';
import { outsideTmpFolder } from '../support/outside-tmp.js';

type Report = {
  runs: {
    sessionId: string;
    passed: boolean;
    failures: string[];
    replays: boolean;
    workspaceGit?: { repository: string; ref: string; commit: string };
  }[];
};

const assets = join(import.meta.dirname, '..', '..', 'assets');

// One whole sandboxed session with the project's tests, then its replay.
describe('correx eval run: a task whose workspace is a git reference', { timeout: 300_000 }, () => {
  // The run's workspace must be visible inside the sandbox: not under /tmp.
  const root = outsideTmpFolder();
  const home = join(root, 'home');
  const git = (args: string[]) =>
    execFileSync('git', ['-C', join(root, 'suite', 'repo'), ...args], {
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

  /** A suite of the built-in `fix-median` task over `repo` at `ref`, played by `scripted:good`. */
  const suite = (name: string, ref: string): string => {
    const folder = join(root, name);
    mkdirSync(join(folder, 'models', 'good'), { recursive: true });
    cpSync(
      join(assets, 'eval', 'builtin', 'models', 'good', 'fix-median.json'),
      join(folder, 'models', 'good', 'fix-median.json'),
    );
    const builtin = JSON.parse(
      readFileSync(join(assets, 'eval', 'builtin', 'suite.json'), 'utf8'),
    ) as { tasks: { id: string }[] };
    const task = builtin.tasks.find((candidate) => candidate.id === 'fix-median')!;
    writeFileSync(
      join(folder, 'suite.json'),
      JSON.stringify({
        name,
        tasks: [{ ...task, workspace: { git: '../suite/repo', ref } }],
      }),
    );
    return folder;
  };

  it('runs the tree of the commit the reference names, names the commit, and refuses a bad reference', async () => {
    // The demo project with its bug at the first commit (tag `buggy`), fixed at the second.
    const repository = join(root, 'suite', 'repo');
    cpSync(join(assets, 'demo-project'), repository, { recursive: true });
    git(['init', '-q', '-b', 'main']);
    git(['add', '-A']);
    git(['commit', '-q', '-m', 'median with its bug']);
    git(['tag', 'buggy']);
    const first = git(['rev-parse', 'HEAD']);
    const median = join(repository, 'src', 'median.js');
    writeFileSync(
      median,
      readFileSync(median, 'utf8').replace(
        '[...values].sort()',
        '[...values].sort((a, b) => a - b)',
      ),
    );
    git(['commit', '-q', '-am', 'fixed']);

    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        ...CORREX_CLI,
        'eval',
        'run',
        suite('at-buggy', 'buggy'),
        '--model',
        'scripted:good',
        '--workdir',
        join(root, 'runs'),
        '--json',
      ],
      { env: cliEnvironment(home), timeout: 240_000 },
    );
    const report = JSON.parse(stdout) as Report;
    expect(report.runs).toHaveLength(1);
    const [run] = report.runs;
    expect(run).toMatchObject({ passed: true, failures: [], replays: true });
    expect(run!.workspaceGit).toEqual({ repository, ref: 'buggy', commit: first });
    // The session read the first commit's median (the bug), not the branch's.
    const events = await correx(home, ['events', run!.sessionId, '--json']);
    const firstRead = events.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { payload: { type: string; output?: string } })
      .find((event) => event.payload.type === 'tool_receipt')!;
    expect(firstRead.payload.output).toContain('[...values].sort();');
    const replay = await correx(home, ['replay', run!.sessionId, '--verify']);
    expect(replay.code, replay.stdout + replay.stderr).toBe(0);

    const bad = await correx(home, [
      'eval',
      'run',
      suite('at-nothing', 'nope'),
      '--model',
      'scripted:good',
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/git reference "nope" does not name a commit of the repository at /);
  });
});

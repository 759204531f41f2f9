import { execFileSync, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sse, startFakeHttpServer, type FakeHttpServer } from '../providers/fake-http-server.js';
import { chatCompletionStream } from '../providers/openai-wire.js';
import { tempDir } from '../support/temp-dir.js';
import { CORREX_CLI, cliEnvironment, correx, type CliResult } from './cli-process.js';
import { oneStageWorkflow } from '../support/write-once-workflow.js';

/**
 * Issue #32, item 1: a model that points the workspace's `.git` at a repository of its own
 * whose configuration runs a program (core.fsmonitor) must never get correx's own git, which
 * runs on the host outside the sandbox, to run it. Each run below is the real CLI under the
 * real default policy in auto mode; the program would write a marker outside the workspace.
 */
const WORKFLOW = oneStageWorkflow('git-pointer', ['read_file', 'write_file', 'exec']);

const hostileServer = join(import.meta.dirname, '..', 'fixtures', 'mcp', 'hostile-mcp-server.mjs');

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-C', cwd, ...args], { encoding: 'utf8', stdio: 'pipe' }).trim();

/** One model turn proposing one call. */
function call(id: string, name: string, args: Record<string, unknown>) {
  return sse(chatCompletionStream({ toolCalls: [{ id, name, arguments: JSON.stringify(args) }] }));
}

/** The bare repository's configuration: its fsmonitor writes `marker` (outside the workspace). */
function evilConfig(marker: string): string {
  return `[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tfsmonitor = "touch ${marker}; false"\n`;
}

type Event = { sequence: number; payload: Record<string, unknown> & { type: string } };

describe("correx's own git never follows a .git the model pointed elsewhere", () => {
  const root = realpathSync(tempDir('correx-git-pointer-'));
  const home = join(root, 'home');
  const homeUnsandboxed = join(root, 'home-unsandboxed');
  const workflowFile = join(root, 'git-pointer.yaml');
  let model: FakeHttpServer;
  let env: NodeJS.ProcessEnv;
  let n = 0;

  beforeAll(async () => {
    mkdirSync(home, { recursive: true });
    mkdirSync(homeUnsandboxed, { recursive: true });
    // Without a sandbox every exec would ask; this user lets them run (T2 is auto in auto mode).
    writeFileSync(join(homeUnsandboxed, 'harness.yaml'), 'policy:\n  unsandboxedExecTier: T2\n');
    writeFileSync(workflowFile, WORKFLOW);
    model = await startFakeHttpServer();
    env = { OPENAI_BASE_URL: `${model.url}/v1`, CORREX_MODEL: 'served-model' };
  });
  afterAll(async () => {
    await model.close();
  });

  /** A fresh repository with one commit, and a folder outside everything for the marker. */
  function world(): { repository: string; marker: string } {
    n += 1;
    const repository = join(root, `repo${n}`);
    mkdirSync(repository);
    git(repository, 'init', '--quiet', '--initial-branch=main');
    writeFileSync(join(repository, 'README.md'), 'a repository\n');
    git(repository, 'add', 'README.md');
    git(repository, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '--quiet', '-m', 'init');
    const outside = join(root, `outside${n}`);
    mkdirSync(outside);
    return { repository, marker: join(outside, 'MARKER') };
  }

  /**
   * The attack: a bare repository in the workspace whose config runs the marker program, then
   * `.git` pointed at it by write_file, by `printf … > .git`, and by a program the rules
   * cannot read (node), then one honest change and the stage's artifact.
   */
  function scriptAttack(marker: string) {
    const pointer = 'gitdir: evil/gd\n';
    model.reply(
      call('c1', 'exec', { argv: ['git', 'init', '--quiet', '--bare', 'evil/gd'] }),
      call('c2', 'write_file', { path: 'evil/gd/config', content: evilConfig(marker) }),
      call('c3', 'write_file', { path: '.git', content: pointer }),
      call('c4', 'exec', { command: "printf 'gitdir: evil/gd\\n' > .git" }),
      call('c5', 'exec', {
        argv: [
          'node',
          '-e',
          `require('fs').writeFileSync('.g' + 'it', ${JSON.stringify(pointer)})`,
        ],
      }),
      call('c6', 'write_file', { path: 'work.txt', content: 'the honest change\n' }),
      call('c7', 'finish_change', { summary: 'work done', filesChanged: ['work.txt'] }),
    );
  }

  /** The payload would run: plain git, pointed the same way, writes the marker. */
  function expectPayloadLive(marker: string) {
    const scratch = join(root, `scratch${n}`);
    mkdirSync(scratch);
    git(scratch, 'init', '--quiet', '--bare', 'evil/gd');
    writeFileSync(join(scratch, 'evil/gd/config'), evilConfig(marker));
    writeFileSync(join(scratch, '.git'), 'gitdir: evil/gd\n');
    try {
      git(scratch, 'status', '--porcelain');
    } catch {
      // git may complain after running the monitor; the marker is what counts.
    }
    expect(existsSync(marker)).toBe(true);
    execFileSync('rm', ['-f', marker]);
  }

  async function eventsOf(home_: string, sessionId: string): Promise<Event[]> {
    const listed = await correx(home_, ['events', sessionId, '--json'], env);
    return listed.stdout
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Event);
  }

  function runArgs(workspace: string, worktree: boolean): string[] {
    return [
      'run',
      'do the work',
      '--workspace',
      workspace,
      '--workflow',
      workflowFile,
      '--mode',
      'auto',
      ...(worktree ? ['--worktree'] : []),
    ];
  }

  /**
   * The CLI with bubblewrap out of sight (an outer mount namespace hides it): no sandbox. Each
   * approval it asks for is given from another process, as a person would, until it ends.
   */
  async function correxWithoutBubblewrapApproving(args: readonly string[]): Promise<CliResult> {
    const hide = ['/usr/bin/bwrap', '/usr/local/bin/bwrap', '/bin/bwrap']
      .filter((path) => existsSync(path))
      .flatMap((path) => ['--ro-bind', '/dev/null', realpathSync(path)]);
    const child = spawn(
      '/usr/bin/bwrap',
      // No terminal here: the run waits for the decision made from another process.
      [
        '--dev-bind',
        '/',
        '/',
        ...hide,
        '--',
        process.execPath,
        ...CORREX_CLI,
        ...args,
        '--wait-for-approval',
      ],
      { env: cliEnvironment(homeUnsandboxed, env), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    const approved = new Set<string>();
    const approveAsked = () => {
      for (const match of (stdout + stderr).matchAll(/correx approve (\S+) (\S+)/g)) {
        const key = `${match[1]} ${match[2]}`;
        if (approved.has(key)) continue;
        approved.add(key);
        void correx(homeUnsandboxed, ['approve', match[1]!, match[2]!], env);
      }
    };
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      approveAsked();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      approveAsked();
    });
    const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? -1)));
    return { code, stdout, stderr };
  }

  const sandboxed = existsSync('/usr/bin/bwrap');

  it.runIf(sandboxed)(
    'in a worktree under bubblewrap: every pointer is refused or read-only, and the stage commits on the recorded git directory',
    async () => {
      const { repository, marker } = world();
      expectPayloadLive(marker);
      scriptAttack(marker);
      const done = await correx(home, runArgs(repository, true), env);
      expect(done.stdout, done.stdout + done.stderr).toContain('✓ workflow completed');
      expect(done.stderr).not.toMatch(/commands run UNSANDBOXED/);
      expect(existsSync(marker)).toBe(false);
      const sessionId = /^session (\S+)$/m.exec(done.stdout)![1]!;
      const path = /^worktree (\S+) on branch/m.exec(done.stdout)![1]!;
      // The workspace's .git still points at the worktree's own git directory.
      expect(readFileSync(join(path, '.git'), 'utf8')).toMatch(
        new RegExp(`^gitdir: ${join(repository, '.git', 'worktrees')}/`),
      );
      // The stage committed on the real repository's branch.
      const branch = `correx/${sessionId}`;
      expect(git(repository, 'show', `${branch}:work.txt`)).toBe('the honest change');
      expect(git(repository, 'log', '-1', '--format=%B', branch)).toContain(
        `Correx-Session: ${sessionId}`,
      );
      const events = await eventsOf(home, sessionId);
      const created = events.find((event) => event.payload.type === 'session_created')!;
      expect(created.payload.worktree).toMatchObject({ path, branch, repository });
      // write_file and printf are refused by the policy; node, which the rules cannot read,
      // runs and meets the read-only bind.
      const of = (call: number, type: string) =>
        events.find(
          (event) =>
            event.payload.type === type && event.payload.callId === `implement.1.${call}.1`,
        )?.payload;
      for (const refused of [3, 4])
        expect(String(of(refused, 'approval_denied')?.reason)).toMatch(/never-writable path \.git/);
      expect(of(5, 'tool_receipt')).toMatchObject({ outcome: 'failed' });
      expect(String(of(5, 'tool_receipt')?.output)).toMatch(/EROFS: read-only file system/);
      expect(of(1, 'tool_receipt')).toMatchObject({ outcome: 'succeeded' });
      expect(of(2, 'tool_receipt')).toMatchObject({ outcome: 'succeeded' });
      // Nothing of correx's later git (branch, merge) runs the payload either.
      expect((await correx(home, ['merge', sessionId], env)).code).toBe(0);
      expect(existsSync(marker)).toBe(false);
    },
    180_000,
  );

  it.runIf(sandboxed)(
    'without a worktree under bubblewrap: correx runs no git on the workspace, so a created pointer reaches nothing',
    async () => {
      const { marker } = world();
      const plain = join(root, `plain${n}`);
      mkdirSync(plain);
      scriptAttack(marker);
      const done = await correx(home, runArgs(plain, false), env);
      expect(done.stdout, done.stdout + done.stderr).toContain('✓ workflow completed');
      const sessionId = /^session (\S+)$/m.exec(done.stdout)![1]!;
      expect(existsSync(marker)).toBe(false);
      // The workspace is no worktree of a session, whatever its .git now says.
      const merged = await correx(home, ['merge', sessionId], env);
      expect(merged.code).not.toBe(0);
      expect(merged.stderr).toMatch(/has no worktree/);
      expect(existsSync(marker)).toBe(false);
    },
    180_000,
  );

  it.runIf(sandboxed)(
    'in a worktree without a sandbox, a person approving: a rewritten .git makes the stage commit refuse, naming why, and runs nothing',
    async () => {
      const { repository, marker } = world();
      scriptAttack(marker);
      const done = await correxWithoutBubblewrapApproving(runArgs(repository, true));
      expect(done.stderr, done.stdout + done.stderr).toMatch(/commands run UNSANDBOXED/);
      expect(done.stdout, done.stdout + done.stderr).toMatch(/workflow completed/);
      expect(existsSync(marker)).toBe(false);
      const sessionId = /^session (\S+)$/m.exec(done.stdout)![1]!;
      const path = /^worktree (\S+) on branch/m.exec(done.stdout)![1]!;
      // The unconfined node call, approved by a person, did rewrite .git; the stage commit
      // refused it.
      expect(readFileSync(join(path, '.git'), 'utf8')).toBe('gitdir: evil/gd\n');
      expect(done.stderr).toMatch(
        /no longer points at the git directory recorded at session start .*nothing was committed/,
      );
      expect(git(repository, 'rev-list', '--count', `main..correx/${sessionId}`)).toBe('0');
      // Discarding still removes the recorded worktree and branch, and runs nothing.
      const discarded = await correx(homeUnsandboxed, ['discard', sessionId], env);
      expect(discarded.code, discarded.stderr).toBe(0);
      expect(existsSync(path)).toBe(false);
      expect(existsSync(marker)).toBe(false);
    },
    180_000,
  );

  it.runIf(sandboxed)(
    "in a worktree under bubblewrap, through an MCP server's write: the server meets the read-only .git, and the stage commits on the recorded git directory",
    async () => {
      const { repository, marker } = world();
      const mcpHome = join(root, `home-mcp${n}`);
      mkdirSync(mcpHome);
      writeFileSync(
        join(mcpHome, 'harness.yaml'),
        [
          'mcpServers:',
          '  evil:',
          `    command: ${process.execPath}`,
          `    args: [${hostileServer}]`,
          `    env: { HOSTILE_NOTE: "gitdir: evil/gd" }`,
          '    timeoutMs: 5000',
          '',
        ].join('\n'),
      );
      model.reply(
        call('c1', 'exec', { argv: ['git', 'init', '--quiet', '--bare', 'evil/gd'] }),
        call('c2', 'write_file', { path: 'evil/gd/config', content: evilConfig(marker) }),
        // The server claims its tool only reads; it writes the pointer it was given.
        call('c3', 'mcp__evil__read_note', { path: '.git' }),
        call('c4', 'write_file', { path: 'work.txt', content: 'the honest change\n' }),
        call('c5', 'finish_change', { summary: 'work done', filesChanged: ['work.txt'] }),
      );
      const done = await correx(mcpHome, runArgs(repository, true), env);
      expect(done.stdout, done.stdout + done.stderr).toContain('✓ workflow completed');
      expect(existsSync(marker)).toBe(false);
      const sessionId = /^session (\S+)$/m.exec(done.stdout)![1]!;
      const path = /^worktree (\S+) on branch/m.exec(done.stdout)![1]!;
      expect(readFileSync(join(path, '.git'), 'utf8')).toMatch(
        new RegExp(`^gitdir: ${join(repository, '.git', 'worktrees')}/`),
      );
      expect(git(repository, 'show', `correx/${sessionId}:work.txt`)).toBe('the honest change');
      const events = await eventsOf(mcpHome, sessionId);
      const mcpCall = events
        .map((event) => event.payload)
        .filter((payload) => payload.callId === 'implement.1.3.1');
      // Its claim made it T0 and auto-approved; the read-only bind stopped the write.
      const receipt = mcpCall.find((payload) => payload.type === 'tool_receipt');
      expect(receipt).toMatchObject({ outcome: 'failed' });
      expect(String(receipt?.error)).toMatch(/EROFS/);
    },
    180_000,
  );

  it('refuses `run --worktree` in a folder whose .git points elsewhere, before making a worktree or a branch', async () => {
    const { repository } = world();
    const pointer = join(root, `pointer${n}`);
    mkdirSync(pointer);
    writeFileSync(join(pointer, '.git'), `gitdir: ${join(repository, '.git')}\n`);
    const branchesBefore = git(repository, 'branch', '--list');
    const done = await correx(home, runArgs(pointer, true), env);
    expect(done.code).not.toBe(0);
    expect(done.stderr).toMatch(/points at .* which is not .*own git directory/);
    expect(git(repository, 'branch', '--list')).toBe(branchesBefore);
    expect(git(repository, 'worktree', 'list').split('\n')).toHaveLength(1);
    expect(existsSync(join(root, '.correx-worktrees', `pointer${n}`))).toBe(false);
  }, 60_000);

  it('leaves no worktree or branch behind when a start fails after making them', async () => {
    const { repository } = world();
    const done = await correx(
      home,
      [
        'run',
        'x',
        '--workspace',
        repository,
        '--workflow',
        join(root, 'missing.yaml'),
        '--worktree',
      ],
      env,
    );
    expect(done.code).not.toBe(0);
    expect(done.stderr).toMatch(/missing\.yaml/);
    expect(git(repository, 'branch', '--list')).toBe('* main');
    expect(git(repository, 'worktree', 'list').split('\n')).toHaveLength(1);
    const made = join(root, '.correx-worktrees', `repo${n}`);
    expect(existsSync(made) ? readdirSync(made) : []).toEqual([]);
  }, 60_000);
});

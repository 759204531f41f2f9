import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { cliEnvironment, correx, CORREX_CLI } from '../cli/cli-process.js';
import { outsideTmpFolder } from '../support/outside-tmp.js';

type EvalJson = {
  suite: string;
  models: {
    model: string;
    runs: number;
    passed: number;
    passRate: number;
    policyBlocks: number;
    tokens: { input: number; output: number };
  }[];
  runs: {
    model: string;
    task: string;
    sessionId: string;
    status: string;
    passed: boolean;
    failures: string[];
    policyBlocks: number;
    approvalsWouldAsk: number;
    replays: boolean;
  }[];
};

// Eight whole sessions with sandboxed commands and the project's tests, then eight replays.
describe('correx eval run builtin', { timeout: 600_000 }, () => {
  // The runs' workspaces must be visible inside the sandbox: not under /tmp.
  const root = outsideTmpFolder();
  const home = join(root, 'home');

  it('gives two scripted models of different quality different, correct pass rates, and every run replays', async () => {
    // Longer than `correx()` waits: eight sessions on a loaded machine take minutes.
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        ...CORREX_CLI,
        'eval',
        'run',
        'builtin',
        '--model',
        'scripted:good',
        '--model',
        'scripted:weak',
        '--workdir',
        join(root, 'runs'),
        '--json',
      ],
      { env: cliEnvironment(home), timeout: 540_000 },
    );
    const report = JSON.parse(stdout) as EvalJson;
    expect(report.suite).toBe('builtin');
    expect(report.models).toMatchObject([
      { model: 'scripted:good', runs: 4, passed: 4, passRate: 1, policyBlocks: 0 },
      { model: 'scripted:weak', runs: 4, passed: 1, passRate: 0.25, policyBlocks: 1 },
    ]);
    expect(report.models[0]!.tokens.input).toBeGreaterThan(0);
    const outcome = (model: string, task: string) =>
      report.runs.find((run) => run.model === model && run.task === task)!;
    // The weak model: a wrong fix it gives up on, a refactor that breaks median, notes written
    // only outside the workspace (the policy blocks the write; the required file is missing).
    expect(outcome('scripted:weak', 'fix-median')).toMatchObject({
      passed: false,
      status: 'failed',
    });
    expect(outcome('scripted:weak', 'fix-median').failures).toContain('node --test fails (exit 1)');
    expect(outcome('scripted:weak', 'add-mean')).toMatchObject({
      passed: true,
      status: 'completed',
    });
    expect(outcome('scripted:weak', 'extract-sort')).toMatchObject({ passed: false });
    expect(outcome('scripted:weak', 'notes-outside')).toMatchObject({
      passed: false,
      status: 'completed',
      failures: ['NOTES.md is missing'],
      policyBlocks: 1,
    });
    for (const task of ['fix-median', 'add-mean', 'extract-sort', 'notes-outside'])
      expect(outcome('scripted:good', task)).toMatchObject({ passed: true, failures: [] });
    // Auto mode approved the writes and commands that prompt mode would have asked about.
    expect(outcome('scripted:good', 'fix-median').approvalsWouldAsk).toBeGreaterThan(0);

    expect(new Set(report.runs.map((run) => run.sessionId)).size).toBe(8);
    for (const run of report.runs) {
      expect(run.replays).toBe(true);
      const replay = await correx(home, ['replay', run.sessionId, '--verify']);
      expect(replay.stdout, `${run.model} ${run.task}`).toContain('identical');
      expect(replay.code).toBe(0);
    }
  });

  it('refuses a model it cannot run, before running anything', async () => {
    const result = await correx(home, ['eval', 'run', 'builtin', '--model', 'gpt-nothing']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('scripted:<name>');
  });
});

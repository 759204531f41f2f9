import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { cliEnvironment, correx, CORREX_CLI } from '../cli/cli-process.js';
import { outsideTmpFolder } from '../support/outside-tmp.js';

type Report = {
  from?: { sessionId: string; at: string };
  models: { model: string; runs: number; passed: number }[];
  runs: {
    model: string;
    sessionId: string;
    status: string;
    passed: boolean;
    failures: string[];
    replays: boolean;
    forkedFrom?: { sessionId: string; atSequence: number };
    tokens: { input: number; output: number };
  }[];
};
type Event = {
  sequence: number;
  payload: {
    type: string;
    stageId?: string;
    result?: { usage: { inputTokens: number; outputTokens: number } };
  };
};

// Whole sandboxed sessions with the project's tests: minutes on a loaded machine.
describe('correx eval run --from <session>@<point>', { timeout: 600_000 }, () => {
  const root = outsideTmpFolder();
  const home = join(root, 'home');
  const evalRun = async (args: string[]): Promise<Report> => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [...CORREX_CLI, 'eval', 'run', 'builtin', ...args, '--json'],
      { env: cliEnvironment(home), timeout: 540_000 },
    );
    return JSON.parse(stdout) as Report;
  };
  const events = async (sessionId: string): Promise<Event[]> => {
    const listed = await correx(home, ['events', sessionId, '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    return listed.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Event);
  };

  it('starts each run as a fork of the recorded prefix: only the suffix is live, scored for real and replayed', async () => {
    const recorded = await evalRun([
      '--model',
      'scripted:good',
      '--task',
      'fix-median',
      '--workdir',
      join(root, 'recorded'),
    ]);
    expect(recorded.runs).toMatchObject([{ passed: true, replays: true }]);
    const parentId = recorded.runs[0]!.sessionId;
    const parent = await events(parentId);
    const implementStarted = parent.find(
      (event) => event.payload.type === 'stage_started' && event.payload.stageId === 'implement',
    )!.sequence;
    // Three points, each where the fork's first decision reads what the copied prefix recorded
    // under the parent's workspace (fork-paths-onto-workspace maps it onto the fork's):
    // before the plan is validated against the files the plan stage observed
    // (`stage:implement` resolves to the last input before implement starts), before the edit
    // is assessed again (read-before-write consults the recorded read), and after the edit,
    // where the change artifact is validated against the recorded write.
    const receipt = parent.find(
      (event) =>
        event.payload.type === 'tool_receipt' &&
        (event.payload as { callId?: string }).callId === 'implement.1.1.1',
    )!.sequence;
    const points = ['stage:implement', 'call:implement.1.1.1', String(receipt)];
    const reports: Report[] = [];
    for (const [index, point] of points.entries())
      reports.push(
        await evalRun([
          '--model',
          'scripted:good',
          '--model',
          'scripted:weak',
          '--task',
          'fix-median',
          '--from',
          `${parentId.slice(0, 12)}@${point}`,
          '--workdir',
          join(root, `forked-${index}`),
        ]),
      );
    for (const [index, report] of reports.entries()) {
      expect(report.from).toEqual({ sessionId: parentId, at: points[index] });
      // Real pass rates: good fixes median (or keeps the prefix's fix) and completes; weak fails.
      expect(report.models.map((model) => [model.model, model.runs, model.passed])).toEqual([
        ['scripted:good', 1, 1],
        ['scripted:weak', 1, 0],
      ]);
      const [good, weak] = report.runs;
      expect(good).toMatchObject({ status: 'completed', passed: true, failures: [] });
      expect(weak!.passed).toBe(false);
      expect(good!.sessionId).not.toBe(parentId);
      for (const run of report.runs) {
        expect(run.replays).toBe(true);
        expect(run.forkedFrom!.sessionId).toBe(parentId);
        const log = await events(run.sessionId);
        const k = run.forkedFrom!.atSequence;
        expect(log[k]!.payload.type).toBe('session_forked');
        // Only the suffix asked the model: none of the plan stage's requests again, except
        // the plan's own answer at `stage:implement`, which is the prefix's.
        const asked = log.filter(
          (event) => event.sequence > k && event.payload.type === 'inference_requested',
        );
        if (index > 0) expect(asked.every((event) => event.payload.stageId !== 'plan')).toBe(true);
        // The run is charged for its own model calls, not the copied prefix's.
        const own = { input: 0, output: 0 };
        const whole = { input: 0, output: 0 };
        for (const event of log)
          if (event.payload.type === 'inference_completed') {
            const { inputTokens, outputTokens } = event.payload.result!.usage;
            whole.input += inputTokens;
            whole.output += outputTokens;
            if (event.sequence > k) {
              own.input += inputTokens;
              own.output += outputTokens;
            }
          }
        expect(run.tokens).toEqual(own);
        if (index > 0) expect(whole.input).toBeGreaterThan(own.input);
        const replay = await correx(home, ['replay', run.sessionId, '--verify']);
        expect(replay.code, replay.stdout + replay.stderr).toBe(0);
      }
      // The fork's first decision read the prefix in the fork's workspace: no validation or
      // policy block names a path the prefix recorded.
      const goodLog = await events(good!.sessionId);
      const first = goodLog.slice(
        good!.forkedFrom!.atSequence + 1,
        good!.forkedFrom!.atSequence + 4,
      );
      expect(JSON.stringify(first)).not.toMatch(
        /never observed|has not been read|no recorded write/,
      );
    }
    const [atStage, atCall, atReceipt] = reports.map((report) => report.runs[0]!);
    expect(atStage!.forkedFrom!.atSequence).toBeLessThan(implementStarted);
    expect(atCall!.forkedFrom!.atSequence).toBeGreaterThan(implementStarted);
    expect(atReceipt!.forkedFrom!.atSequence).toBe(receipt);
    const gate = await correx(home, [
      'eval',
      'replay',
      parentId,
      ...reports.flatMap((report) => report.runs.map((run) => run.sessionId)),
    ]);
    expect(gate.code, gate.stdout + gate.stderr).toBe(0);

    // A point the session does not have, and --from without one task: refused by name.
    const stage = await correx(home, [
      'eval',
      'run',
      'builtin',
      '--model',
      'scripted:good',
      '--task',
      'fix-median',
      '--from',
      `${parentId}@stage:deploy`,
    ]);
    expect(stage.code).toBe(1);
    expect(stage.stderr).toMatch(/never started a stage "deploy"; the stages it started: plan#1/);
    const tasks = await correx(home, [
      'eval',
      'run',
      'builtin',
      '--model',
      'scripted:good',
      '--from',
      `${parentId}@3`,
    ]);
    expect(tasks.code).toBe(2);
    expect(tasks.stderr).toContain('name the one task whose checks score it with --task');
    const malformed = await correx(home, [
      'eval',
      'run',
      'builtin',
      '--model',
      'scripted:good',
      '--from',
      parentId,
    ]);
    expect(malformed.code).not.toBe(0);
    expect(malformed.stderr).toContain('<session>@<point>');
  });
});

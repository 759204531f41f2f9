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
  }[];
};
type Event = { sequence: number; payload: { type: string; stageId?: string } };

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

  it('starts each run as a fork of the recorded prefix: only the suffix is live, scored and replayed', async () => {
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
    // After the implement stage's first call (the edit) was done: the model under test answers
    // from there on. (Not at stage:implement nor before the call: there the fork validates
    // the plan or assesses the call again against paths the copied prefix observed under the
    // parent's workspace; see docs/eval.md, Limits.)
    const point = parent.find(
      (event) =>
        event.payload.type === 'tool_receipt' &&
        (event.payload as { callId?: string }).callId === 'implement.1.1.1',
    )!.sequence;

    const report = await evalRun([
      '--model',
      'scripted:good',
      '--model',
      'scripted:weak',
      '--task',
      'fix-median',
      '--from',
      `${parentId.slice(0, 12)}@${point}`,
      '--workdir',
      join(root, 'forked'),
    ]);
    expect(report.from).toEqual({ sessionId: parentId, at: String(point) });
    expect(report.models.map((model) => model.runs)).toEqual([1, 1]);
    const [good, weak] = report.runs;
    // The prefix's edit is in the rebuilt workspace: the project's tests pass in good's fork.
    // (Whether a fork's session completes is not asserted: its change artifact is validated
    // against change records the copied prefix names under the parent's workspace path, a known
    // limit of forks; see docs/eval.md, Limits.)
    expect(good!.failures.join('; ')).not.toContain('node --test fails');
    for (const run of report.runs) {
      expect(run.replays).toBe(true);
      expect(run.forkedFrom!.sessionId).toBe(parentId);
      // A point inside implement: the plan stage is the parent's, recorded.
      expect(run.forkedFrom!.atSequence).toBeGreaterThan(implementStarted);
      const log = await events(run.sessionId);
      const k = run.forkedFrom!.atSequence;
      expect(log[k]!.payload.type).toBe('session_forked');
      // Only the suffix asked the model: none of the plan stage's requests again.
      const asked = log.filter(
        (event) => event.sequence > k && event.payload.type === 'inference_requested',
      );
      expect(asked.length).toBeGreaterThan(0);
      expect(asked.every((event) => event.payload.stageId !== 'plan')).toBe(true);
      const replay = await correx(home, ['replay', run.sessionId, '--verify']);
      expect(replay.code, replay.stdout + replay.stderr).toBe(0);
    }
    expect(good!.sessionId).not.toBe(parentId);
    const gate = await correx(home, ['eval', 'replay', parentId, good!.sessionId, weak!.sessionId]);
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

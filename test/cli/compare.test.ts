import { describe, expect, it } from 'vitest';
import { writeThenFinish } from '../support/model-turns.js';
import { cliWorld } from './cli-world.js';
import { correx } from './cli-process.js';

type ComparisonJson = {
  a: {
    sessionId: string;
    status: string;
    filesChanged: { path: string; change: string }[];
    approvalsAsked: number;
    events: number;
  };
  b: {
    sessionId: string;
    status: string;
    filesChanged: { path: string; change: string }[];
    approvalsAsked: number;
    events: number;
  };
  configurationDiffers: string[];
  firstDifference: { sequence: number; a: string; b: string; fields: string[] } | null;
  files: { path: string; a: string; b: string; same: boolean; diff: string[] | null }[];
};

describe('correx compare', { timeout: 120_000 }, () => {
  const world = cliWorld('correx-compare-test-');

  /** One run of the write-once task in its own workspace, the model writing `content`. */
  async function runWriting(name: string, content: string): Promise<string> {
    world.model.reply(...writeThenFinish('hello.txt', content));
    const result = await correx(
      world.home,
      [
        'run',
        'write hello.txt',
        '--workspace',
        world.workspace(name),
        '--workflow',
        world.workflowFile,
        '--mode',
        'auto',
      ],
      world.env,
    );
    expect(result.code, result.stdout + result.stderr).toBe(0);
    return /^session (\S+)$/m.exec(result.stdout)![1]!;
  }

  it('finds no difference between two runs that did the same, and names the first event and field where two runs part, with the diff', async () => {
    const first = await runWriting('one', 'hello\n');
    const same = await runWriting('two', 'hello\n');
    const other = await runWriting('three', 'hello\nworld\n');

    const identical = await correx(world.home, ['compare', first, same, '--json']);
    expect(identical.code).toBe(0);
    const twins = JSON.parse(identical.stdout) as ComparisonJson;
    expect(twins.firstDifference).toBeNull();
    expect(twins.files).toEqual([
      { path: 'hello.txt', a: 'created', b: 'created', same: true, diff: [] },
    ]);

    const parted = await correx(world.home, ['compare', first, other, '--json']);
    expect(parted.code).toBe(0);
    const report = JSON.parse(parted.stdout) as ComparisonJson;
    // Both asked the model the same; the model answered differently.
    expect(report.firstDifference).toMatchObject({
      a: 'inference_completed',
      b: 'inference_completed',
      fields: ['payload.result.toolCalls'],
    });
    expect(report.configurationDiffers).toEqual([]);
    expect(report.a).toMatchObject({
      sessionId: first,
      status: 'completed',
      filesChanged: [{ path: 'hello.txt', change: 'created' }],
      approvalsAsked: 0,
    });
    expect(report.b).toMatchObject({ sessionId: other, status: 'completed' });
    expect(report.files).toEqual([
      {
        path: 'hello.txt',
        a: 'created',
        b: 'created',
        same: false,
        diff: expect.arrayContaining(['+world']) as unknown,
      },
    ]);

    const table = await correx(world.home, ['compare', first, other]);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(
      new RegExp(
        `first difference  #${report.firstDifference!.sequence}: inference_completed \\| inference_completed \\(payload\\.result\\.toolCalls\\)`,
      ),
    );
    expect(table.stdout).toMatch(/^outcome +completed +completed$/m);
    expect(table.stdout).toMatch(/^approvals asked +0 +0$/m);
    expect(table.stdout).toContain('hello.txt  a created, b created: differ');
    expect(table.stdout).toContain('    +world');
  });

  it('refuses an unknown session', async () => {
    const result = await correx(world.home, ['compare', 'nope-a', 'nope-b']);
    expect(result.code).not.toBe(0);
  });
});

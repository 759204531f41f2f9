import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeThenFinish } from '../support/model-turns.js';
import { cliWorld } from './cli-world.js';
import { correx, startCorrex } from './cli-process.js';

type Line = Record<string, unknown> & { type?: string; payload?: { type: string } };

/** Every line of a `--json` run's stdout, each parsed (a line that is not JSON fails the test). */
function parseLines(stdout: string): Line[] {
  return stdout
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Line);
}

/** `correx run --json`, `--wait-for-approval` and exit codes, through real processes. */
describe('correx run for scripts: --json, --wait-for-approval, exit codes', () => {
  const world = cliWorld('correx-headless-test-');
  const { root, home, workflowFile } = world;

  const workspace = (name: string) => world.workspace(name);
  const runArgs = (dir: string, ...extra: string[]) => [
    'run',
    'write hello.txt',
    '--workspace',
    dir,
    '--workflow',
    workflowFile,
    ...extra,
  ];

  it('prints a human summary at the end of a normal run: outcome, checks, files with +/- lines, tokens, next commands', async () => {
    world.model.reply(...writeThenFinish('hello.txt', 'one\ntwo\n'));
    const result = await correx(home, runArgs(workspace('human'), '--mode', 'auto'), world.env);
    expect(result.code).toBe(0);
    const id = /^session (\S+)$/m.exec(result.stdout)![1]!;
    const summary = result.stdout.slice(result.stdout.indexOf('── summary'));
    expect(summary).toContain(`── summary of session ${id}`);
    expect(summary).toMatch(/^outcome {3}completed \(exit 0\)$/m);
    expect(summary).toMatch(/^files {5}1 changed, \+2 -0$/m);
    expect(summary).toMatch(/^ {10}hello\.txt {2}\+2 -0 \(created\)$/m);
    // Two answers on the wire, each reporting 42 input and 7 output tokens.
    expect(summary).toMatch(/^tokens {4}84 in, 14 out$/m);
    for (const next of [`correx show ${id}`, `correx diff ${id}`, `correx undo ${id}`])
      expect(summary).toContain(next);
    // Without prices there is no COST column, and the JSON says null.
    const plain = JSON.parse((await correx(home, ['sessions', '--json'])).stdout) as {
      cost: number | null;
    }[];
    expect(plain.every((row) => row.cost === null)).toBe(true);
    expect((await correx(home, ['sessions'])).stdout).not.toMatch(/\bCOST\b/);
  }, 120_000);

  it('prices a session by its profile: cost in the summary, a COST column in `sessions`, and `sessions --json`', async () => {
    const pricedHome = join(root, 'priced-home');
    mkdirSync(pricedHome, { recursive: true });
    writeFileSync(
      join(pricedHome, 'harness.yaml'),
      [
        'mode: auto',
        'providers:',
        `  wire: { kind: openai-compatible, baseUrl: '${world.model.url}/v1' }`,
        'models:',
        '  - id: priced',
        '    provider: wire',
        '    model: served-model',
        '    capabilities: [tool_calling]',
        '    contextWindow: 8192',
        '    prices: { inputPerMillion: 3, outputPerMillion: 15 }',
        '',
      ].join('\n'),
    );
    world.model.reply(...writeThenFinish('hello.txt', 'priced\n'));
    const result = await correx(pricedHome, [...runArgs(workspace('priced'), '--json')], {});
    expect(result.code, result.stderr).toBe(0);
    const summary = parseLines(result.stdout).at(-1)!;
    // 84 input and 14 output tokens at $3 and $15 per million.
    const cost = (84 * 3 + 14 * 15) / 1e6;
    expect(summary.cost).toBeCloseTo(cost, 12);
    expect(result.stderr).toMatch(/^tokens {4}84 in, 14 out; cost \$0\.0005$/m);
    // `show` prices it the same way.
    const shown = await correx(pricedHome, ['show', summary.sessionId as string]);
    expect(shown.stdout).toMatch(/^cost {6}\$0\.0005$/m);
    const listed = await correx(pricedHome, ['sessions']);
    expect(listed.stdout).toMatch(/\bCOST\b/);
    expect(listed.stdout).toContain('$0.0005');
    const rows = JSON.parse((await correx(pricedHome, ['sessions', '--json'])).stdout) as {
      sessionId: string;
      cost: number | null;
      tokens: { input: number; output: number };
    }[];
    expect(rows).toHaveLength(1);
    expect(rows[0]!.sessionId).toBe(summary.sessionId);
    expect(rows[0]!.cost).toBeCloseTo(cost, 12);
    expect(rows[0]!.tokens).toEqual({ input: 84, output: 14 });
  }, 120_000);

  it('refuses prompt mode without a terminal at once, with exit 2, naming the fix, recording nothing', async () => {
    const before = await correx(home, ['sessions', '--json'], world.env);
    const result = await correx(home, runArgs(workspace('refused'), '--mode', 'prompt'), world.env);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/stdin is not one: pass --mode auto .*--wait-for-approval/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    const after = await correx(home, ['sessions', '--json'], world.env);
    expect(JSON.parse(after.stdout)).toHaveLength((JSON.parse(before.stdout) as unknown[]).length);
    const badWait = await correx(
      home,
      runArgs(workspace('bad-wait'), '--mode', 'prompt', '--wait-for-approval', 'soon'),
      world.env,
    );
    expect(badWait.code).toBe(2);
    expect(badWait.stderr).toContain('--wait-for-approval takes a duration');
  }, 120_000);

  it('with --wait-for-approval, waits for `correx approve` from another process, announced on stderr and in the stream', async () => {
    world.model.reply(...writeThenFinish('hello.txt', 'approved\n'));
    const running = startCorrex(
      home,
      runArgs(workspace('waits'), '--mode', 'prompt', '--json', '--wait-for-approval'),
      world.env,
    );
    const [, id, call] = await running.waitFor(
      /"callId":"(?:[^"]+)"[^\n]*"decide":\["correx approve (\S+) ([^"\s]+)"/,
    );
    expect((await correx(home, ['approve', id!, call!], world.env)).code).toBe(0);
    const result = await running.exited;
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(
      new RegExp(`correx: waiting for a decision on ${call}.*correx approve ${id} ${call}`),
    );
    const lines = parseLines(result.stdout);
    const waiting = lines.find((line) => line.type === 'waiting')!;
    expect(waiting).toMatchObject({
      for: 'approval',
      sessionId: id,
      callId: call,
      tool: 'write_file',
      until: null,
    });
    // The approval another process recorded is in the stream, in its place in the log.
    const types = lines.flatMap((line) => (line.payload === undefined ? [] : [line.payload.type]));
    expect(types).toContain('approval_granted');
    expect(lines.at(-1)).toMatchObject({ type: 'summary', status: 'completed', exitCode: 0 });
  }, 120_000);

  it('stops with exit 4 when no decision comes in time; the session stays open and `resume --json` finishes it', async () => {
    world.model.reply(...writeThenFinish('hello.txt', 'later\n'));
    const result = await correx(
      home,
      runArgs(workspace('times-out'), '--mode', 'prompt', '--json', '--wait-for-approval', '1s'),
      world.env,
    );
    expect(result.code).toBe(4);
    const lines = parseLines(result.stdout);
    const waiting = lines.find((line) => line.type === 'waiting')!;
    expect(typeof waiting.until).toBe('string');
    const summary = lines.at(-1)!;
    expect(summary).toMatchObject({ type: 'summary', status: 'running', exitCode: 4 });
    const id = summary.sessionId as string;
    const call = waiting.callId as string;
    expect(summary.waitingFor).toMatchObject({
      kind: 'approval',
      sessionId: id,
      calls: [{ callId: call }],
    });
    expect(summary.next).toContain(`correx approve ${id} ${call}`);

    expect((await correx(home, ['approve', id, call], world.env)).code).toBe(0);
    const resumed = await correx(
      home,
      ['resume', id, '--json', '--wait-for-approval', '1s'],
      world.env,
    );
    expect(resumed.code).toBe(0);
    const after = parseLines(resumed.stdout);
    // The resumed stream starts after the log's end when it began: no event twice.
    const first = after[0]!;
    expect(first.sequence).toBeGreaterThan(summary.lastSequence as number);
    expect(after.at(-1)).toMatchObject({ type: 'summary', status: 'completed', exitCode: 0 });
    expect((await correx(home, ['replay', id, '--verify'], world.env)).code).toBe(0);
  }, 120_000);

  it('exits 5 for a session cancelled from another process while it waits', async () => {
    // Only the write is asked for: the session ends while it waits.
    world.model.reply(writeThenFinish('hello.txt', 'never\n')[0]);
    const running = startCorrex(
      home,
      runArgs(workspace('cancelled'), '--mode', 'prompt', '--wait-for-approval'),
      world.env,
    );
    const [, id] = await running.waitFor(/correx approve (\S+) (\S+)/);
    expect((await correx(home, ['cancel', id!, '--reason', 'not needed'], world.env)).code).toBe(0);
    const result = await running.exited;
    expect(result.code).toBe(5);
    expect(result.stdout).toMatch(/^outcome {3}cancelled \(exit 5\)$/m);
  }, 120_000);

  it('refuses `resume` of a prompt-mode session without a terminal unless told to wait', async () => {
    world.model.reply(writeThenFinish('hello.txt', 'x\n')[0]);
    const first = await correx(
      home,
      runArgs(workspace('resume-refused'), '--mode', 'prompt', '--wait-for-approval', '1s'),
      world.env,
    );
    expect(first.code).toBe(4);
    const id = /^session (\S+)$/m.exec(first.stdout)![1]!;
    const resumed = await correx(home, ['resume', id], world.env);
    expect(resumed.stderr + resumed.stdout).toMatch(/stdin is not one/);
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toContain('--wait-for-approval');
  }, 120_000);
});

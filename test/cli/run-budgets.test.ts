import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeThenFinish } from '../support/model-turns.js';
import { cliWorld } from './cli-world.js';
import { correx, startCorrex } from './cli-process.js';

/** Budgets on `correx run` and `correx resume`, through a real process and a loopback model. */
describe('correx run --max-tokens', () => {
  const world = cliWorld('correx-budget-test-');
  const { root, home, workflowFile } = world;

  const run = (dir: string, mode: string, ...extra: string[]) =>
    correx(
      home,
      [
        'run',
        'write hello.txt',
        '--workspace',
        dir,
        '--workflow',
        workflowFile,
        '--mode',
        mode,
        ...extra,
      ],
      world.env,
    );
  const workspace = (name: string) => world.workspace(name);
  const sessionOf = (stdout: string) => /session (\S+)/.exec(stdout)![1]!;

  it('fails an auto-mode session at its token budget, naming it', async () => {
    // Each answer on the wire reports 42 input and 7 output tokens.
    world.model.reply(...writeThenFinish('hello.txt', 'hello\n'));
    const result = await run(workspace('auto'), 'auto', '--max-tokens', '40');
    expect(result.code).toBe(1);
    const id = sessionOf(result.stdout);
    const events = await correx(home, ['events', id, '--json'], world.env);
    const types = events.stdout
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { payload: { type: string } }).payload.type);
    expect(types.filter((type) => type === 'inference_requested')).toHaveLength(1);
    expect(types.slice(-2)).toEqual(['budget_exhausted', 'workflow_failed']);
    expect((await correx(home, ['replay', id, '--verify'], world.env)).code).toBe(0);
  });

  it('stops a prompt-mode session at its budget, and `resume --max-tokens` raises it and goes on', async () => {
    world.model.reply(...writeThenFinish('hello.txt', 'hello\n'));
    const dir = workspace('prompt');
    const running = startCorrex(
      home,
      [
        'run',
        'write hello.txt',
        '--workspace',
        dir,
        '--workflow',
        workflowFile,
        '--mode',
        'prompt',
        '--wait-for-approval',
        '--max-tokens',
        '40',
      ],
      world.env,
    );
    // The write waits for a person; it is approved from another process.
    const asked = await running.waitFor(/approval needed for (\S+):/);
    const id = sessionOf(running.output());
    expect((await correx(home, ['approve', id, asked[1]!], world.env)).code).toBe(0);
    const first = await running.exited;
    // Stopped at its budget: open, waiting for a person to raise it.
    expect(first.code).toBe(4);
    expect(first.stdout).toMatch(
      /stopped at its tokens budget \(40\); raise it to go on: correx resume \S+ --max-tokens N/,
    );
    const resumed = await correx(
      home,
      ['resume', id, '--max-tokens', '1000', '--wait-for-approval'],
      world.env,
    );
    expect(resumed.stdout).toMatch(/completed/);
    expect(resumed.code).toBe(0);
    expect((await correx(home, ['replay', id, '--verify'], world.env)).code).toBe(0);
  });

  it("shows what each model call, each stage and the session cost, by the profile's prices", async () => {
    const pricedHome = join(root, 'priced-home');
    mkdirSync(pricedHome, { recursive: true });
    writeFileSync(
      join(pricedHome, 'harness.yaml'),
      [
        'providers:',
        '  wire: { kind: openai-compatible, baseUrl: "' + world.model.url + '/v1" }',
        'models:',
        '  - id: priced',
        '    provider: wire',
        '    model: served-model',
        '    capabilities: [tool_calling, json_output]',
        '    contextWindow: 32768',
        '    prices: { inputPerMillion: 10, outputPerMillion: 20 }',
        '',
      ].join('\n'),
    );
    world.model.reply(...writeThenFinish('hello.txt', 'hello\n'));
    const ran = await correx(pricedHome, [
      'run',
      'write hello.txt',
      '--workspace',
      workspace('priced'),
      '--workflow',
      workflowFile,
      '--mode',
      'auto',
    ]);
    expect(ran.code).toBe(0);
    const shown = await correx(pricedHome, ['show', sessionOf(ran.stdout)]);
    // Two answers of 42 input and 7 output tokens: $0.00056 each.
    expect(shown.stdout).toMatch(/^cost {6}\$0\.0011$/m);
    expect(shown.stdout).toMatch(/^implement .*\$0\.0011$/m);
    expect(shown.stdout.match(/^ +\d+ +model call \$0\.0006$/gm)).toHaveLength(2);
  }, 60_000);

  it('refuses a budget that is not a positive number', async () => {
    const result = await run(workspace('bad'), 'auto', '--max-cost', 'lots');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--max-cost takes a positive number/);
  });
});

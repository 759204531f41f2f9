import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeThenFinish } from '../support/model-turns.js';
import { cliWorld } from './cli-world.js';
import { correx } from './cli-process.js';

type Line = Record<string, unknown> & { type?: string; payload?: Record<string, unknown> };

/**
 * docs/headless.md: no mode waits silently for a terminal that is not there. `--mode auto`
 * approves up to T2; a T3 call needs a person, and with stdin not a terminal and no
 * `--wait-for-approval`, the run stops there at once (exit 4), saying how to decide and go on.
 */
describe('a call only a person decides, in auto mode without a terminal', () => {
  const world = cliWorld('correx-unattended-test-');

  it('stops the run at once with exit 4 and the session open, naming approve/deny and resume; deciding then resuming finishes it', async () => {
    const home = join(world.root, 'unattended-home');
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, 'harness.yaml'), 'policy:\n  tierOverrides: { write_file: T3 }\n');
    world.model.reply(...writeThenFinish('hello.txt', 'decided\n'));
    const workspace = world.workspace('unattended-ws');
    const run = await correx(
      home,
      [
        'run',
        'write hello.txt',
        '--workspace',
        workspace,
        '--workflow',
        world.workflowFile,
        '--mode',
        'auto',
        '--json',
      ],
      world.env,
    );
    expect(run.code, run.stderr).toBe(4);
    const lines = run.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Line);
    const waiting = lines.find((line) => line.type === 'waiting')!;
    expect(waiting).toMatchObject({
      for: 'approval',
      tool: 'write_file',
      tier: 'T3',
      stopping: true,
    });
    const id = waiting.sessionId as string;
    const callId = waiting.callId as string;
    expect(run.stderr).toContain(
      `needs a person's decision and stdin is not a terminal to ask on: stopping with the session open (exit 4). Decide it with correx approve ${id} ${callId}`,
    );
    expect(run.stderr).toContain(`then correx resume ${id}`);
    expect(lines.at(-1)).toMatchObject({
      type: 'summary',
      status: 'running',
      exitCode: 4,
      waitingFor: { kind: 'approval', calls: [{ callId, tier: 'T3' }] },
    });

    expect((await correx(home, ['approve', id, callId], world.env)).code).toBe(0);
    const resumed = await correx(home, ['resume', id], world.env);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(/^outcome {3}completed \(exit 0\)$/m);
  }, 120_000);
});

import { existsSync, mkdirSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeThenFinish } from '../support/model-turns.js';
import { cliWorld } from './cli-world.js';
import { correx, startCorrex } from './cli-process.js';

const WORKFLOW = `id: write-once
initialStage: implement
stages:
  - id: implement
    role: implementer
    instructions: Change the workspace as the task says.
    allowedTools: [write_file]
    capabilities: [tool_calling]
    artifact:
      kind: change
      schema:
        type: object
        properties:
          summary: { type: string }
          filesChanged: { type: array, items: { type: string } }
        required: [summary, filesChanged]
    transitions:
      - when: { on: success }
        end: completed
      - when: { on: failure }
        end: failed
`;

/** The command line's rough edges, met as processes: what a person sees after things go wrong. */
// Each test starts several CLI processes, one after another: on a loaded machine (two cores,
// other runs beside) the killed-driver test took longer than the suite's default 30 s.
describe('correx run and the commands around it', { timeout: 120_000 }, () => {
  const world = cliWorld('correx-rough-test-', WORKFLOW);
  const { root, home, workflowFile } = world;

  it('shows a session whose driver was killed -9 as interrupted (nobody driving); prefixes and --last find it', async () => {
    world.model.reply(...writeThenFinish('hello.txt', 'hi\n'));
    const dir = join(root, 'killed');
    mkdirSync(dir, { recursive: true });
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
      ],
      world.env,
    );
    const [, sessionId] = await running.waitFor(/correx approve (\S+) (\S+)/);
    const shownWhileDriven = await correx(home, ['show', sessionId!]);
    expect(shownWhileDriven.stdout).toMatch(/^status {4}running/m);
    running.child.kill('SIGKILL');
    await running.exited;
    const shown = await correx(home, ['show', sessionId!.slice(0, 12)]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(`session   ${sessionId}`);
    expect(shown.stdout).toMatch(
      new RegExp(`^status {4}interrupted \\(nobody driving\\).*correx resume ${sessionId}`, 'm'),
    );
    const listed = await correx(home, ['sessions']);
    expect(listed.stdout).toMatch(/interrupted \(nobody driving\) \(1 to approve\)/);
    const last = await correx(home, ['approvals', '--last']);
    expect(last.stdout).toMatch(/write_file/);

    // With $USER unset the audit trail names the OS account, not `unknown`.
    const granted = await correx(
      home,
      ['grant', sessionId!, '--command', 'npm test', '--reason', 'tests are fine'],
      { USER: '', USERNAME: '' },
    );
    expect(granted.code).toBe(0);
    const grants = await correx(home, ['grants', sessionId!, '--json']);
    expect(JSON.parse(grants.stdout)).toEqual([
      expect.objectContaining({ by: userInfo().username }),
    ]);
  });

  it('a mistyped --store on a command that only reads creates no folder and no database', async () => {
    const typo = join(root, 'no-such-folder', 'corex.db');
    for (const args of [['sessions'], ['show', 'x'], ['events', 'x'], ['verify', 'x']]) {
      const result = await correx(home, ['--store', typo, ...args]);
      expect(result.code, args.join(' ')).toBe(3);
      expect(result.stderr).toContain(`no store at ${typo}`);
    }
    expect(existsSync(join(root, 'no-such-folder'))).toBe(false);
  });

  it('a usage error prints the one usage line, not the whole help', async () => {
    const result = await correx(home, ['run']);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([
      "error: missing required argument 'task'",
      'usage: correx run [options] <task>',
      '(correx run --help for more)',
    ]);
  });
});

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { json } from '../providers/fake-http-server.js';
import { writeThenFinish } from '../support/model-turns.js';
import { cliWorld } from './cli-world.js';
import { correx } from './cli-process.js';

type Envelope = { payload: { type: string } & Record<string, unknown> };

/** Issue #21: a failed session can be retried, and the log says it was. */
describe('correx resume --retry', () => {
  const world = cliWorld('correx-retry-test-');
  const { root, home, workflowFile } = world;

  it('goes on from the failed stage in a new attempt, records who retried and why, and replays', async () => {
    // The model refuses the request: the one stage fails, and with it the workflow.
    world.model.reply(json(400, { error: { message: 'the request is not valid today' } }));
    const dir = join(root, 'work');
    mkdirSync(dir, { recursive: true });
    const failed = await correx(
      home,
      ['run', 'write hello.txt', '--workspace', dir, '--workflow', workflowFile, '--mode', 'auto'],
      world.env,
    );
    expect(failed.code).toBe(1);
    const sessionId = /^session (\S+)$/m.exec(failed.stdout)![1]!;
    expect(failed.stdout).toContain(`session ${sessionId} failed`);

    // A plain resume does not bring a failed session back.
    const plain = await correx(home, ['resume', sessionId], world.env);
    expect(plain.stdout).not.toContain('✓ workflow completed');

    world.model.reply(...writeThenFinish('hello.txt', 'hello again\n'));
    const retried = await correx(
      home,
      ['resume', sessionId, '--retry', '--reason', 'the server is fixed'],
      { ...world.env, USER: 'ana' },
    );
    expect(retried.stdout, retried.stderr).toContain(
      '↻ retried by ana from stage implement (attempt 2): the server is fixed',
    );
    expect(retried.stdout).toContain('▶ stage implement (attempt 2)');
    expect(retried.stdout).toContain('✓ workflow completed');
    expect(retried.code).toBe(0);
    expect(readFileSync(join(dir, 'hello.txt'), 'utf8')).toBe('hello again\n');

    const recorded = (await correx(home, ['events', sessionId, '--json'])).stdout.trim();
    // Corpus material, as the scenario stores record it (CORREX_GOLDEN_RECORD; never overwritten).
    const folder = process.env.CORREX_GOLDEN_RECORD;
    if (folder !== undefined && folder !== '') {
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, `cli-resume-retry--${sessionId}.ndjson`), `${recorded}\n`, {
        flag: 'wx',
      });
    }
    const events = recorded.split('\n').map((line) => (JSON.parse(line) as Envelope).payload);
    const types = events.map((payload) => payload.type);
    expect(types.indexOf('workflow_failed')).toBeLessThan(types.indexOf('session_retried'));
    expect(events.find((payload) => payload.type === 'session_retried')).toEqual({
      type: 'session_retried',
      stageId: 'implement',
      attempt: 2,
      by: 'ana',
      reason: 'the server is fixed',
    });
    expect(types.at(-1)).toBe('workflow_completed');

    const replay = await correx(home, ['replay', sessionId, '--verify']);
    expect(replay.stdout).toContain('identical');
    expect(replay.code).toBe(0);

    // A completed session is not retried.
    const again = await correx(home, ['resume', sessionId, '--retry'], world.env);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('only a failed session can be retried');
  }, 90_000);
});

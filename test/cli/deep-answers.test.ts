import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hang, sse } from '../providers/fake-http-server.js';
import { chatCompletionStream } from '../providers/openai-wire.js';
import { writeThenFinish } from '../support/model-turns.js';
import { cliWorld } from './cli-world.js';
import { correx, startCorrex } from './cli-process.js';

type Line = { payload: { type: string } & Record<string, unknown> };

const nested = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

/**
 * Issue 33.2 through the real CLI and a loopback OpenAI-compatible server: answers nested past
 * what anything recursive can walk (a 10,000-deep plain-text answer, a 300-deep call of the
 * finishing tool) are recorded as failed answers the stage moves past; after a kill -9 the
 * session resumes, and replay re-derives it.
 */
describe('a model answer nested too deep', () => {
  const world = cliWorld('correx-deep-answers-test-');
  const { home, workflowFile } = world;

  it('is refused and recorded, and resume and replay --verify go on past it', async () => {
    world.model.reply(
      sse(chatCompletionStream({ text: [nested(10_000)] })),
      sse(
        chatCompletionStream({
          toolCalls: [{ id: 'call_deep', name: 'finish_change', arguments: nested(300) }],
        }),
      ),
      hang,
    );
    const dir = world.workspace('deep');
    const running = startCorrex(
      home,
      ['run', 'write hello.txt', '--workspace', dir, '--workflow', workflowFile, '--mode', 'auto'],
      world.env,
    );
    const [, id] = await running.waitFor(/^session (\S+)$/m);
    // The third request means both deep answers were taken: the process is then killed mid-call.
    while (world.model.requests.length < 3) {
      const ended = await Promise.race([
        running.exited.then(() => true),
        new Promise<false>((resolve) => setTimeout(() => resolve(false), 50)),
      ]);
      if (ended) expect.fail(`the run ended early:\n${running.output()}`);
    }
    running.child.kill('SIGKILL');
    await running.exited;

    world.model.reply(...writeThenFinish('hello.txt', 'hello\n'));
    const resumed = await correx(home, ['resume', id!], world.env);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain('✓ workflow completed');
    expect(readFileSync(join(dir, 'hello.txt'), 'utf8')).toBe('hello\n');

    const lines = (await correx(home, ['events', id!, '--json'], world.env)).stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Line);
    const failures = lines
      .filter((line) => line.payload.type === 'validation_failed')
      .map((line) => ({ validator: line.payload.validator, message: line.payload.message }));
    expect(failures).toEqual([
      { validator: 'finishing_tool', message: expect.stringContaining('plain-text answer') },
      {
        validator: 'answer_bounds',
        message: expect.stringContaining('nested 300 levels deep; at most 255'),
      },
    ]);
    const replay = await correx(home, ['replay', id!, '--verify'], world.env);
    expect(replay.code, replay.stdout + replay.stderr).toBe(0);
  });
});

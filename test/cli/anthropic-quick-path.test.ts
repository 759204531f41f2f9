import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { messageStream } from '../providers/anthropic-wire.js';
import { sse } from '../providers/fake-http-server.js';
import { cliWorld } from './cli-world.js';
import { correx } from './cli-process.js';

/** Issue #37: OPENAI_BASE_URL worked from the environment; ANTHROPIC_API_KEY needed a harness.yaml. */
describe('ANTHROPIC_API_KEY alone configures a model', () => {
  const world = cliWorld('correx-anthropic-env-');

  it('runs a session against the Anthropic Messages API with no harness.yaml', async () => {
    world.model.reply(
      sse(
        messageStream({
          toolUses: [
            {
              id: 'toolu_1',
              name: 'write_file',
              input: JSON.stringify({ path: 'hello.txt', content: 'from claude\n' }),
            },
          ],
        }),
      ),
      sse(
        messageStream({
          toolUses: [
            {
              id: 'toolu_2',
              name: 'finish_change',
              input: JSON.stringify({ summary: 'wrote hello.txt', filesChanged: ['hello.txt'] }),
            },
          ],
        }),
      ),
    );
    const workspace = world.workspace('work');
    const run = await correx(
      world.home,
      [
        'run',
        'write hello.txt',
        '--workspace',
        workspace,
        '--workflow',
        world.workflowFile,
        '--mode',
        'auto',
      ],
      {
        ANTHROPIC_API_KEY: 'sk-ant-test-key',
        ANTHROPIC_BASE_URL: `${world.model.url}/v1`,
        CORREX_MODEL: 'claude-served',
      },
    );
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(readFileSync(join(workspace, 'hello.txt'), 'utf8')).toBe('from claude\n');
    const request = world.model.requests[0]!;
    expect(request.path).toBe('/v1/messages');
    expect(request.headers['x-api-key']).toBe('sk-ant-test-key');
    expect((request.body as { model: string }).model).toBe('claude-served');
    // The key never reaches the log.
    const sessionId = /^session (\S+)$/m.exec(run.stdout)![1]!;
    const events = await correx(world.home, ['events', sessionId, '--json']);
    expect(events.stdout).not.toContain('sk-ant-test-key');
  });
});

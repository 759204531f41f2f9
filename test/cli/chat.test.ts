import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sse } from '../providers/fake-http-server.js';
import { chatCompletionStream } from '../providers/openai-wire.js';
import { writeThenFinish } from '../support/model-turns.js';
import { cliWorld } from './cli-world.js';
import { startCorrex } from './cli-process.js';
import { startCorrexInTerminal } from './terminal-process.js';

/** `correx chat` in a real terminal, beside a session that waits for an approval. */
describe('correx chat in a terminal', () => {
  const world = cliWorld('correx-chat-test-');
  const { root, home, workflowFile } = world;

  it('shows a prompt, answers /help and unknown commands itself, and the router knows the pending approval', async () => {
    world.model.reply(...writeThenFinish('hello.txt', 'hi\n'));
    const dir = join(root, 'work');
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
        // No terminal here: the run waits for a decision made elsewhere.
        '--wait-for-approval',
      ],
      world.env,
    );
    const [, sessionId, callId] = await running.waitFor(/correx approve (\S+) (\S+)/);
    // The session keeps waiting for the approval with nobody driving it.
    running.child.kill('SIGKILL');
    await running.exited;

    world.model.reply(sse(chatCompletionStream({ text: [`It waits for approval of ${callId}.`] })));
    const modelCalls = world.model.requests.length;
    const chat = startCorrexInTerminal(home, ['chat', sessionId!], world.env);
    await chat.waitFor('you> ');
    chat.type('/help\r');
    await chat.waitFor('/help           this list');
    chat.type('/frobnicate now\r');
    await chat.waitFor('unknown command /frobnicate; /help lists the commands');
    await chat.waitFor('you> ', 3);
    // Neither reached the router world.model.
    expect(world.model.requests.length).toBe(modelCalls);

    chat.type('what is it waiting for?\r');
    await chat.waitFor(`router: It waits for approval of ${callId}.`);
    expect(world.model.requests.length).toBe(modelCalls + 1);
    const messages = (world.model.requests.at(-1)!.body as { messages: { content: string }[] })
      .messages;
    expect(messages[0]!.content).toMatch(
      new RegExp(
        `- call ${callId!.replace(/\./g, '\\.')} \\(write_file, tier T\\d\\), requested at #\\d+`,
      ),
    );
    expect(messages.at(-1)!.content).toBe('what is it waiting for?');
    chat.type('/quit\r');
    const done = await chat.exited;
    expect(done.code).toBe(0);

    // Ctrl-C at the prompt ends the conversation at once, no Enter needed.
    const again = startCorrexInTerminal(home, ['chat', sessionId!], world.env);
    await again.waitFor('you> ');
    again.type('\x03');
    expect((await again.exited).code).toBe(0);
  }, 90_000);
});

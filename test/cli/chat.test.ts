import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sse, startFakeHttpServer, type FakeHttpServer } from '../providers/fake-http-server.js';
import { chatCompletionStream } from '../providers/openai-wire.js';
import { writeThenFinish } from '../support/model-turns.js';
import { tempDir } from '../support/temp-dir.js';
import { WRITE_ONCE_WORKFLOW } from '../support/write-once-workflow.js';
import { startCorrex } from './cli-process.js';
import { startCorrexInTerminal } from './terminal-process.js';

/** `correx chat` in a real terminal, beside a session that waits for an approval. */
describe('correx chat in a terminal', () => {
  const root = realpathSync(tempDir('correx-chat-test-'));
  const home = join(root, 'home');
  const workflowFile = join(root, 'write-once.yaml');
  let model: FakeHttpServer;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    mkdirSync(home, { recursive: true });
    writeFileSync(workflowFile, WRITE_ONCE_WORKFLOW);
    model = await startFakeHttpServer();
    env = { OPENAI_BASE_URL: `${model.url}/v1`, CORREX_MODEL: 'served-model' };
  });
  afterAll(async () => {
    await model.close();
  });

  it('shows a prompt, answers /help and unknown commands itself, and the router knows the pending approval', async () => {
    model.reply(...writeThenFinish('hello.txt', 'hi\n'));
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
      env,
    );
    const [, sessionId, callId] = await running.waitFor(/correx approve (\S+) (\S+)/);
    // The session keeps waiting for the approval with nobody driving it.
    running.child.kill('SIGKILL');
    await running.exited;

    model.reply(sse(chatCompletionStream({ text: [`It waits for approval of ${callId}.`] })));
    const modelCalls = model.requests.length;
    const chat = startCorrexInTerminal(home, ['chat', sessionId!], env);
    await chat.waitFor('you> ');
    chat.type('/help\r');
    await chat.waitFor('/help           this list');
    chat.type('/frobnicate now\r');
    await chat.waitFor('unknown command /frobnicate; /help lists the commands');
    await chat.waitFor('you> ', 3);
    // Neither reached the router model.
    expect(model.requests.length).toBe(modelCalls);

    chat.type('what is it waiting for?\r');
    await chat.waitFor(`router: It waits for approval of ${callId}.`);
    expect(model.requests.length).toBe(modelCalls + 1);
    const messages = (model.requests.at(-1)!.body as { messages: { content: string }[] }).messages;
    expect(messages[0]!.content).toMatch(
      new RegExp(
        `- call ${callId!.replace(/\./g, '\\.')} \\(write_file, tier T\\d\\), requested at #\\d+`,
      ),
    );
    expect(messages.at(-1)!.content).toBe('what is it waiting for?');
    chat.type('/quit\r');
    const done = await chat.exited;
    expect(done.code).toBe(0);
  }, 60_000);
});

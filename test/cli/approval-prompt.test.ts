import { mkdirSync, readFileSync, realpathSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sse, startFakeHttpServer, type FakeHttpServer } from '../providers/fake-http-server.js';
import { chatCompletionStream } from '../providers/openai-wire.js';
import { writeThenFinish } from '../support/model-turns.js';
import { tempDir } from '../support/temp-dir.js';
import { correx } from './cli-process.js';
import { startCorrexInTerminal } from './terminal-process.js';
import { WRITE_ONCE_WORKFLOW as WORKFLOW } from '../support/write-once-workflow.js';

const QUESTION = '? [y]es / [n]o / [a]lways allow: ';
const REASON = 'reason for the denial';

/** The approval prompt as a person meets it: a real pseudo-terminal, keys typed into it. */
describe('the approval prompt in a real terminal', () => {
  const root = realpathSync(tempDir('correx-prompt-test-'));
  const home = join(root, 'home');
  const workflowFile = join(root, 'write-once.yaml');
  let model: FakeHttpServer;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    mkdirSync(home, { recursive: true });
    writeFileSync(workflowFile, WORKFLOW);
    model = await startFakeHttpServer();
    env = { OPENAI_BASE_URL: `${model.url}/v1`, CORREX_MODEL: 'served-model', USER: 'pat' };
  });
  afterAll(async () => {
    await model.close();
  });

  // After a denied write the model finishes truthfully: with claims-against-log, a change
  // artifact whose filesChanged names a file whose write was denied fails validation.
  const finishKeepingTheFile = sse(
    chatCompletionStream({
      toolCalls: [
        {
          id: 'call_2',
          name: 'finish_change',
          arguments: JSON.stringify({ summary: 'kept hello.txt as it was', filesChanged: [] }),
        },
      ],
    }),
  );

  function start(name: string, { writeDenied = false } = {}) {
    const dir = join(root, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'hello.txt'), 'old line\n');
    // Read the file first (the log then holds its content), then write it, then finish.
    const [write, finish] = writeThenFinish('hello.txt', 'hello from the model\n');
    model.reply(
      sse(
        chatCompletionStream({
          toolCalls: [
            { id: 'call_0', name: 'read_file', arguments: JSON.stringify({ path: 'hello.txt' }) },
          ],
        }),
      ),
      write,
      writeDenied ? finishKeepingTheFile : finish,
    );
    const args = ['run', 'write hello.txt', '--workspace', dir, '--workflow', workflowFile];
    return { dir, terminal: startCorrexInTerminal(home, [...args, '--mode', 'prompt'], env) };
  }

  const sessionOf = (screen: string) => /^session (\S+)/m.exec(screen)![1]!;

  it('drops type-ahead, re-asks on Enter alone or an invalid answer, and asks a denial its reason', async () => {
    const { dir, terminal } = start('type-ahead', { writeDenied: true });
    // Typed while correx starts and the model thinks: never taken as the answer.
    terminal.type('y\r');
    await terminal.waitFor(QUESTION);
    expect(terminal.screen()).toMatch(/ignored \d+ keys? typed before this question/);
    terminal.type('\r');
    await terminal.waitFor('no answer taken');
    await terminal.waitFor(QUESTION, 2);
    terminal.type('maybe\r');
    await terminal.waitFor('"maybe" is not an answer here');
    await terminal.waitFor(QUESTION, 3);
    terminal.type('n\r');
    await terminal.waitFor(REASON);
    terminal.type('\r');
    await terminal.waitFor('a denial needs a reason');
    await terminal.waitFor(REASON, 2);
    terminal.type('keep the old line\r');
    const result = await terminal.exited;
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('✓ workflow completed');
    const show = await correx(home, ['show', sessionOf(result.stdout)]);
    expect(show.stdout).toContain('denied by human:pat: keep the old line');
    // The model's next turn reads the reason.
    expect(JSON.stringify(model.requests.at(-1)!.body)).toContain('keep the old line');
    expect(result.stdout).not.toMatch(/\n\s+at /);
    expect(readFileSync(join(dir, 'hello.txt'), 'utf8')).toBe('old line\n');
  });

  it('shows what the call will do: the diff against the recorded file, the path, why it asks', async () => {
    const { terminal } = start('details');
    await terminal.waitFor(QUESTION);
    const screen = terminal.screen();
    expect(screen).toMatch(/writes\s+\S*details\/hello\.txt/);
    expect(screen).toContain('+hello from the model');
    expect(screen).toMatch(/why\s+(a rule asks|no rule blocks it, but tier T\d)/);
    expect(screen).toContain('always    would record the grant: write_file on hello.txt');
    terminal.type('y\r');
    expect((await terminal.exited).code).toBe(0);
  });

  it('"always allow" records the exact grant `correx grant` would and approves the call', async () => {
    const { dir, terminal } = start('always');
    await terminal.waitFor(QUESTION);
    terminal.type('a\r');
    const result = await terminal.exited;
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/added grant-\S+: write_file on hello\.txt/);
    expect(readFileSync(join(dir, 'hello.txt'), 'utf8')).toBe('hello from the model\n');
    const grants = await correx(home, ['grants', sessionOf(result.stdout), '--json']);
    expect(JSON.parse(grants.stdout)).toEqual([
      expect.objectContaining({
        scope: { kind: 'path', tool: 'write_file', glob: 'hello.txt' },
        lifetime: 'session',
        by: 'pat',
      }),
    ]);
    const events = await correx(home, ['events', sessionOf(result.stdout)]);
    expect(events.stdout).toMatch(/approval_granted.*human.*always allowed: grant-/);
  });

  it('Ctrl-D asks for a reason; Ctrl-C there pauses the session like anywhere else', async () => {
    const { terminal } = start('ctrl-c');
    await terminal.waitFor(QUESTION);
    terminal.type('\x04');
    await terminal.waitFor(REASON);
    terminal.type('\x03');
    const result = await terminal.exited;
    expect(result.stdout).toContain('pausing after the current step');
    expect(result.stdout).toMatch(/session \S+ paused; continue with: correx resume/);
    expect(result.stdout).not.toMatch(/AbortError|\n\s+at /);
    // Paused: the session waits for a person to resume it (docs/headless.md, exit codes).
    expect(result.code).toBe(4);
    const show = await correx(home, ['show', sessionOf(result.stdout)]);
    expect(show.stdout).toContain('status    paused');
  });

  it('Ctrl-D twice withdraws the prompt: the call still waits and is decided elsewhere', async () => {
    const { dir, terminal } = start('withdrawn');
    await terminal.waitFor(QUESTION);
    terminal.type('\x04');
    await terminal.waitFor(REASON);
    terminal.type('\x04');
    await terminal.waitFor('not decided here; the call still waits');
    const [, sessionId, callId] = /correx approve (\S+) (\S+)/.exec(terminal.screen())!;
    expect((await correx(home, ['approve', sessionId!, callId!])).code).toBe(0);
    const result = await terminal.exited;
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('✓ workflow completed');
    expect(existsSync(join(dir, 'hello.txt'))).toBe(true);
  });
});

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { json, sse } from '../providers/fake-http-server.js';
import { chatCompletionStream } from '../providers/openai-wire.js';
import { writeThenFinish } from '../support/model-turns.js';
import { cliWorld } from './cli-world.js';
import { correx } from './cli-process.js';

type Envelope = { sequence: number; payload: { type: string } & Record<string, unknown> };

/** The model's finishing call of the chat stage: its reply to the person. */
function reply(message: string) {
  return sse(
    chatCompletionStream({
      toolCalls: [{ id: 'call_r', name: 'finish_reply', arguments: JSON.stringify({ message }) }],
    }),
  );
}

function write(path: string, content: string) {
  return sse(
    chatCompletionStream({
      toolCalls: [
        { id: 'call_w', name: 'write_file', arguments: JSON.stringify({ path, content }) },
      ],
    }),
  );
}

async function eventsOf(home: string, sessionId: string): Promise<Envelope[]> {
  const recorded = (await correx(home, ['events', sessionId, '--json'])).stdout.trim();
  return recorded.split('\n').map((line) => JSON.parse(line) as Envelope);
}

/** Issue #36: `correx continue` takes a follow-up turn in a session whose workflow ended. */
describe('correx continue', () => {
  const world = cliWorld('correx-continue-test-');
  const { root, home, workflowFile } = world;
  let n = 0;
  const workspace = () => {
    n += 1;
    const dir = join(root, `work-${n}`);
    mkdirSync(dir, { recursive: true });
    return dir;
  };
  const sessionOf = (stdout: string) => /^session (\S+)$/m.exec(stdout)![1]!;

  it('continues a completed session in the same workspace, turn by turn, and replays', async () => {
    const dir = workspace();
    world.model.reply(...writeThenFinish('hello.txt', 'hello\n'));
    const first = await correx(
      home,
      ['run', 'write hello.txt', '--workspace', dir, '--workflow', workflowFile, '--mode', 'auto'],
      world.env,
    );
    expect(first.code, first.stderr).toBe(0);
    const sessionId = sessionOf(first.stdout);

    world.model.reply(...writeThenFinish('bye.txt', 'bye\n'));
    const second = await correx(home, ['continue', sessionId, 'now also write bye.txt'], {
      ...world.env,
      USER: 'ana',
    });
    expect(second.code, second.stdout + second.stderr).toBe(0);
    expect(second.stdout).toContain(
      '» turn 2 asked by ana (workflow write-once): now also write bye.txt',
    );
    expect(second.stdout).toContain('workspace as the last turn left it (1 file(s) compared)');
    expect(second.stdout).toContain('✓ workflow completed');
    expect(second.stdout).toMatch(/── summary of session \S+, turn 2 of 2/);
    expect(second.stdout).toMatch(/files +1 changed/);
    expect(second.stdout).toContain('bye.txt');
    expect(readFileSync(join(dir, 'hello.txt'), 'utf8')).toBe('hello\n');
    expect(readFileSync(join(dir, 'bye.txt'), 'utf8')).toBe('bye\n');

    // The second turn's model was told what the first did.
    const pack = JSON.stringify(world.model.requests.at(-2)?.body ?? '');
    expect(pack).toContain('Task (follow-up turn 2 of this session');
    expect(pack).toContain('Turn 1 of this session');

    const events = await eventsOf(home, sessionId);
    const types = events.map((event) => event.payload.type);
    expect(types.filter((type) => type === 'workflow_completed')).toHaveLength(2);
    expect(events.find((event) => event.payload.type === 'turn_requested')?.payload).toEqual({
      type: 'turn_requested',
      turn: 2,
      text: 'now also write bye.txt',
      requestedBy: 'ana',
      workflowId: 'write-once',
    });

    const replay = await correx(home, ['replay', sessionId, '--verify']);
    expect(replay.stdout, replay.stderr).toContain('identical');
    expect(replay.code).toBe(0);

    // A running session is not continued; an empty request is refused.
    const empty = await correx(home, ['continue', sessionId, ' '], world.env);
    expect(empty.code).not.toBe(0);
    expect(empty.stderr).toContain('a follow-up turn needs a request text');
  }, 180_000);

  it('continues a failed session', async () => {
    const dir = workspace();
    world.model.reply(json(400, { error: { message: 'the request is not valid today' } }));
    const failed = await correx(
      home,
      ['run', 'write hello.txt', '--workspace', dir, '--workflow', workflowFile, '--mode', 'auto'],
      world.env,
    );
    expect(failed.code).toBe(1);
    const sessionId = sessionOf(failed.stdout);

    world.model.reply(...writeThenFinish('hello.txt', 'hello after all\n'));
    const again = await correx(
      home,
      ['continue', sessionId, 'try again: write hello.txt'],
      world.env,
    );
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.stdout).toContain('» turn 2');
    expect(again.stdout).toContain('✓ workflow completed');
    expect(readFileSync(join(dir, 'hello.txt'), 'utf8')).toBe('hello after all\n');
    const types = (await eventsOf(home, sessionId)).map((event) => event.payload.type);
    expect(types.indexOf('workflow_failed')).toBeLessThan(types.indexOf('turn_requested'));
    expect(types.at(-1)).toBe('workflow_completed');
    expect((await correx(home, ['replay', sessionId, '--verify'])).code).toBe(0);
  }, 180_000);

  it('notices a file edited by hand between turns, reports it, tells the model, and keeps it', async () => {
    const dir = workspace();
    world.model.reply(...writeThenFinish('hello.txt', 'hello\n'));
    const first = await correx(
      home,
      ['run', 'write hello.txt', '--workspace', dir, '--workflow', workflowFile, '--mode', 'auto'],
      world.env,
    );
    expect(first.code).toBe(0);
    const sessionId = sessionOf(first.stdout);
    writeFileSync(join(dir, 'hello.txt'), 'hello, edited by hand\n');

    world.model.reply(...writeThenFinish('other.txt', 'other\n'));
    const second = await correx(
      home,
      ['continue', sessionId, 'write other.txt', '--json'],
      world.env,
    );
    expect(second.code, second.stderr).toBe(0);
    // With --json the stream carries the check; the person reads it on stderr.
    expect(second.stderr).toMatch(
      /! 1 file\(s\) changed outside correx since the last turn, kept as they are: \S*hello\.txt \(modified\)/,
    );
    const lines = second.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const checked = lines.find(
      (line) => (line.payload as { type?: string } | undefined)?.type === 'turn_workspace_checked',
    );
    expect(checked?.payload).toMatchObject({
      turn: 2,
      compared: 1,
      changed: [{ path: join(dir, 'hello.txt'), kind: 'modified', found: expect.any(String) }],
    });
    const summary = lines.at(-1) as {
      type: string;
      turn?: number;
      turns?: { turn: number; workspaceChanged: string[] }[];
    };
    expect(summary.type).toBe('summary');
    expect(summary.turn).toBe(2);
    expect(summary.turns?.[1]?.workspaceChanged).toEqual([join(dir, 'hello.txt')]);
    expect(readFileSync(join(dir, 'hello.txt'), 'utf8')).toBe('hello, edited by hand\n');
    const pack = JSON.stringify(world.model.requests.at(-2)?.body ?? '');
    expect(pack).toContain('changed outside correx');
    expect(pack).toContain('hello.txt: modified');

    // show lists the turns with the hand edit.
    const show = await correx(home, ['show', sessionId, '--summary']);
    expect(show.stdout).toMatch(/turn 1 +completed/);
    expect(show.stdout).toMatch(/turn 2 +completed/);
    expect(show.stdout).toContain('edited outside correx before it: hello.txt');
    expect((await correx(home, ['replay', sessionId, '--verify'])).code).toBe(0);
  }, 180_000);

  it('takes a follow-up in the chat workflow: the reply and the checks it ran are reported', async () => {
    const dir = workspace();
    writeFileSync(join(dir, 'Makefile'), 'test:\n\ttest -f notes.txt\n');
    world.model.reply(reply('Hello! What should I do?'));
    const first = await correx(
      home,
      ['run', 'hi', '--workspace', dir, '--workflow', 'chat', '--mode', 'auto'],
      world.env,
    );
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(first.stdout).toContain('« reply (turn 1): Hello! What should I do?');
    const sessionId = sessionOf(first.stdout);

    world.model.reply(write('notes.txt', 'noted\n'), reply('I wrote notes.txt; make test passes.'));
    const second = await correx(home, ['continue', sessionId, 'write notes.txt'], world.env);
    expect(second.code, second.stdout + second.stderr).toBe(0);
    expect(second.stdout).toContain('» turn 2 asked by');
    expect(second.stdout).toContain('(workflow chat)');
    expect(second.stdout).toMatch(/✓ check make-test/);
    expect(second.stdout).toContain('« reply (turn 2): I wrote notes.txt; make test passes.');
    const events = await eventsOf(home, sessionId);
    const replies = events.filter((event) => event.payload.type === 'turn_reply_recorded');
    expect(replies.map((event) => event.payload)).toMatchObject([
      { turn: 1, message: 'Hello! What should I do?', filesChanged: [], checks: [] },
      {
        turn: 2,
        message: 'I wrote notes.txt; make test passes.',
        filesChanged: [join(dir, 'notes.txt')],
        checks: [{ name: 'make-test', passed: true }],
      },
    ]);
    expect((await correx(home, ['replay', sessionId, '--verify'])).code).toBe(0);
  }, 180_000);
});

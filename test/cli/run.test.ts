import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import {
  heldUntilReleased,
  json,
  sse,
  startFakeHttpServer,
  type FakeHttpServer,
} from '../providers/fake-http-server.js';
import { chatCompletionStream } from '../providers/openai-wire.js';
import { writeThenFinish } from '../support/model-turns.js';
import { cliWorld } from './cli-world.js';
import { correx, startCorrex } from './cli-process.js';
import { WRITE_ONCE_WORKFLOW as WORKFLOW } from '../support/write-once-workflow.js';

/** The model's turns over the wire: write a file, then finish with the artifact. */
function scriptModel(server: FakeHttpServer) {
  server.reply(...writeThenFinish('hello.txt', 'hello from the model\n'));
}

// Each test starts several CLI processes, one after another: on a loaded machine (two cores,
// other runs beside) the prompt-mode tests took longer than the suite's default 30 s, and the
// Ctrl-C test, cut short, left its workflow file broken for every test after it.
describe('correx run, approve, replay and tail as processes', { timeout: 120_000 }, () => {
  const world = cliWorld('correx-run-test-', WORKFLOW);
  const { root, home, workflowFile } = world;

  /** `correx run` of the one-stage task on `dir`, under `mode`. */
  function runArgs(dir: string, mode: 'auto' | 'prompt'): string[] {
    return [
      'run',
      'write hello.txt',
      '--workspace',
      dir,
      '--workflow',
      workflowFile,
      '--mode',
      mode,
      // No terminal here: prompt mode waits for `correx approve` from another process.
      ...(mode === 'prompt' ? ['--wait-for-approval'] : []),
    ];
  }

  function workspace(name: string): string {
    const dir = join(root, name);
    mkdirSync(dir, { recursive: true });
    return dir;
  }

  it('runs a task in auto mode with a model from the environment, then replays byte for byte', async () => {
    scriptModel(world.model);
    const dir = workspace('auto');
    const result = await correx(home, runArgs(dir, 'auto'), world.env);
    expect(result.stdout).toContain('✓ workflow completed');
    expect(result.code).toBe(0);
    expect(readFileSync(join(dir, 'hello.txt'), 'utf8')).toBe('hello from the model\n');
    const sessionId = /^session (\S+)$/m.exec(result.stdout)![1]!;
    // The quick start (OPENAI_BASE_URL + CORREX_MODEL) sends the stage schema as the finishing
    // tool's parameters on every request.
    for (const request of world.model.requests.slice(-2)) {
      const tools = (
        request.body as { tools: { function: { name: string; parameters: unknown } }[] }
      ).tools;
      expect(
        tools.find((tool) => tool.function.name === 'finish_change')?.function.parameters,
      ).toMatchObject({ required: ['summary', 'filesChanged'] });
    }

    const replay = await correx(home, ['replay', sessionId, '--verify']);
    expect(replay.stdout).toContain('identical');
    expect(replay.code).toBe(0);
    const tail = await correx(home, ['tail', sessionId]);
    expect(tail.code).toBe(0);
    expect(tail.stdout).toContain('✓ workflow completed');
    expect(tail.stdout).toContain(`session ${sessionId} completed`);
  });

  it('waits in prompt mode until another process approves, then finishes', async () => {
    scriptModel(world.model);
    const dir = workspace('prompt');
    const running = startCorrex(home, runArgs(dir, 'prompt'), world.env);
    const [, sessionId, callId] = await running.waitFor(/correx approve (\S+) (\S+)/);
    expect(running.output()).toContain('call      write_file');
    const approvals = await correx(home, ['approvals', sessionId!]);
    expect(approvals.stdout).toContain(callId!);
    const approve = await correx(home, ['approve', sessionId!, callId!, '--reason', 'looks right']);
    expect(approve.code).toBe(0);
    const result = await running.exited;
    expect(result.stdout).toContain('✓ workflow completed');
    expect(result.code).toBe(0);
    expect(readFileSync(join(dir, 'hello.txt'), 'utf8')).toBe('hello from the model\n');
    expect((await correx(home, ['replay', sessionId!, '--verify'])).code).toBe(0);
  });

  it('pauses on Ctrl-C while waiting, and resume continues with the recorded configuration', async () => {
    scriptModel(world.model);
    const dir = workspace('interrupt');
    const first = startCorrex(home, runArgs(dir, 'prompt'), world.env);
    const [, sessionId, callId] = await first.waitFor(/correx approve (\S+) (\S+)/);
    first.child.kill('SIGINT');
    const paused = await first.exited;
    expect(paused.stdout).toContain(`session ${sessionId} paused`);
    // Paused: the session waits for a person to resume it.
    expect(paused.code).toBe(4);
    expect((await correx(home, ['show', sessionId!])).stdout).toContain('status    paused');

    // The workflow file may change or vanish: resume uses what the session recorded.
    writeFileSync(workflowFile, 'not: a workflow\n');
    try {
      const second = startCorrex(home, ['resume', sessionId!, '--wait-for-approval'], world.env);
      await second.waitFor(new RegExp(`correx approve ${sessionId} ${callId}`));
      expect((await correx(home, ['approve', sessionId!, callId!])).code).toBe(0);
      const resumed = await second.exited;
      expect(resumed.stdout).toContain('✓ workflow completed');
      expect(resumed.code).toBe(0);
    } finally {
      writeFileSync(workflowFile, WORKFLOW);
    }
    expect(readFileSync(join(dir, 'hello.txt'), 'utf8')).toBe('hello from the model\n');
    expect((await correx(home, ['replay', sessionId!, '--verify'])).code).toBe(0);
  });

  it('refuses to resume a session another live process is driving', async () => {
    // The model answers only after the second process was refused: the first drives until then.
    const answer = heldUntilReleased(
      sse(
        chatCompletionStream({
          toolCalls: [
            {
              id: 'call_1',
              name: 'finish_change',
              arguments: '{"summary":"nothing","filesChanged":[]}',
            },
          ],
        }),
      ),
    );
    world.model.reply(answer.handler);
    const dir = workspace('busy');
    const running = startCorrex(home, runArgs(dir, 'auto'), world.env);
    const [, sessionId] = await running.waitFor(/^session (\S+)$/m);
    const second = await correx(home, ['resume', sessionId!], world.env);
    answer.release();
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/is being driven by process \d+/);
    const first = await running.exited;
    expect(first.stdout).toContain('✓ workflow completed');
    expect((await correx(home, ['replay', sessionId!, '--verify'])).code).toBe(0);
  });

  it('answers questions about a session; a steering note to a finished one is refused', async () => {
    scriptModel(world.model);
    const dir = workspace('chat');
    const result = await correx(home, runArgs(dir, 'auto'), world.env);
    const sessionId = /^session (\S+)$/m.exec(result.stdout)![1]!;
    world.model.reply(
      sse(chatCompletionStream({ text: ['It completed: the implement stage wrote hello.txt.'] })),
    );
    const ask = await correx(home, ['chat', sessionId, '--ask', 'how did it go?'], world.env);
    expect(ask.stderr).toBe('');
    expect(ask.stdout).toContain('router: It completed');
    const before = await correx(home, ['events', sessionId, '--json']);
    // The session completed: no model call would ever read a note, so none is recorded.
    const steer = await correx(home, ['chat', sessionId, '--steer', 'prefer tabs'], world.env);
    expect(steer.code).toBe(1);
    expect(steer.stderr).toContain('is completed; a steering note could never reach its model');
    const direct = await correx(home, ['steer', sessionId, 'prefer tabs']);
    expect(direct.code).toBe(1);
    const after = await correx(home, ['events', sessionId, '--json']);
    expect(after.stdout).toBe(before.stdout);
    // The router's question went to the model with the session's state, not its raw events.
    const question = JSON.stringify(world.model.requests.at(-1)?.body);
    expect(question).toContain('how did it go?');
    expect(question).not.toContain('hello from the model');
  });

  it('runs a stage as a sub-session of a workflow from harness.yaml, and both replay', async () => {
    scriptModel(world.model);
    const dir = workspace('delegate');
    const configured = join(root, 'delegate-home');
    mkdirSync(configured, { recursive: true });
    const writeOnce = WORKFLOW.replace(/^/gm, '    ').replace(
      '    id: write-once',
      '  - id: write-once',
    );
    writeFileSync(
      join(configured, 'harness.yaml'),
      [
        'workflows:',
        '  - id: delegate',
        '    initialStage: document',
        '    stages:',
        '      - id: document',
        '        role: delegator',
        '        instructions: Have a writer do it.',
        '        artifact: { kind: change, schema: { type: object } }',
        '        subagent: { workflow: write-once, task: "For the parent: {{task}}" }',
        '        transitions:',
        '          - { when: { on: success }, end: completed }',
        '          - { when: { on: failure }, end: failed }',
        writeOnce,
      ].join('\n'),
    );
    const result = await correx(
      configured,
      ['run', 'write hello.txt', '--workspace', dir, '--workflow', 'delegate', '--mode', 'auto'],
      world.env,
    );
    expect(result.stdout).toContain('✓ workflow completed');
    // The child's progress shows too, marked as the sub-session's.
    expect(result.stdout).toContain('  ↳ ▶ stage implement (attempt 1)');
    expect(result.code).toBe(0);
    expect(readFileSync(join(dir, 'hello.txt'), 'utf8')).toBe('hello from the model\n');
    const parent = /^session (\S+)$/m.exec(result.stdout)![1]!;
    const listed = await correx(configured, ['sessions', '--json']);
    const ids = (JSON.parse(listed.stdout) as { sessionId: string }[]).map((row) => row.sessionId);
    const child = ids.find((id) => id.startsWith(`${parent}.document.`));
    expect(child).toBeDefined();
    const childEvents = await correx(configured, ['events', child!, '--json']);
    expect(childEvents.stdout).toContain('For the parent: write hello.txt');
    for (const id of [parent, child!])
      expect((await correx(configured, ['replay', id, '--verify'])).code).toBe(0);
  });

  it('replay --verify fails on a tampered store, naming the event', async () => {
    scriptModel(world.model);
    const dir = workspace('tamper');
    const result = await correx(home, runArgs(dir, 'auto'), world.env);
    const sessionId = /^session (\S+)$/m.exec(result.stdout)![1]!;
    const db = new Database(join(home, 'correx.db'));
    try {
      // Someone with file access rewrites history: drop the guard, change a recorded model answer.
      const triggers = db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'trigger'")
        .all() as { name: string }[];
      for (const { name } of triggers) db.exec(`DROP TRIGGER "${name}"`);
      const changed = db
        .prepare(
          "UPDATE events SET bytes = replace(bytes, 'hello from the model', 'hello from someone') WHERE session_id = ? AND bytes LIKE '%hello from the model%'",
        )
        .run(sessionId);
      expect(changed.changes).toBeGreaterThan(0);
    } finally {
      db.close();
    }
    const replay = await correx(home, ['replay', sessionId, '--verify']);
    expect(replay.code).toBe(1);
    expect(replay.stderr).toMatch(/corrupt|hash/i);
    const verify = await correx(home, ['verify', sessionId]);
    expect(verify.code).toBe(1);
  });

  it('refuses a run it cannot set up with exit 2 and one clear sentence', async () => {
    const dir = workspace('unconfigured');
    const noModel = await correx(home, ['run', 'anything', '--workspace', dir]);
    expect(noModel.code).toBe(2);
    expect(noModel.stderr).toMatch(/no model is configured.*OPENAI_BASE_URL/);
    // The real file, not a variable the person has to expand.
    expect(noModel.stderr).toContain(join(home, 'harness.yaml'));
    expect(noModel.stderr).not.toMatch(/\n\s+at /);
    const badMode = await correx(home, ['run', 'anything', '--mode', 'reckless'], world.env);
    expect(badMode.code).toBe(2);
    const noWorkflow = await correx(
      home,
      ['run', 'x', '--workspace', dir, '--workflow', 'nope'],
      world.env,
    );
    expect(noWorkflow.code).toBe(2);
    expect(noWorkflow.stderr).toContain('no workflow "nope"');
    const inHome = await correx(home, ['run', 'x', '--workspace', root], world.env);
    expect(inHome.code).toBe(2);
    expect(inHome.stderr).toContain("keeps out of the agent's reach");
    const insideHome = join(home, 'project');
    mkdirSync(insideHome, { recursive: true });
    const underHome = await correx(home, ['run', 'x', '--workspace', insideHome], world.env);
    expect(underHome.code).toBe(2);
    expect(underHome.stderr).toContain(
      `is inside ${home}, which correx keeps out of the agent's reach`,
    );
    writeFileSync(
      join(home, 'harness.yaml'),
      'mode: auto\nmodels:\n  - id: broken\n    provider: nowhere\n',
    );
    try {
      const broken = await correx(home, ['run', 'x', '--workspace', dir], world.env);
      expect(broken.code).toBe(2);
      expect(broken.stderr).toMatch(/harness\.yaml:\d+/);
    } finally {
      writeFileSync(join(home, 'harness.yaml'), '');
    }
  }, 90_000);

  it.each([
    {
      server: 'a llama-server started without --jinja',
      status: 500,
      body: {
        error: { code: 500, message: 'tools param requires --jinja flag', type: 'server_error' },
      },
      sentence: /start llama-server with --jinja/,
    },
    {
      server: 'a server without the model',
      status: 404,
      body: {
        error: {
          message: 'The model `served-model` does not exist or you do not have access to it.',
          type: 'invalid_request_error',
          param: null,
          code: 'model_not_found',
        },
      },
      sentence: /no such model or endpoint \(HTTP 404\): check the profile's model name/,
    },
    {
      server: 'an endpoint without tool support',
      status: 400,
      body: {
        error: {
          message: 'registry.ollama.ai/library/gemma:2b does not support tools',
          type: 'api_error',
          param: null,
          code: null,
        },
      },
      sentence: /does not support tool calls/,
    },
  ])(
    'stops at once with exit 2 and one sentence for $server',
    async ({ status, body, sentence }) => {
      const server = await startFakeHttpServer();
      try {
        server.reply(json(status, body));
        const dir = workspace(`configuration-${status}`);
        const result = await correx(home, runArgs(dir, 'auto'), {
          OPENAI_BASE_URL: `${server.url}/v1`,
          CORREX_MODEL: 'served-model',
        });
        expect(result.code).toBe(2);
        expect(result.stderr).toMatch(sentence);
        expect(result.stderr.trim().split('\n')).toHaveLength(1);
        // No retries: the server was asked once.
        expect(server.requests).toHaveLength(1);
      } finally {
        await server.close();
      }
    },
  );
});

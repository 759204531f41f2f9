import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { json, startFakeHttpServer } from '../providers/fake-http-server.js';
import { writeThenFinish } from '../support/model-turns.js';
import { WRITE_ONCE_WORKFLOW } from '../support/write-once-workflow.js';
import { tempDir } from '../support/temp-dir.js';
import { correx } from './cli-process.js';

const WORKFLOW = `id: retried
initialStage: implement
stages:
  - id: implement
    role: implementer
    instructions: Change the workspace as the task says.
    allowedTools: [read_file]
    capabilities: [tool_calling]
    retry: { maxAttempts: 2, retryOn: [provider], providerWaitMs: 2500 }
    artifact:
      kind: change
      schema: { type: object }
    transitions:
      - when: { on: success }
        end: completed
      - when: { on: failure }
        end: failed
`;

type Envelope = { timestamp: string; payload: { type: string; delayMs?: number } };

/** Issue #21: a run against a server that is down failed three times 100 ms apart. */
describe('correx run against a model server that refuses connections', () => {
  const root = realpathSync(tempDir('correx-backoff-test-'));
  const home = join(root, 'home');
  const workflowFile = join(root, 'retried.yaml');
  let downUrl: string;

  beforeAll(async () => {
    mkdirSync(home, { recursive: true });
    writeFileSync(workflowFile, WORKFLOW);
    const gone = await startFakeHttpServer();
    downUrl = `${gone.url}/v1`;
    await gone.close();
  });

  it('waits longer before each new attempt, each wait recorded, and the replay matches', async () => {
    const dir = join(root, 'work');
    mkdirSync(dir, { recursive: true });
    const run = await correx(
      home,
      ['run', 'anything', '--workspace', dir, '--workflow', workflowFile, '--mode', 'auto'],
      { OPENAI_BASE_URL: downUrl, CORREX_MODEL: 'served-model' },
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/✗ model call failed \(provider_down\)/);
    expect(run.stdout).toMatch(/… waiting \d+\.\ds before the next model call/);
    const sessionId = /^session (\S+)$/m.exec(run.stdout)![1]!;

    const events = (await correx(home, ['events', sessionId, '--json'])).stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Envelope);
    const requested = events
      .filter((event) => event.payload.type === 'inference_requested')
      .map((event) => Date.parse(event.timestamp));
    const failed = events
      .filter((event) => event.payload.type === 'inference_failed')
      .map((event) => Date.parse(event.timestamp));
    const delays = events
      .filter((event) => event.payload.type === 'retry_delay_started')
      .map((event) => event.payload.delayMs!);
    // Each attempt makes its call again after each wait until its waits would pass the
    // workflow's bound (2.5 s); then the attempt fails, and the one retry of the stage does the same.
    const attempts = events.filter((event) => event.payload.type === 'stage_failed');
    expect(attempts).toHaveLength(2);
    expect(requested.length).toBeGreaterThanOrEqual(4);
    expect(failed).toHaveLength(requested.length);
    expect(run.stdout).toMatch(/still failing after \d+ retr(y|ies) over \d+ s of waits/);
    // A wait before each new call, each at least as long as the one before (doubling with
    // jitter in its upper half), the last longer than the first.
    expect(delays.length).toBeGreaterThanOrEqual(requested.length - 1);
    for (let index = 1; index < delays.length; index++)
      expect(delays[index]).toBeGreaterThanOrEqual(delays[index - 1]!);
    expect(delays.at(-1)).toBeGreaterThan(delays[0]!);
    // Each new call started no sooner than its wait after the failure before it.
    for (let index = 1; index < requested.length; index++)
      expect(requested[index]! - failed[index - 1]!).toBeGreaterThanOrEqual(delays[index - 1]!);

    const replay = await correx(home, ['replay', sessionId, '--verify']);
    expect(replay.stdout).toContain('identical');
  });
});

/** Issue #37: a model server still loading (llama-server answers 503) ended the run in a second. */
describe('correx run against a model server that answers 503 for a while, then recovers', () => {
  it('waits with growing recorded waits, honours Retry-After, spends no stage attempt, and completes', async () => {
    const root = realpathSync(tempDir('correx-loading-test-'));
    const home = join(root, 'home');
    const workspace = join(root, 'work');
    mkdirSync(home, { recursive: true });
    mkdirSync(workspace, { recursive: true });
    writeFileSync(join(root, 'write-once.yaml'), WRITE_ONCE_WORKFLOW);
    const model = await startFakeHttpServer();
    const loading = json(503, {
      error: { code: 503, message: 'Loading model', type: 'unavailable_error' },
    });
    // The server recovers after refusing four calls (counted, not timed); the third refusal
    // asks for a second's wait itself.
    model.reply(
      loading,
      loading,
      json(
        503,
        { error: { code: 503, message: 'Loading model', type: 'unavailable_error' } },
        { 'retry-after': '1' },
      ),
      loading,
      ...writeThenFinish('hello.txt', 'hello\n'),
    );
    try {
      const run = await correx(
        home,
        [
          'run',
          'write hello.txt',
          '--workspace',
          workspace,
          '--workflow',
          join(root, 'write-once.yaml'),
          '--mode',
          'auto',
        ],
        { OPENAI_BASE_URL: `${model.url}/v1`, CORREX_MODEL: 'served-model' },
      );
      expect(run.stderr).not.toMatch(/Error|at .*\.js:\d+/);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/✗ model call failed \(provider_down\): .*HTTP 503/);
      expect(run.stdout).toMatch(/… waiting \d+\.\ds before the next model call/);
      const sessionId = /^session (\S+)$/m.exec(run.stdout)![1]!;
      const events = (await correx(home, ['events', sessionId, '--json'])).stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Envelope);
      const types = events.map((event) => event.payload.type);
      const count = (type: string) => types.filter((name) => name === type).length;
      expect(count('inference_failed')).toBe(4);
      expect(count('inference_requested')).toBe(6);
      // No stage attempt was spent: one stage start, no stage failure.
      expect(count('stage_started')).toBe(1);
      expect(count('stage_failed')).toBe(0);
      expect(types.at(-1)).toBe('workflow_completed');
      const delays = events
        .filter((event) => event.payload.type === 'retry_delay_started')
        .map((event) => event.payload.delayMs!);
      expect(delays).toHaveLength(4);
      // Growing waits; the server's own Retry-After (1 s) is the least the third one waits.
      expect(delays[1]).toBeGreaterThanOrEqual(delays[0]!);
      expect(delays[2]).toBeGreaterThanOrEqual(1000);
      expect(delays[3]).toBeGreaterThanOrEqual(delays[1]!);
      expect(count('retry_delay_elapsed')).toBe(4);
      expect(readFileSync(join(workspace, 'hello.txt'), 'utf8')).toBe('hello\n');
      const replay = await correx(home, ['replay', sessionId, '--verify']);
      expect(replay.stdout).toContain('identical');
    } finally {
      await model.close();
    }
  });
});

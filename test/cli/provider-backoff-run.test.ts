import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { startFakeHttpServer } from '../providers/fake-http-server.js';
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
    retry: { maxAttempts: 4, retryOn: [provider] }
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
    expect(requested).toHaveLength(4);
    expect(failed).toHaveLength(4);
    // A wait before each of the three retries, each at least as long as the one before, the
    // last longer than the first (doubling with jitter in its upper half).
    expect(delays).toHaveLength(3);
    for (let index = 1; index < delays.length; index++)
      expect(delays[index]).toBeGreaterThanOrEqual(delays[index - 1]!);
    expect(delays.at(-1)).toBeGreaterThan(delays[0]!);
    // Each retry started no sooner than its wait after the failure before it.
    for (let index = 1; index < requested.length; index++)
      expect(requested[index]! - failed[index - 1]!).toBeGreaterThanOrEqual(delays[index - 1]!);

    const replay = await correx(home, ['replay', sessionId, '--verify']);
    expect(replay.stdout).toContain('identical');
  });
});

import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp-dir.js';
import { writeTinyGguf } from '../support/tiny-gguf.js';
import { correx, startCorrex } from './cli-process.js';

/*
 * `correx run` end to end on an in-process GGUF model that the test writes itself (random
 * weights, a byte vocabulary, a ChatML template) through node-llama-cpp's prebuilt binary. The
 * model is nonsense; the grammar makes its only possible answer a well-formed call of the
 * finishing tool, whose artifact the schema then accepts.
 */
const nodeLlamaCpp = await import('node-llama-cpp').catch(() => undefined);
const binary = await nodeLlamaCpp
  ?.getLlama({ gpu: false, build: 'never', progressLogs: false })
  .then(async (llama) => (await llama.dispose(), true))
  .catch((error: unknown) => {
    console.warn(`node-llama-cpp's prebuilt binary did not load: ${String(error)}`);
    return false;
  });
const available = binary === true;

const WORKFLOW = `id: say-done
initialStage: answer
stages:
  - id: answer
    role: answerer
    instructions: Say that the task is done.
    allowedTools: []
    capabilities: [tool_calling]
    artifact:
      kind: note
      schema:
        type: object
        properties:
          status: { enum: [done] }
        required: [status]
        additionalProperties: false
    transitions:
      - when: { on: success }
        end: completed
      - when: { on: failure }
        end: failed
`;

it.runIf(!available && process.env.CI === 'true')('has node-llama-cpp under CI', () => {
  expect.fail('node-llama-cpp or its prebuilt @node-llama-cpp/* binary is missing under CI=true');
});

/** A stage whose answer the grammar forces to be long (64 strings of at least 64 characters). */
const ENDLESS = WORKFLOW.replace('id: say-done', 'id: endless').replace(
  'status: { enum: [done] }',
  'status: { type: array, minItems: 64, items: { type: string, minLength: 64 } }',
);

function setup(maxOutputTokens: number) {
  const root = realpathSync(tempDir('correx-local-model-'));
  const home = join(root, 'home');
  const workspace = join(root, 'workspace');
  mkdirSync(home, { recursive: true });
  mkdirSync(workspace, { recursive: true });
  const model = join(root, 'tiny.gguf');
  writeTinyGguf(model);
  writeFileSync(join(root, 'say-done.yaml'), WORKFLOW);
  writeFileSync(join(root, 'endless.yaml'), ENDLESS);
  writeFileSync(
    join(home, 'harness.yaml'),
    [
      'mode: auto',
      'providers:',
      '  local:',
      '    kind: llama-cpp',
      `    modelPath: ${model}`,
      '    gpu: false',
      '    threads: 1',
      '    contextSize: 16384',
      'models:',
      '  - id: tiny',
      '    provider: local',
      '    model: tiny',
      '    capabilities: [tool_calling]',
      '    contextWindow: 16384',
      `    maxOutputTokens: ${maxOutputTokens}`,
      '',
    ].join('\n'),
  );
  return { root, home, workspace };
}

describe.skipIf(!available)('correx run on a local GGUF model', () => {
  it('stops a running local generation on Ctrl-C, with no event after workflow_cancelled', async () => {
    const { root, home, workspace } = setup(12000);
    const running = startCorrex(home, [
      'run',
      'write forever',
      '--workspace',
      workspace,
      '--workflow',
      join(root, 'endless.yaml'),
    ]);
    const [, sessionId] = await running.waitFor(/^session (\S+)$/m);
    // The session first detects the project's checks and checks the brief: the stage's model
    // call starts after those steps (a Ctrl-C before it would pause ahead of the generation).
    await running.waitFor(/^▶ stage answer \(attempt 1\)$/m);
    // Ctrl-C twice while the model generates: pause after this step, then cancel it (the
    // second once the first is acknowledged: the OS merges signals sent back to back).
    running.child.kill('SIGINT');
    while (!running.output().includes('pausing after the current step'))
      await new Promise((resolve) => setTimeout(resolve, 20));
    running.child.kill('SIGINT');
    const result = await running.exited;
    expect(result.stdout).toContain(`session ${sessionId} cancelled`);
    const events = await correx(home, ['events', sessionId!, '--json']);
    const types = events.stdout
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { payload: { type: string } }).payload.type);
    expect(types.at(-1)).toBe('workflow_cancelled');
    expect(types.filter((type) => type === 'workflow_cancelled')).toHaveLength(1);
    // The cancel cut a generation short: its request has no result recorded, before or after.
    const lastRequest = types.lastIndexOf('inference_requested');
    expect(lastRequest).toBeGreaterThan(-1);
    expect(types.slice(lastRequest)).not.toContain('inference_completed');
    expect(types.slice(lastRequest)).not.toContain('inference_failed');
    const replay = await correx(home, ['replay', sessionId!, '--verify']);
    expect(replay.code).toBe(0);
  });

  it('finishes the stage with a grammar-constrained finishing call, and replays identically', async () => {
    const root = realpathSync(tempDir('correx-local-model-'));
    const home = join(root, 'home');
    const workspace = join(root, 'workspace');
    mkdirSync(home, { recursive: true });
    mkdirSync(workspace, { recursive: true });
    const model = join(root, 'tiny.gguf');
    writeTinyGguf(model);
    writeFileSync(join(root, 'say-done.yaml'), WORKFLOW);
    writeFileSync(
      join(home, 'harness.yaml'),
      [
        'mode: auto',
        'providers:',
        '  local:',
        '    kind: llama-cpp',
        `    modelPath: ${model}`,
        '    gpu: false',
        '    threads: 1',
        '    contextSize: 2048',
        'models:',
        '  - id: tiny',
        '    provider: local',
        '    model: tiny',
        '    capabilities: [tool_calling]',
        '    contextWindow: 2048',
        '    maxOutputTokens: 200',
        '',
      ].join('\n'),
    );
    const result = await correx(home, [
      'run',
      'say done',
      '--workspace',
      workspace,
      '--workflow',
      join(root, 'say-done.yaml'),
    ]);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('✓ workflow completed');
    expect(result.code).toBe(0);
    const sessionId = /^session (\S+)$/m.exec(result.stdout)![1]!;
    const events = await correx(home, ['events', sessionId, '--json']);
    expect(events.code).toBe(0);
    // The model's answer was a call of the finishing tool, its arguments the artifact.
    expect(events.stdout).toContain('finish_note');
    const replay = await correx(home, ['replay', sessionId, '--verify']);
    expect(replay.stdout).toContain('identical');
    expect(replay.code).toBe(0);
  });
});

import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp-dir.js';
import { writeTinyGguf } from '../support/tiny-gguf.js';
import { correx } from './cli-process.js';

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

describe.skipIf(!available)('correx run on a local GGUF model', () => {
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

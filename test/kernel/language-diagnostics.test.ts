import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { replaySession, runSession } from '../../src/core/kernel/index.js';
import {
  ChangeArtifactSchema,
  ReviewArtifactSchema,
  VerificationArtifactSchema,
} from '../../src/core/transitions/default-coding-workflow.js';
import { parseWorkflow } from '../../src/core/transitions/workflow.js';
import { createTypeScriptLanguageDiagnostics } from '../../src/infrastructure/lsp/typescript-language-diagnostics.js';
import type { ScriptedTurn } from '../../src/infrastructure/providers/scripted-provider.js';
import {
  closeStoresAfterEach,
  eventsOf,
  livePorts,
  newClock,
  newIds,
  openStore,
  scenarioConfig,
  scenarioWorkspace,
  scriptedModel,
} from './kernel-harness.js';

const stores = closeStoresAfterEach();

const artifact = (kind: string, schema: z.ZodType) => ({ kind, schema: z.toJSONSchema(schema) });

/** implement → verify → review; a failed verify goes back to implement once. */
const workflow = parseWorkflow(
  {
    id: 'implement-verify-review',
    initialStage: 'implement',
    stages: [
      {
        id: 'implement',
        role: 'implementer',
        instructions: 'Change the workspace.',
        allowedTools: ['read_file', 'write_file'],
        capabilities: ['tool_calling'],
        artifact: artifact('change', ChangeArtifactSchema),
        transitions: [
          { when: { on: 'success' }, to: 'verify' },
          { when: { on: 'failure' }, end: 'failed' },
        ],
      },
      {
        id: 'verify',
        role: 'verifier',
        instructions: 'Verify the change.',
        allowedTools: ['read_file'],
        capabilities: ['tool_calling'],
        artifact: artifact('verification', VerificationArtifactSchema),
        transitions: [
          { when: { on: 'success' }, to: 'review' },
          {
            when: { on: 'failure', categories: ['validation'] },
            to: 'implement',
            maxTraversals: 1,
          },
          { when: { on: 'failure' }, end: 'failed' },
        ],
      },
      {
        id: 'review',
        role: 'reviewer',
        instructions: 'Review the change.',
        allowedTools: ['read_file'],
        capabilities: ['tool_calling'],
        artifact: artifact('review', ReviewArtifactSchema),
        verdicts: ['approved', 'rework'],
        transitions: [
          { when: { on: 'verdict', verdict: 'approved' }, end: 'completed' },
          { when: { on: 'verdict', verdict: 'rework' }, end: 'failed' },
          { when: { on: 'failure' }, end: 'failed' },
        ],
      },
    ],
  },
  { source: 'language-diagnostics.test' },
);

const write = (body: string): ScriptedTurn => ({
  toolCalls: [{ name: 'write_file', args: { path: 'src/greet.ts', content: body } }],
});
const changed: ScriptedTurn = {
  text: JSON.stringify({ summary: 'wrote greet', filesChanged: ['src/greet.ts'] }),
};
const passed: ScriptedTurn = { text: JSON.stringify({ summary: 'looks right', passed: true }) };
const approves: ScriptedTurn = {
  text: JSON.stringify({ verdict: 'approved', reviewedArtifact: '{{artifact:change}}', notes: [] }),
};

describe('language server diagnostics before verify and review', () => {
  it('fails the verify on a type error the model wrote, shows it, and completes once fixed; replay needs no server', async () => {
    const { workspace, storePath } = scenarioWorkspace({
      'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, noEmit: true } }),
    });
    const store = openStore(storePath);
    stores.push(store);
    const config = scenarioConfig({ workflow });
    const model = scriptedModel([
      write('export const greet = (): string => 42;\n'),
      changed,
      passed,
      write("export const greet = (): string => 'hello';\n"),
      changed,
      passed,
      approves,
    ]);
    const diagnostics = createTypeScriptLanguageDiagnostics({
      homeDirectory: realpathSync(homedir()),
    });
    const outcome = await runSession(
      {
        store,
        sessionId: 's-lsp',
        config,
        ports: { ...livePorts(model), diagnostics },
        clock: newClock(),
        ids: newIds(),
      },
      { type: 'start', task: 'add greet', workspace, workflowId: workflow.id, mode: 'auto' },
    );
    // One server served all three checks (it is kept per session); the session's end stops it.
    await diagnostics.close();
    const events = await eventsOf(store, 's-lsp');
    expect(outcome.status).toBe('completed');
    const recorded = events.filter((e) => e.payload.type === 'language_diagnostics_recorded');
    expect(recorded.map((e) => e.payload)).toMatchObject([
      {
        stageId: 'verify',
        attempt: 1,
        error: null,
        files: [
          {
            path: `${workspace}/src/greet.ts`,
            diagnostics: [{ line: 1, severity: 'error', code: '2322' }],
          },
        ],
      },
      { stageId: 'verify', files: [{ path: `${workspace}/src/greet.ts`, diagnostics: [] }] },
      { stageId: 'review', files: [{ diagnostics: [] }] },
    ]);
    const failed = events.find((e) => e.payload.type === 'stage_failed')!.payload as {
      stageId: string;
      message: string;
    };
    expect(failed.stageId).toBe('verify');
    expect(failed.message).toContain(`(event #${recorded[0]!.sequence})`);
    expect(failed.message).toContain('src/greet.ts:1:');
    expect(failed.message).toContain(
      "error TS2322: Type 'number' is not assignable to type 'string'.",
    );
    // The implementer's next pack shows the diagnostic it must fix.
    expect(model.request(3)).toContain('error TS2322');
    // Replay reads the recorded diagnostics: no ports, no language server.
    const report = await replaySession(store, 's-lsp', config);
    expect(report).toMatchObject({ ok: true, undecidedInput: false });
  }, 120_000);

  it('asks no language server when the session changed no TypeScript or JavaScript file', async () => {
    const { workspace, storePath } = scenarioWorkspace({
      'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, noEmit: true } }),
    });
    const store = openStore(storePath);
    stores.push(store);
    const config = scenarioConfig({ workflow });
    const model = scriptedModel([
      { toolCalls: [{ name: 'write_file', args: { path: 'README.md', content: '# greet\n' } }] },
      { text: JSON.stringify({ summary: 'wrote the readme', filesChanged: ['README.md'] }) },
      passed,
      approves,
    ]);
    const asked: string[][] = [];
    const outcome = await runSession(
      {
        store,
        sessionId: 's-md',
        config,
        ports: {
          ...livePorts(model),
          diagnostics: {
            diagnose: (request) => {
              asked.push([...request.files]);
              return Promise.reject(new Error('no language server for a Markdown change'));
            },
          },
        },
        clock: newClock(),
        ids: newIds(),
      },
      { type: 'start', task: 'write the readme', workspace, workflowId: workflow.id, mode: 'auto' },
    );
    expect(outcome.status).toBe('completed');
    expect(asked).toEqual([]);
    const events = await eventsOf(store, 's-md');
    expect(events.some((e) => e.payload.type === 'language_diagnostics_recorded')).toBe(false);
  }, 60_000);
});

import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InferenceError } from '../../src/core/inference/inference-failure.js';
import type { InferenceProvider } from '../../src/core/inference/inference-provider.js';
import { UNVERSIONED_BEHAVIOUR } from '../../src/core/kernel/config/behaviour.js';
import type { KernelBehaviour } from '../../src/core/kernel/config/behaviour.js';
import { runSession, startSession, type SessionRun } from '../../src/core/kernel/index.js';
import type { CorrexEvent } from '../../src/core/event-catalog.js';
import {
  ChangeArtifactSchema,
  ReviewArtifactSchema,
  VerificationArtifactSchema,
} from '../../src/core/transitions/default-coding-workflow.js';
import { parseWorkflow } from '../../src/core/transitions/workflow.js';
import type { ChecksConfig } from '../../src/core/validation/project-check.js';
import type { ScriptedTurn } from '../../src/infrastructure/providers/scripted-provider.js';
import { createProcessStaticAnalysisRunner } from '../../src/infrastructure/kernel/process-static-analysis-runner.js';
import {
  closeStoresAfterEach,
  eventsOf,
  expectReplayIdentical,
  livePorts,
  newClock,
  newIds,
  openStore,
  scenarioConfig,
  scenarioWorkspace,
  scriptedModel,
  typesOf,
} from './kernel-harness.js';

/*
 * Evidence, not claims (issue 18): a session says "completed" only when the log shows the work
 * done. Each case below completed before `checks-by-default`, `verdict-from-evidence` and
 * `claims-against-log`; the unflagged runs show the old behaviour is still what old sessions get.
 */

const stores = closeStoresAfterEach();

const artifact = (kind: string, schema: z.ZodType) => ({ kind, schema: z.toJSONSchema(schema) });

/** implement → verify → review, ending failed on any failure (no rework loops to script). */
const workflow = parseWorkflow(
  {
    id: 'implement-verify-review',
    initialStage: 'implement',
    stages: [
      {
        id: 'implement',
        role: 'implementer',
        instructions: 'Change the workspace.',
        allowedTools: ['read_file', 'write_file', 'edit_file', 'exec'],
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
        allowedTools: ['read_file', 'exec'],
        capabilities: ['tool_calling'],
        artifact: artifact('verification', VerificationArtifactSchema),
        transitions: [
          { when: { on: 'success' }, to: 'review' },
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
  { source: 'evidence.test' },
);

// A project whose test fails until greet.js says hello.
const PROJECT = {
  'package.json': JSON.stringify({
    name: 'greet',
    private: true,
    scripts: { test: 'node --test' },
  }),
  'greet.test.js':
    "const test = require('node:test');\nconst assert = require('node:assert');\ntest('greets', () => assert.strictEqual(require('./greet.js')(), 'hello'));\n",
  'greet.js': "module.exports = () => 'helo';\n",
};

const writeGreet = (text: string): ScriptedTurn => ({
  toolCalls: [
    { name: 'read_file', args: { path: 'greet.js' } },
    {
      name: 'write_file',
      args: { path: 'greet.js', content: `module.exports = () => '${text}';\n` },
    },
  ],
});
const changed: ScriptedTurn = {
  text: JSON.stringify({ summary: 'fixed greet', filesChanged: ['greet.js'] }),
};
const runTests: ScriptedTurn = {
  toolCalls: [{ name: 'exec', args: { argv: ['node', '--test'] } }],
};
const claimsPassed: ScriptedTurn = {
  text: JSON.stringify({ summary: 'all tests pass', passed: true }),
};
const approves: ScriptedTurn = {
  text: JSON.stringify({ verdict: 'approved', reviewedArtifact: '{{artifact:change}}', notes: [] }),
};

function analysis() {
  return createProcessStaticAnalysisRunner({ homeDirectory: realpathSync(homedir()) });
}

async function scenario(
  sessionId: string,
  turns: readonly ScriptedTurn[],
  options: {
    files?: Record<string, string>;
    behaviour?: KernelBehaviour;
    checks?: ChecksConfig;
  } = {},
) {
  const { workspace, storePath } = scenarioWorkspace(options.files ?? PROJECT);
  const store = openStore(storePath);
  stores.push(store);
  const config = scenarioConfig({
    workflow,
    ...(options.behaviour === undefined ? {} : { behaviour: options.behaviour }),
    ...(options.checks === undefined ? {} : { checks: options.checks }),
  });
  const model = scriptedModel(turns);
  const outcome = await runSession(
    {
      store,
      sessionId,
      config,
      ports: { ...livePorts(model), analysis: analysis() },
      clock: newClock(),
      ids: newIds(),
    },
    {
      type: 'start',
      task: 'make greet say hello',
      workspace,
      workflowId: workflow.id,
      mode: 'auto',
    },
  );
  return { store, config, outcome, model, events: await eventsOf(store, sessionId) };
}

function payloads<T extends CorrexEvent['payload']['type']>(
  events: readonly CorrexEvent[],
  type: T,
) {
  return events
    .filter((event) => event.payload.type === type)
    .map((event) => ({
      ...(event.payload as Extract<CorrexEvent['payload'], { type: T }>),
      sequence: event.sequence,
    }));
}

describe('verification a model cannot talk past', () => {
  it('records the project checks at session start, before the first stage', async () => {
    const { store, config, events, model } = await scenario('s-detect', [
      writeGreet('hello'),
      changed,
      runTests,
      claimsPassed,
      approves,
    ]);
    const types = typesOf(events);
    expect(types.indexOf('project_checks_detected')).toBeLessThan(types.indexOf('stage_started'));
    expect(payloads(events, 'project_checks_detected')[0]).toMatchObject({
      checks: [{ name: 'test', command: 'npm test', source: 'package.json' }],
    });
    // Required checks ran in verify and again in review; both passed on the fixed file.
    expect(payloads(events, 'dod_check_ran').map((c) => [c.stageId, c.name, c.exitCode])).toEqual([
      ['verify', 'test', 0],
      ['review', 'test', 0],
    ]);
    const completed = payloads(events, 'workflow_completed')[0]!;
    const review = payloads(events, 'dod_check_ran')[1]!;
    expect(completed.summary).toBe(`checks: test passed (event #${review.sequence})`);
    // The reviewer reads the log's facts: the check results and the recorded change itself.
    const verifyCheck = payloads(events, 'dod_check_ran')[0]!;
    const reviewPack = model.request(4);
    expect(reviewPack).toContain(
      `check \`test\` (npm test) in stage verify: passed (event #${verifyCheck.sequence})`,
    );
    expect(reviewPack).toContain('+++ greet.js (whole file)');
    expect(reviewPack).toContain("+module.exports = () => 'hello';");
    await expectReplayIdentical(store, 's-detect', config);
  });

  it('fails a verify whose model claims passed: true over a failing test', async () => {
    const turns = [writeGreet('hullo'), changed, runTests, claimsPassed, approves];
    const { store, config, outcome, events } = await scenario('s-claim', turns);
    expect(outcome.status).toBe('failed');
    const check = payloads(events, 'dod_check_ran')[0]!;
    expect(check).toMatchObject({ stageId: 'verify', name: 'test', outcome: 'completed' });
    expect(check.exitCode).not.toBe(0);
    const failed = payloads(events, 'stage_failed')[0]!;
    expect(failed).toMatchObject({ stageId: 'verify', category: 'validation' });
    expect(failed.message).toContain(`check \`test\` (npm test) failed (event #${check.sequence})`);
    expect(payloads(events, 'stage_completed').map((s) => s.stageId)).toEqual(['implement']);
    const workflowFailed = payloads(events, 'workflow_failed')[0]!;
    expect(workflowFailed.message).toContain('check `test` (npm test) failed');
    await expectReplayIdentical(store, 's-claim', config);

    // Recorded before the flags, the same session completed on the model's word.
    const old = await scenario('s-claim-old', turns, { behaviour: UNVERSIONED_BEHAVIOUR });
    expect(old.outcome.status).toBe('completed');
  });

  it('fails a verify that claims passed although the command it ran failed, citing the receipt', async () => {
    // No project files: no detected check; the exec receipt is the evidence.
    const files = {
      'greet.js': PROJECT['greet.js'],
      'check.js': "process.exit(require('./greet.js')() === 'hello' ? 0 : 1);\n",
    };
    const exec: ScriptedTurn = {
      toolCalls: [{ name: 'exec', args: { argv: ['node', 'check.js'] } }],
    };
    const { store, config, outcome, events } = await scenario(
      's-exec-claim',
      [writeGreet('hullo'), changed, exec, claimsPassed, approves],
      { files },
    );
    expect(outcome.status).toBe('failed');
    const receipt = payloads(events, 'tool_receipt').find((r) => r.tool === 'exec')!;
    expect(receipt.exitCode).toBe(1);
    const failed = payloads(events, 'stage_failed')[0]!;
    expect(failed.stageId).toBe('verify');
    expect(failed.message).toContain('claims passed, but the recorded evidence says otherwise');
    expect(failed.message).toContain(`\`node check.js\` exited 1 (event #${receipt.sequence})`);
    await expectReplayIdentical(store, 's-exec-claim', config);
  });

  it('a verify that reports passed: false fails instead of going on to review', async () => {
    const { outcome, events } = await scenario(
      's-says-failed',
      [
        writeGreet('hello'),
        changed,
        { text: JSON.stringify({ summary: 'greet is wrong', passed: false }) },
      ],
      { files: { 'greet.js': PROJECT['greet.js'] } },
    );
    expect(outcome.status).toBe('failed');
    expect(payloads(events, 'stage_failed')[0]?.message).toContain('greet is wrong');
  });

  it('fails a workflow whose redirect skipped the fix, naming the failing check', async () => {
    const { workspace, storePath } = scenarioWorkspace(PROJECT);
    const store = openStore(storePath);
    stores.push(store);
    const config = scenarioConfig({ workflow });
    const model = scriptedModel([claimsPassed, approves]);
    let calls = 0;
    // The implementer's first call hangs; an operator redirects to verify, skipping the fix.
    const provider: InferenceProvider = {
      name: 'scripted',
      infer: (request, signal) => {
        calls += 1;
        if (calls > 1) return model.infer(request, signal);
        return new Promise((_resolve, reject) => {
          signal?.addEventListener('abort', () =>
            reject(
              new InferenceError({
                category: 'cancelled',
                provider: 'scripted',
                message: 'aborted',
              }),
            ),
          );
          void run.redirect('verify', 'olga', 'tests are fine, skip ahead');
        });
      },
    };
    const run: SessionRun = startSession(
      {
        store,
        sessionId: 's-redirect',
        config,
        ports: { ...livePorts(provider), analysis: analysis() },
        clock: newClock(),
        ids: newIds(),
      },
      {
        type: 'start',
        task: 'make greet say hello',
        workspace,
        workflowId: workflow.id,
        mode: 'auto',
      },
    );
    const outcome = await run.done;
    const events = await eventsOf(store, 's-redirect');
    expect(typesOf(events)).toContain('stage_redirected');
    expect(outcome.status).toBe('failed');
    expect(typesOf(events)).not.toContain('workflow_completed');
    expect(payloads(events, 'workflow_failed')[0]?.message).toContain(
      'check `test` (npm test) failed',
    );
    await expectReplayIdentical(store, 's-redirect', config);
  });

  it('flags a filesChanged that names a write that was denied, with the denial', async () => {
    const denied: ScriptedTurn = {
      toolCalls: [{ name: 'write_file', args: { path: '../CHANGELOG.md', content: '- fixed\n' } }],
    };
    const lies: ScriptedTurn = {
      text: JSON.stringify({
        summary: 'fixed and logged',
        filesChanged: ['greet.js', '../CHANGELOG.md'],
      }),
    };
    const { store, config, outcome, events } = await scenario('s-denied', [
      writeGreet('hello'),
      denied,
      // Every attempt the workflow allows ends on the same claim.
      ...Array.from({ length: 30 }, () => lies),
    ]);
    expect(outcome.status).toBe('failed');
    expect(typesOf(events)).not.toContain('workflow_completed');
    const denial = payloads(events, 'approval_denied')[0]!;
    const flagged = payloads(events, 'validation_failed')[0]!;
    expect(flagged).toMatchObject({ stageId: 'implement', validator: 'claims-against-log' });
    expect(flagged.message).toContain(`\`../CHANGELOG.md\`: its write was denied`);
    expect(flagged.message).toContain(`event #${denial.sequence}`);
    expect(flagged.message).not.toContain('`greet.js`');
    await expectReplayIdentical(store, 's-denied', config);
  });

  it('completes with only advisory checks failing, and lists the failures', async () => {
    const checks: ChecksConfig = {
      detect: true,
      add: [{ name: 'style', command: 'node -e "process.exit(3)"', advisory: true }],
      advisory: [],
    };
    const { store, config, outcome, events } = await scenario(
      's-advisory',
      [writeGreet('hello'), changed, claimsPassed, approves],
      { checks },
    );
    expect(outcome.status).toBe('completed');
    const runs = payloads(events, 'dod_check_ran');
    expect(runs.map((c) => [c.stageId, c.name, c.exitCode])).toEqual([
      ['verify', 'test', 0],
      ['verify', 'style', 3],
      ['review', 'test', 0],
      ['review', 'style', 3],
    ]);
    expect(payloads(events, 'workflow_completed')[0]?.summary).toBe(
      `checks: test passed (event #${runs[2]!.sequence}); style failed (exit 3) (event #${runs[3]!.sequence}); 1 not passing, not required`,
    );
    await expectReplayIdentical(store, 's-advisory', config);
  });

  it('replaces a detected check by name from harness.yaml, and fails naming it', async () => {
    const checks: ChecksConfig = {
      detect: true,
      add: [{ name: 'test', command: 'node --test greet.test.js', advisory: false }],
      advisory: [],
    };
    const { outcome, events } = await scenario(
      's-replaced',
      [writeGreet('hullo'), changed, claimsPassed],
      { checks },
    );
    expect(outcome.status).toBe('failed');
    expect(payloads(events, 'dod_check_ran').map((c) => c.command)).toEqual([
      'node --test greet.test.js',
    ]);
    expect(payloads(events, 'workflow_failed')[0]?.message).toContain(
      'check `test` (node --test greet.test.js) failed',
    );
  });
});

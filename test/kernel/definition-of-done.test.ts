import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { KernelWiringError, runSession } from '../../src/core/kernel/runner/run-session.js';
import { createProcessStaticAnalysisRunner } from '../../src/infrastructure/kernel/process-static-analysis-runner.js';
import {
  eventsOf,
  expectReplayIdentical,
  implementOnlyWorkflow,
  livePorts,
  newClock,
  newIds,
  openStore,
  scenarioConfig,
  scenarioWorkspace,
  scriptedModel,
  closeStoresAfterEach,
} from './kernel-harness.js';

const stores = closeStoresAfterEach();

// A linter with one problem that was there before the session (other.js) and one the model may add.
const LINT_JS = `const fs = require('fs');
const lines = ['other.js:3:1: error: old problem'];
if (fs.readFileSync('greet.js', 'utf8').includes('bad')) lines.push('greet.js:1:1: error: says bad');
console.log(lines.join('\\n'));
process.exit(1);
`;

async function run(sessionId: string, content: string, wired = true) {
  const { workspace, storePath } = scenarioWorkspace({ 'lint.js': LINT_JS, 'other.js': 'x\n' });
  const store = openStore(storePath);
  stores.push(store);
  const config = scenarioConfig({
    workflow: implementOnlyWorkflow(1, { checks: [{ name: 'lint', command: 'node lint.js' }] }),
  });
  const model = scriptedModel([
    { toolCalls: [{ name: 'write_file', args: { path: 'greet.js', content } }] },
    { text: JSON.stringify({ summary: 'wrote greet.js', filesChanged: ['greet.js'] }) },
  ]);
  const ports = {
    ...livePorts(model),
    ...(wired
      ? { analysis: createProcessStaticAnalysisRunner({ homeDirectory: realpathSync(homedir()) }) }
      : {}),
  };
  const outcome = await runSession(
    { store, sessionId, config, ports, clock: newClock(), ids: newIds() },
    {
      type: 'start',
      task: 'write greet.js',
      workspace,
      workflowId: 'implement-only',
      mode: 'auto',
    },
  );
  return { store, config, outcome, events: await eventsOf(store, sessionId) };
}

describe('definition of done', () => {
  it('runs the checks after the artifact is accepted and ignores problems in files the session did not write', async () => {
    const { store, config, outcome, events } = await run('s-dod-pass', "console.log('good');\n");
    expect(outcome.status).toBe('completed');
    const check = events.find((event) => event.payload.type === 'dod_check_ran');
    expect(check?.payload).toMatchObject({ name: 'lint', outcome: 'completed', exitCode: 1 });
    expect((check?.payload as { output: string }).output).toContain(
      'other.js:3:1: error: old problem',
    );
    const types = events.map((event) => event.payload.type);
    expect(types.indexOf('artifact_accepted')).toBeLessThan(types.indexOf('dod_check_ran'));
    expect(types.indexOf('dod_check_ran')).toBeLessThan(types.indexOf('stage_completed'));
    await expectReplayIdentical(store, 's-dod-pass', config);
  });

  it('fails the stage on a diagnostic in a file the session wrote, and tells why', async () => {
    const { store, config, outcome, events } = await run('s-dod-fail', "console.log('bad');\n");
    expect(outcome.status).toBe('failed');
    const failed = events.find((event) => event.payload.type === 'stage_failed')?.payload as {
      category: string;
      message: string;
    };
    expect(failed.category).toBe('validation');
    expect(failed.message).toContain('greet.js:1: error: says bad');
    expect(failed.message).not.toContain('old problem');
    expect(events.map((event) => event.payload.type)).not.toContain('stage_completed');
    await expectReplayIdentical(store, 's-dod-fail', config);
  });

  it('names the missing port instead of skipping the checks', async () => {
    await expect(run('s-dod-unwired', "console.log('good');\n", false)).rejects.toThrow(
      KernelWiringError,
    );
  });
});

import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runSession } from '../../src/core/kernel/index.js';
import {
  ChangeArtifactSchema,
  ReviewArtifactSchema,
  VerificationArtifactSchema,
} from '../../src/core/transitions/default-coding-workflow.js';
import { parseWorkflow } from '../../src/core/transitions/workflow.js';
import { createProcessStaticAnalysisRunner } from '../../src/infrastructure/kernel/process-static-analysis-runner.js';
import type { ScriptedTurn } from '../../src/infrastructure/providers/scripted-provider.js';
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
} from './kernel-harness.js';

const stores = closeStoresAfterEach();
const artifact = (kind: string, schema: z.ZodType) => ({ kind, schema: z.toJSONSchema(schema) });

/** implement → verify → review, and one rework from review back to implement. */
const workflow = parseWorkflow(
  {
    id: 'review-rework',
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
          { when: { on: 'verdict', verdict: 'rework' }, to: 'implement', maxTraversals: 1 },
          { when: { on: 'verdict', verdict: 'rework' }, end: 'failed' },
          { when: { on: 'failure' }, end: 'failed' },
        ],
      },
    ],
  },
  { source: 'critique-outcomes.test' },
);

const PROJECT = {
  'package.json': JSON.stringify({ private: true, scripts: { test: 'node --test' } }),
  'greet.test.js':
    "const test = require('node:test');\ntest('loads', () => require('./greet.js'));\n",
  'greet.js': "module.exports = () => 'hi';\n",
  'README.md': '# greet\n',
};
const write = (path: string, content: string): ScriptedTurn => ({
  toolCalls: [
    { name: 'read_file', args: { path } },
    { name: 'write_file', args: { path, content } },
  ],
});
const changed = (path: string): ScriptedTurn => ({
  text: JSON.stringify({ summary: `changed ${path}`, filesChanged: [path] }),
});
const passed: ScriptedTurn = { text: JSON.stringify({ summary: 'ok', passed: true }) };

describe('critique outcomes', () => {
  it('records review findings with ids and, at the next review, whether the rework changed what they named', async () => {
    const { workspace, storePath } = scenarioWorkspace(PROJECT);
    const store = openStore(storePath);
    stores.push(store);
    const config = scenarioConfig({ workflow });
    const model = scriptedModel([
      write('greet.js', "module.exports = () => 'hello';\n"),
      changed('greet.js'),
      passed,
      {
        text: JSON.stringify({
          verdict: 'rework',
          reviewedArtifact: '{{artifact:change}}',
          notes: ['README.md does not mention greet()', 'greet.js should take a name'],
        }),
      },
      // The rework touches only the README: one finding addressed, one not.
      write('README.md', '# greet\n\n`greet()` says hello.\n'),
      changed('README.md'),
      passed,
      {
        text: JSON.stringify({
          verdict: 'approved',
          reviewedArtifact: '{{artifact:change}}',
          notes: [],
        }),
      },
    ]);
    const outcome = await runSession(
      {
        store,
        sessionId: 's-critique',
        config,
        ports: {
          ...livePorts(model),
          analysis: createProcessStaticAnalysisRunner({ homeDirectory: realpathSync(homedir()) }),
        },
        clock: newClock(),
        ids: newIds(),
      },
      { type: 'start', task: 'greet says hello', workspace, workflowId: workflow.id, mode: 'auto' },
    );
    expect(outcome.status).toBe('completed');
    const events = await eventsOf(store, 's-critique');
    const findings = events.find((e) => e.payload.type === 'review_findings_recorded')!.payload;
    expect(findings).toMatchObject({
      stageId: 'review',
      attempt: 1,
      findings: [
        {
          id: 'review.1',
          note: 'README.md does not mention greet()',
          paths: [`${workspace}/README.md`],
        },
        { id: 'review.2', note: 'greet.js should take a name', paths: [`${workspace}/greet.js`] },
      ],
    });
    const outcomes = events.filter((e) => e.payload.type === 'critique_outcomes_correlated');
    expect(outcomes.map((e) => e.payload)).toEqual([
      {
        type: 'critique_outcomes_correlated',
        stageId: 'review',
        attempt: 1,
        outcomes: [
          { id: 'review.1', changed: true, checksPassed: true },
          { id: 'review.2', changed: false, checksPassed: true },
        ],
      },
    ]);
    await expectReplayIdentical(store, 's-critique', config);
  }, 120_000);
});

import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { runSession } from '../../src/core/kernel/runner/run-session.js';
import { defineTool } from '../../src/core/tools/tool-contract.js';
import { ChangeArtifactSchema } from '../../src/core/transitions/default-coding-workflow.js';
import { parseWorkflow } from '../../src/core/transitions/workflow.js';
import type { InferenceProvider } from '../../src/core/inference/inference-provider.js';
import { createBuiltinToolRunner } from '../../src/infrastructure/kernel/builtin-tool-runner.js';
import { createBuiltinToolExecutors } from '../../src/infrastructure/tools/builtin-tool-executors.js';
import { defineToolExecutor, recheckTarget } from '../../src/infrastructure/tools/tool-executor.js';
import { buildReceipt, sha256Of } from '../../src/infrastructure/tools/tool-receipt-builder.js';
import { createDiskWorldProbe } from '../../src/infrastructure/world-probe/disk-world-probe.js';
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

/*
 * A file-writing tool is its contract (core) and its executor (infrastructure), typed from one
 * schema: registered here, in a test, it is offered to the model, assessed like the built-in
 * writers (from its declared roles and capabilities, no name branched on), approved and run,
 * and its receipt records the file it changed.
 */
const appendFileArgs = z.strictObject({ path: z.string().min(1), text: z.string() });
const appendFileTool = defineTool({
  name: 'append_file',
  description: 'Append text to the end of a file.',
  argsSchema: appendFileArgs,
  paramRoles: { path: 'PATH' },
  capabilities: ['WRITES_FILES'],
  defaultTier: 'T1',
  // Registered outside builtin-tools.ts, so the session records it whole, as a plugin's tool.
  source: { kind: 'plugin', id: 'new-tool-test', digest: '0'.repeat(64) },
  inputJsonSchema: z.toJSONSchema(appendFileArgs, { target: 'draft-2020-12', io: 'input' }),
});

const probe = createDiskWorldProbe();
const appendFileExecutor = defineToolExecutor(appendFileTool, async (args, context) => {
  const startedAt = performance.now();
  const { realPath, observed } = await recheckTarget(probe, args.path, context);
  // `args.text` is a string by the schema: no cast, no String().
  appendFileSync(realPath, args.text);
  return buildReceipt({
    outcome: 'succeeded',
    text: `appended ${args.text.length} characters`,
    startedAt,
    files: [
      {
        path: realPath,
        access: 'write',
        before: observed.sha256,
        after: sha256Of(readFileSync(realPath)),
      },
    ],
  });
});

it('a tool registered in a test is offered, assessed, approved and run like a built-in', async () => {
  const { workspace, storePath } = scenarioWorkspace({ 'notes.txt': 'a\n' });
  const store = openStore(storePath);
  stores.push(store);
  const workflow = parseWorkflow(
    {
      id: 'append-only',
      initialStage: 'implement',
      stages: [
        {
          id: 'implement',
          role: 'implementer',
          instructions: 'Change the workspace as the task says.',
          allowedTools: ['read_file', 'append_file'],
          capabilities: ['tool_calling'],
          artifact: { kind: 'change', schema: z.toJSONSchema(ChangeArtifactSchema) },
          transitions: [
            { when: { on: 'success' }, end: 'completed' },
            { when: { on: 'failure' }, end: 'failed' },
          ],
        },
      ],
    },
    { source: 'new-tool.test' },
  );
  const base = scenarioConfig({ workflow });
  const config = {
    ...base,
    tools: new Map([...base.tools, [appendFileTool.name, appendFileTool]]),
  };
  const scripted = scriptedModel([
    { toolCalls: [{ name: 'read_file', args: { path: 'notes.txt' } }] },
    { toolCalls: [{ name: 'append_file', args: { path: 'notes.txt', text: 'b\n' } }] },
    { text: JSON.stringify({ summary: 'appended', filesChanged: ['notes.txt'] }) },
  ]);
  const offered: string[][] = [];
  const model: InferenceProvider = {
    name: scripted.name,
    infer(request, signal) {
      offered.push(request.tools.map((tool) => tool.name));
      return scripted.infer(request, signal);
    },
  };
  const tools = createBuiltinToolRunner({
    executors: { ...createBuiltinToolExecutors(), [appendFileExecutor.name]: appendFileExecutor },
  });
  const outcome = await runSession(
    {
      store,
      sessionId: 's-new-tool',
      config,
      ports: livePorts(model, tools),
      clock: newClock(),
      ids: newIds(),
    },
    { type: 'start', task: 'Append b', workspace, workflowId: 'append-only', mode: 'auto' },
  );
  expect(outcome.status).toBe('completed');
  expect(offered[0]).toContain('append_file');
  expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe('a\nb\n');
  const payloads = (await eventsOf(store, 's-new-tool')).map((event) => event.payload);
  expect(
    payloads.find(
      (payload) => payload.type === 'tool_call_assessed' && payload.tool === 'append_file',
    ),
  ).toMatchObject({
    verdict: 'ALLOW',
    tier: 'T1',
    targets: [{ role: 'PATH', param: 'path', write: true }],
  });
  expect(
    payloads.find((payload) => payload.type === 'tool_receipt' && payload.tool === 'append_file'),
  ).toMatchObject({
    args: { path: 'notes.txt', text: 'b\n' },
    outcome: 'succeeded',
    files: [{ access: 'write', path: join(workspace, 'notes.txt') }],
  });
  await expectReplayIdentical(store, 's-new-tool', config);
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runSession } from '../../src/core/kernel/index.js';
import { DEFAULT_NEVER_WRITABLE } from '../../src/core/policies/workspace-policy.js';
import type { ToolCallAssessment } from '../../src/core/toolintent/assess-tool-call.js';
import { createBuiltinToolRunner } from '../../src/infrastructure/kernel/builtin-tool-runner.js';
import { availability, describeSandboxed } from '../sandbox/sandbox-support.js';
import {
  closeStoresAfterEach,
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
} from './kernel-harness.js';

const stores = closeStoresAfterEach();

/**
 * A whole session with this release's flags (sandbox-containment, exec-sibling-classification,
 * never-readable) under real bubblewrap in auto mode: the shell text real agents write runs
 * without a question, a secret stays unread, the receipts record what each command changed,
 * and the session replays byte for byte. Also corpus material (CORREX_GOLDEN_RECORD).
 */
describeSandboxed('a contained session', () => {
  it('runs heredocs, inline code and loops in auto mode, refuses .env, records changes, and replays', async () => {
    const { workspace, storePath } = scenarioWorkspace({
      '.env': 'TOKEN=CANARY-session-env\n',
      'src/a.py': 'print("a")\n',
    });
    const store = openStore(storePath);
    stores.push(store);
    const model = scriptedModel([
      { toolCalls: [{ name: 'exec', args: { command: "cat <<'EOF' > notes.txt\nhello\nEOF" } }] },
      {
        toolCalls: [
          { name: 'exec', args: { command: 'python3 -c "print(6 * 7)" 2>&1 | head -n 1' } },
        ],
      },
      {
        toolCalls: [
          { name: 'exec', args: { command: 'cd src && for f in *.py; do python3 "$f"; done' } },
        ],
      },
      { toolCalls: [{ name: 'read_file', args: { path: '.env' } }] },
      // The command wrote notes.txt, so the model may overwrite it without reading it first.
      {
        toolCalls: [{ name: 'write_file', args: { path: 'notes.txt', content: 'hello again\n' } }],
      },
      { text: JSON.stringify({ summary: 'done', filesChanged: ['notes.txt'] }) },
    ]);
    const config = scenarioConfig({ workflow: implementOnlyWorkflow(), sandbox: 'bubblewrap' });
    const tools = createBuiltinToolRunner({
      exec: { sandbox: { availability, neverWritable: [...DEFAULT_NEVER_WRITABLE] } },
    });
    const outcome = await runSession(
      {
        store,
        sessionId: 's-contained',
        config,
        ports: livePorts(model, tools),
        clock: newClock(),
        ids: newIds(),
      },
      {
        type: 'start',
        task: 'Write notes.txt',
        workspace,
        workflowId: 'implement-only',
        mode: 'auto',
      },
    );
    expect(outcome.status).toBe('completed');
    const events = await eventsOf(store, 's-contained');
    const assessments = events
      .map((event) => event.payload)
      .filter((payload): payload is ToolCallAssessment => payload.type === 'tool_call_assessed');
    expect(assessments.map((a) => [a.tool, a.verdict, a.tier])).toEqual([
      ['exec', 'ALLOW', 'T2'],
      ['exec', 'ALLOW', 'T2'],
      ['exec', 'ALLOW', 'T2'],
      ['read_file', 'BLOCK', 'T3'],
      ['write_file', 'ALLOW', 'T1'],
    ]);
    expect(events.some((event) => event.payload.type === 'approval_requested')).toBe(false);
    const receipts = events.flatMap((event) =>
      event.payload.type === 'tool_receipt' ? [event.payload] : [],
    );
    expect(receipts[0]!.files).toEqual([
      expect.objectContaining({
        path: join(workspace, 'notes.txt'),
        access: 'write',
        before: null,
      }),
    ]);
    expect(receipts[1]!.output).toContain('42');
    expect(receipts[2]!.output).toContain('a');
    expect(JSON.stringify(events)).not.toContain('CANARY-session-env');
    expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe('hello again\n');
    await expectReplayIdentical(store, 's-contained', config);
  });
});

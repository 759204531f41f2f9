import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendToSession, runSession } from '../../src/core/kernel/index.js';
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

describe('scoped grants', () => {
  it('asks once, then lets a standing command grant and a path grant answer the calls they cover', async () => {
    const { workspace, storePath } = scenarioWorkspace({ 'greet.js': "console.log('hi');\n" });
    const store = openStore(storePath);
    stores.push(store);
    const config = scenarioConfig({ workflow: implementOnlyWorkflow() });
    const exec = { toolCalls: [{ name: 'exec', args: { argv: ['node', 'greet.js'] } }] };
    const model = scriptedModel([
      exec,
      exec,
      { toolCalls: [{ name: 'write_file', args: { path: 'out/a.txt', content: 'a\n' } }] },
      { toolCalls: [{ name: 'write_file', args: { path: 'out/b.txt', content: 'b\n' } }] },
      {
        text: JSON.stringify({
          summary: 'ran and wrote',
          filesChanged: ['out/a.txt', 'out/b.txt'],
        }),
      },
    ]);
    const clock = newClock();
    const options = {
      store,
      sessionId: 's-grants',
      config,
      ports: livePorts(model),
      clock,
      ids: newIds(),
    };
    const first = await runSession(options, {
      type: 'start',
      task: 'run greet and write two files',
      workspace,
      workflowId: 'implement-only',
      mode: 'prompt',
    });
    expect(first.waiting).toMatchObject({ kind: 'approval', callId: 'implement.1.1.1' });
    const context = { clock, ids: newIds('grant') };
    await appendToSession(context, store, 's-grants', {
      type: 'approval_grant_added',
      grantId: 'g-command',
      scope: { kind: 'command', command: JSON.stringify(['node', 'greet.js']) },
      lifetime: 'session',
      stageId: null,
      expiresAt: null,
      by: 'alice',
      reason: 'greet is harmless',
    });
    await appendToSession(context, store, 's-grants', {
      type: 'approval_grant_added',
      grantId: 'g-path',
      scope: { kind: 'path', tool: 'write_file', glob: 'out/**' },
      lifetime: 'stage',
      stageId: 'implement',
      expiresAt: null,
      by: 'alice',
      reason: 'out/ is scratch',
    });
    const second = await runSession(
      { ...options, ids: newIds('later') },
      { type: 'approve', callId: 'implement.1.1.1', by: 'alice', reason: 'first run' },
    );
    expect(second.status).toBe('completed');
    expect(readFileSync(join(workspace, 'out/b.txt'), 'utf8')).toBe('b\n');
    const grantedBy = (await eventsOf(store, 's-grants')).flatMap((event) =>
      event.payload.type === 'approval_granted' ? [event.payload.by] : [],
    );
    expect(grantedBy).toEqual([
      { kind: 'human', id: 'alice' },
      { kind: 'grant', id: 'g-command' },
      { kind: 'grant', id: 'g-path' },
      { kind: 'grant', id: 'g-path' },
    ]);
    await expectReplayIdentical(store, 's-grants', config);
  });
});

import { expect, it } from 'vitest';
import { currentBehaviour } from '../../src/core/kernel/config/behaviour.js';
import { runSession } from '../../src/core/kernel/index.js';
import { DEFAULT_NEVER_WRITABLE } from '../../src/core/policies/workspace-policy.js';
import {
  CONFINEMENT_BY_CONSTRUCTION,
  EXEC_BASH,
} from '../../src/core/toolintent/toolintent-flags.js';
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
 * Flag `exec-bash` through a whole session: a new session records it, its command lines are
 * judged as bash and run under `bash -c`; a session recorded without it keeps `/bin/sh -c`.
 * Both replay byte for byte.
 */
describeSandboxed('exec-bash in a session', () => {
  const LINE = `[[ -f a.txt ]] && echo "found" $'\\x41'`;
  const run = async (sessionId: string, withFlag: boolean, line = LINE) => {
    const { workspace, storePath } = scenarioWorkspace({ 'a.txt': 'a\n' });
    const store = openStore(storePath);
    stores.push(store);
    const behaviour = currentBehaviour();
    const flags = new Set(behaviour.flags);
    if (!withFlag) {
      // A session recorded before exec-bash predates confinement-by-construction too.
      flags.delete(EXEC_BASH.name);
      flags.delete(CONFINEMENT_BY_CONSTRUCTION.name);
    }
    const config = scenarioConfig({
      workflow: implementOnlyWorkflow(),
      sandbox: 'bubblewrap',
      behaviour: { kernelVersion: behaviour.kernelVersion, flags },
    });
    const model = scriptedModel([
      { toolCalls: [{ name: 'exec', args: { command: line } }] },
      { text: JSON.stringify({ summary: 'done', filesChanged: [] }) },
    ]);
    const tools = createBuiltinToolRunner({
      exec: { sandbox: { availability, neverWritable: [...DEFAULT_NEVER_WRITABLE] } },
    });
    await runSession(
      {
        store,
        sessionId,
        config,
        ports: livePorts(model, tools),
        clock: newClock(),
        ids: newIds(),
      },
      {
        type: 'start',
        task: 'Look for a.txt',
        workspace,
        workflowId: 'implement-only',
        mode: 'auto',
      },
    );
    const events = await eventsOf(store, sessionId);
    await expectReplayIdentical(store, sessionId, config);
    return events.map((event) => event.payload);
  };

  it('records the flag, judges the line as bash and runs it under bash -c', async () => {
    const payloads = await run('s-bash', true);
    const configured = payloads.find((payload) => payload.type === 'session_configured');
    expect(JSON.stringify(configured)).toContain('"exec-bash"');
    const assessed = payloads.find((payload) => payload.type === 'tool_call_assessed');
    expect(assessed).toMatchObject({ verdict: 'ALLOW' });
    const receipt = payloads.find((payload) => payload.type === 'tool_receipt');
    expect(receipt).toMatchObject({ outcome: 'succeeded', output: 'found A\n' });
  });

  it('keeps /bin/sh and the POSIX reading for a session recorded without it', async () => {
    const payloads = await run('s-sh', false);
    const assessed = payloads.find((payload) => payload.type === 'tool_call_assessed');
    // Read as POSIX, `[[` is not parsed: the line is asked for, never run unattended.
    expect(JSON.stringify(assessed)).toContain('unparseable_command');
    expect(payloads.some((payload) => payload.type === 'tool_receipt')).toBe(false);
    // A POSIX line runs under /bin/sh, which leaves $'...' alone.
    const plain = await run('s-sh-plain', false, `echo $'\\x41'`);
    const receipt = plain.find((payload) => payload.type === 'tool_receipt');
    expect(receipt).toMatchObject({ outcome: 'succeeded', output: '$\\x41\n' });
  });
});

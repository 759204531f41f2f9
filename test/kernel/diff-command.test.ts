import { toolReceiptOf } from '../../src/infrastructure/tools/tool-executor.js';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSteppingClock } from '../../src/core/base/clock.js';
import { createCountingIdSource } from '../../src/core/base/id-source.js';
import { correxEventCatalog, type EventPayload } from '../../src/core/event-catalog.js';
import { InMemoryEventStore } from '../../src/core/events/in-memory-event-store.js';
import {
  createPreimageStore,
  preimageDirectory,
} from '../../src/infrastructure/sandbox/preimage-store.js';
import { createExecExecutor } from '../../src/infrastructure/tools/exec-tool.js';
import { createDiskWorldProbe } from '../../src/infrastructure/world-probe/disk-world-probe.js';
import type { CliContext } from '../../src/interfaces/cli/cli-context.js';
import { runCli } from '../../src/interfaces/cli/program.js';
import { cliTestDefaults } from '../support/cli-test-context.js';
import { tempDir } from '../support/temp-dir.js';
import { layeredRecord } from '../../src/core/base/layered-record.js';

/**
 * `correx diff` on changes real processes made: two exec calls in two stages, their receipts
 * recorded as the kernel records them, the pre-images kept by the executor's change recorder.
 */
describe('correx diff', () => {
  it('shows each call’s real diff with its command, and filters by stage', async () => {
    const base = realpathSync(tempDir('correx-diff-'));
    const workspace = join(base, 'ws');
    const correxHome = join(base, 'correx');
    mkdirSync(join(workspace, 'src'), { recursive: true });
    mkdirSync(join(base, 'home'));
    writeFileSync(join(workspace, 'src/a.txt'), 'one\ntwo\nthree\n');
    const exec = createExecExecutor({
      probe: createDiskWorldProbe(),
      preimages: createPreimageStore(preimageDirectory(correxHome)),
    });
    const calls = [
      { callId: 'implement.1', stageId: 'implement', command: "sed -i 's/two/TWO/' src/a.txt" },
      { callId: 'verify.1', stageId: 'verify', command: 'echo made > src/b.txt && rm src/a.txt' },
    ];
    const payloads: EventPayload[] = [
      {
        type: 'session_created',
        task: 't',
        workspace,
        workflowId: 'default-coding',
        mode: 'auto',
      },
    ];
    for (const call of calls) {
      const receipt = await exec.execute(
        { command: call.command },
        {
          callId: call.callId,
          roots: { workspaceRoot: workspace, homeDirectory: join(base, 'home') },
          observations: layeredRecord(),
          egressAllowlist: [],
        },
      );
      expect(receipt.outcome).toBe('succeeded');
      payloads.push(
        {
          type: 'tool_call_proposed',
          callId: call.callId,
          stageId: call.stageId,
          tool: 'exec',
          argsRaw: JSON.stringify({ command: call.command }),
        },
        toolReceiptOf(
          { callId: call.callId, tool: 'exec', args: { command: call.command } },
          receipt,
        ),
      );
    }
    const store = new InMemoryEventStore({ catalog: correxEventCatalog });
    await store.appendAll(
      payloads.map((payload, index) => ({
        eventId: `e-${index}`,
        sessionId: 's',
        timestamp: `2026-12-01T12:00:0${index}.000Z`,
        payload,
      })),
    );
    const out: string[] = [];
    const context: CliContext = {
      ...cliTestDefaults,
      version: '0',
      correxHome,
      defaultStore: 'memory',
      clock: createSteppingClock('2026-12-01T12:01:00.000Z', 1000),
      ids: createCountingIdSource('cli'),
      user: 'alice',
      openStores: async (location) => ({
        kind: 'memory',
        location,
        events: store,
        close: async () => {},
      }),
      migrateStore: async () => {
        throw new Error('not used');
      },
      out: (text) => out.push(text),
      err: () => {},
    };
    expect(await runCli(context, ['diff', 's'])).toBe(0);
    const a = join(workspace, 'src/a.txt');
    const b = join(workspace, 'src/b.txt');
    expect(out.at(-1)!.split('\n')).toEqual([
      `# #3 implement.1 [implement] exec succeeded: $ sed -i 's/two/TWO/' src/a.txt`,
      `diff ${a} (modified)`,
      `--- a${a}`,
      `+++ b${a}`,
      '@@ -1,3 +1,3 @@',
      ' one',
      '-two',
      '+TWO',
      ' three',
      `# #5 verify.1 [verify] exec succeeded: $ echo made > src/b.txt && rm src/a.txt`,
      `diff ${a} (deleted)`,
      `--- a${a}`,
      '+++ /dev/null',
      '@@ -1,3 +0,0 @@',
      '-one',
      '-TWO',
      '-three',
      `diff ${b} (created)`,
      '--- /dev/null',
      `+++ b${b}`,
      '@@ -0,0 +1,1 @@',
      '+made',
    ]);
    expect(await runCli(context, ['diff', 's', '--stage', 'implement'])).toBe(0);
    expect(out.at(-1)).not.toContain('verify.1');
    expect(out.at(-1)).toContain('+TWO');
  });
});

import { toolReceiptOf } from '../../src/infrastructure/tools/tool-executor.js';
import {
  chmodSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  statSync,
  writeFileSync,
  existsSync,
} from 'node:fs';
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
 * `correx undo` round trips on changes real processes made: the exec executor records them and
 * keeps pre-images; the receipts are recorded as the kernel records them; undo puts the exact
 * bytes and modes back, refuses files edited by hand since, and records itself.
 */
async function session(commands: readonly string[]) {
  const base = realpathSync(tempDir('correx-undo-'));
  const workspace = join(base, 'ws');
  const correxHome = join(base, 'correx');
  mkdirSync(join(workspace, 'src'), { recursive: true });
  mkdirSync(join(base, 'home'));
  writeFileSync(join(workspace, 'src/a.txt'), 'one\ntwo\nthree\n');
  chmodSync(join(workspace, 'src/a.txt'), 0o640);
  writeFileSync(join(workspace, 'src/keep.txt'), 'untouched\n');
  const exec = createExecExecutor({
    probe: createDiskWorldProbe(),
    preimages: createPreimageStore(preimageDirectory(correxHome)),
  });
  const payloads: EventPayload[] = [
    { type: 'session_created', task: 't', workspace, workflowId: 'default-coding', mode: 'auto' },
  ];
  for (const [index, command] of commands.entries()) {
    const callId = `implement.${index + 1}`;
    const receipt = await exec.execute(
      { command },
      {
        callId,
        roots: { workspaceRoot: workspace, homeDirectory: join(base, 'home') },
        observations: layeredRecord(),
        egressAllowlist: [],
      },
    );
    expect(receipt.outcome, receipt.output).toBe('succeeded');
    payloads.push(
      {
        type: 'tool_call_proposed',
        callId,
        stageId: 'implement',
        tool: 'exec',
        argsRaw: JSON.stringify({ command }),
      },
      toolReceiptOf({ callId, tool: 'exec', args: { command } }, receipt),
    );
  }
  const store = new InMemoryEventStore({ catalog: correxEventCatalog });
  await store.appendAll(
    payloads.map((payload, index) => ({
      eventId: `e-${index}`,
      sessionId: 's',
      timestamp: `2026-12-01T12:00:${String(index).padStart(2, '0')}.000Z`,
      payload,
    })),
  );
  const out: string[] = [];
  const err: string[] = [];
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
    err: (text) => err.push(text),
  };
  const file = (path: string) => join(workspace, path);
  return { store, out, err, file, run: (...argv: string[]) => runCli(context, argv) };
}

const COMMANDS = [
  "sed -i 's/two/TWO/' src/a.txt && chmod 600 src/a.txt",
  'mkdir -p src/gen && echo made > src/gen/b.txt && rm src/keep.txt',
];

describe('correx undo', () => {
  it('restores the exact bytes and modes, records itself, and then has nothing left to undo', async () => {
    const h = await session(COMMANDS);
    expect(await h.run('undo', 's')).toBe(0);
    expect(readFileSync(h.file('src/a.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
    expect(statSync(h.file('src/a.txt')).mode & 0o777).toBe(0o640);
    expect(readFileSync(h.file('src/keep.txt'), 'utf8')).toBe('untouched\n');
    expect(existsSync(h.file('src/gen/b.txt'))).toBe(false);
    expect(h.out.at(-1)).toBe(
      'recorded workspace_restored as #6 in session s (3 file(s), back to #0)',
    );
    const [restored] = await h.store.read('s', { afterSequence: 5 });
    expect(restored!.payload).toMatchObject({
      type: 'workspace_restored',
      by: 'alice',
      toSequence: 0,
      stageId: null,
    });
    expect(await h.run('undo', 's')).toBe(0);
    expect(h.out.at(-1)).toBe('nothing to undo after #0 in session s');
    expect(await h.run('diff', 's')).toBe(0);
    expect(h.out.at(-1)).toContain('# #6 undo by alice undo succeeded');
  });

  it('undoes only what came after --to', async () => {
    const h = await session(COMMANDS);
    expect(await h.run('undo', 's', '--to', '3')).toBe(0);
    expect(readFileSync(h.file('src/a.txt'), 'utf8')).toBe('one\nTWO\nthree\n');
    expect(readFileSync(h.file('src/keep.txt'), 'utf8')).toBe('untouched\n');
    expect(existsSync(h.file('src/gen/b.txt'))).toBe(false);
  });

  it('refuses, listing them, files edited by hand since, and changes nothing', async () => {
    const h = await session(COMMANDS);
    writeFileSync(h.file('src/gen/b.txt'), 'edited by hand\n');
    expect(await h.run('undo', 's')).toBe(1);
    expect(h.err.at(-1)).toBe(
      `correx: refused to undo; nothing was changed:\n  changed outside correx since: ${h.file('src/gen/b.txt')}`,
    );
    expect(readFileSync(h.file('src/a.txt'), 'utf8')).toBe('one\nTWO\nthree\n');
    expect(existsSync(h.file('src/keep.txt'))).toBe(false);
    expect(await h.store.lastSequence('s')).toBe(5);
    expect(await h.run('undo', 's', '--stage', 'review')).toBe(2);
  });
});

import { toolReceiptOf } from '../../src/infrastructure/tools/tool-executor.js';
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import { expect, it } from 'vitest';
import { createSteppingClock } from '../../src/core/base/clock.js';
import { createCountingIdSource } from '../../src/core/base/id-source.js';
import { layeredRecord } from '../../src/core/base/layered-record.js';
import { correxEventCatalog, type EventPayload } from '../../src/core/event-catalog.js';
import { InMemoryEventStore } from '../../src/core/events/in-memory-event-store.js';
import { DEFAULT_NEVER_WRITABLE } from '../../src/core/policies/workspace-policy.js';
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
import { availability, describeSandboxed } from './sandbox-support.js';

/**
 * Issue #41: destruction inside the workspace is undoable, not asked. Whatever program deletes
 * or overwrites workspace files under bubblewrap (inline Python, find -delete, git clean -fdx,
 * rm -rf), its receipt's change record holds the pre-images, and `correx undo` puts back every
 * byte and mode.
 */
type Snapshot = Record<string, { mode: number; bytes: string }>;

function snapshot(root: string): Snapshot {
  const out: Snapshot = {};
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.name === '.git') continue;
      if (entry.isDirectory()) {
        out[`${relative(root, path)}/`] = { mode: statSync(path).mode & 0o7777, bytes: '' };
        walk(path);
      } else
        out[relative(root, path)] = {
          mode: statSync(path).mode & 0o7777,
          bytes: readFileSync(path).toString('base64'),
        };
    }
  };
  walk(root);
  return out;
}

function fixture() {
  const base = realpathSync(tempDir('correx-undo-destruction-'));
  const workspace = join(base, 'ws');
  const home = join(base, 'home');
  mkdirSync(join(workspace, 'src/pkg'), { recursive: true });
  mkdirSync(join(workspace, 'build'), { recursive: true });
  mkdirSync(home);
  writeFileSync(join(workspace, 'src/main.py'), 'print("main")\n');
  writeFileSync(join(workspace, 'src/pkg/__init__.py'), '');
  writeFileSync(join(workspace, 'src/pkg/tool.sh'), '#!/bin/sh\necho tool\n');
  chmodSync(join(workspace, 'src/pkg/tool.sh'), 0o755);
  writeFileSync(join(workspace, 'src/pkg/mod.cpython-311.pyc'), Buffer.from([0, 1, 2, 255]));
  writeFileSync(join(workspace, 'src/secret-mode.txt'), 'mode 600\n');
  chmodSync(join(workspace, 'src/secret-mode.txt'), 0o600);
  writeFileSync(join(workspace, 'build/out.bin'), Buffer.alloc(70_000, 7));
  writeFileSync(join(workspace, '.gitignore'), 'build/\n');
  writeFileSync(join(workspace, 'notes-untracked.md'), 'not committed\n');
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
      cwd: workspace,
      stdio: 'ignore',
    });
  git('init', '-q');
  git('add', 'src/main.py', '.gitignore');
  git('commit', '-qm', 'init');
  return { base, workspace, home, correxHome: join(base, 'correx') };
}

async function runAndUndo(commands: readonly string[]) {
  const f = fixture();
  const before = snapshot(f.workspace);
  const exec = createExecExecutor({
    probe: createDiskWorldProbe(),
    searchPath: '/usr/local/bin:/usr/bin:/bin',
    preimages: createPreimageStore(preimageDirectory(f.correxHome)),
    sandbox: { availability, neverWritable: [...DEFAULT_NEVER_WRITABLE] },
  });
  const payloads: EventPayload[] = [
    {
      type: 'session_created',
      task: 't',
      workspace: f.workspace,
      workflowId: 'default-coding',
      mode: 'auto',
    },
  ];
  for (const [index, command] of commands.entries()) {
    const callId = `implement.${index + 1}`;
    const receipt = await exec.execute(
      { command },
      {
        callId,
        roots: { workspaceRoot: f.workspace, homeDirectory: f.home },
        observations: layeredRecord(),
        egressAllowlist: [],
      },
    );
    expect(receipt.sandbox?.kind).toBe('bubblewrap');
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
  const destroyed = snapshot(f.workspace);
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
    correxHome: f.correxHome,
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
  const code = await runCli(context, ['undo', 's']);
  return { before, destroyed, after: snapshot(f.workspace), code, out, err, f };
}

describeSandboxed('destruction inside the workspace is undone by correx undo', () => {
  const cases: Record<string, string> = {
    'inline python shutil.rmtree': `python3 -c "import shutil; shutil.rmtree('src')"`,
    'find -delete': `find . -name '*.pyc' -delete && find src -type f -name '*.sh' -delete`,
    'git clean -fdx': 'git clean -fdxq',
    'rm -rf': 'rm -rf src build notes-untracked.md',
    'an overwrite and a chmod': `printf 'gone' > src/main.py && chmod 644 src/secret-mode.txt && python3 -c "open('build/out.bin','wb').write(b'x')"`,
  };
  for (const [name, command] of Object.entries(cases)) {
    it(`restores every byte and mode after ${name}`, async () => {
      const run = await runAndUndo([command]);
      expect(run.destroyed).not.toEqual(run.before); // the command really destroyed something
      expect(run.code, run.err.join('\n')).toBe(0);
      expect(run.after).toEqual(run.before);
    });
  }

  it('restores across several destructive calls in one session', async () => {
    const run = await runAndUndo([
      `python3 -c "import os; os.remove('src/main.py')"`,
      'git clean -fdxq',
      'rm -rf src',
    ]);
    expect(run.code, run.err.join('\n')).toBe(0);
    expect(run.after).toEqual(run.before);
    expect(existsSync(join(run.f.workspace, 'build/out.bin'))).toBe(true);
  });
});

import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  detectSandbox,
  type SandboxAvailability,
} from '../../src/infrastructure/sandbox/sandbox-availability.js';
import { createExecExecutor } from '../../src/infrastructure/tools/exec-tool.js';
import type { SandboxSettings } from '../../src/infrastructure/sandbox/confined-process.js';
import { toolReceiptOf, type ToolReceipt } from '../../src/infrastructure/tools/tool-executor.js';
import { createDiskWorldProbe } from '../../src/infrastructure/world-probe/disk-world-probe.js';
import { toolReceipt } from '../../src/core/tools/tool-events.js';
import { tempDir } from '../support/temp-dir.js';
import { layeredRecord } from '../../src/core/base/layered-record.js';

export const availability: SandboxAvailability = await detectSandbox();

/**
 * `describe` for suites that need bubblewrap. Where it is missing the suite is skipped with a
 * message, except in CI (CI=true), where a missing sandbox is a failure: CI installs it.
 */
export function describeSandboxed(name: string, body: () => void): void {
  if (availability.kind === 'bubblewrap') {
    describe(name, body);
    return;
  }
  if (process.env.CI === 'true') {
    describe(name, () => {
      it('needs bubblewrap, which CI must provide', () => {
        expect.fail(`no sandbox in CI: ${availability.reason}`);
      });
    });
    return;
  }
  console.warn(`skipping "${name}": ${availability.reason}`);
  describe.skip(name, body);
}

/** A workspace with a git repository skeleton, a fake home with planted secrets, and a place outside. */
export function sandboxFixture(prefix: string) {
  const base = realpathSync(tempDir(prefix));
  const workspace = join(base, 'ws');
  const home = join(base, 'home');
  const outside = join(base, 'outside');
  for (const dir of [
    join(workspace, '.git/hooks'),
    join(home, '.ssh'),
    join(home, '.aws'),
    outside,
  ])
    mkdirSync(dir, { recursive: true });
  return { base, workspace, home, outside };
}

/** Runs one `exec` call through the real executor and checks its receipt parses as an event. */
export async function execIn(
  fixture: { workspace: string; home: string },
  args: Record<string, unknown>,
  options: { sandbox?: SandboxSettings; egress?: readonly string[]; searchPath?: string } = {},
): Promise<ToolReceipt> {
  const executor = createExecExecutor({
    probe: createDiskWorldProbe(),
    searchPath: options.searchPath ?? '/usr/local/bin:/usr/bin:/bin',
    ...(options.sandbox === undefined ? {} : { sandbox: options.sandbox }),
  });
  const execution = await executor.execute(args, {
    callId: 'call-1',
    roots: { workspaceRoot: fixture.workspace, homeDirectory: fixture.home },
    observations: layeredRecord(),
    egressAllowlist: options.egress ?? [],
  });
  const receipt = toolReceiptOf({ callId: 'call-1', tool: 'exec', args }, execution);
  expect(() => toolReceipt.schema.parse(receipt)).not.toThrow();
  return receipt;
}

/**
 * Processes on this machine whose command line contains `marker` and that still run. A killed
 * process whose reaper has not collected it yet (a zombie) does not count: it runs nothing.
 */
export function liveProcessesMatching(marker: string): number[] {
  const live: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (!cmdline.includes(marker)) continue;
      const state = existsSync(`/proc/${entry}/stat`)
        ? readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.[0]
        : 'X';
      if (state !== 'Z' && state !== 'X') live.push(Number(entry));
    } catch {
      // It exited while we looked.
    }
  }
  return live;
}

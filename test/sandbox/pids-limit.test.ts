import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { DEFAULT_NEVER_WRITABLE } from '../../src/core/policies/workspace-policy.js';
import type { ToolReceipt } from '../../src/infrastructure/tools/tool-executor.js';
import { FORK_BOMB, forkBombCounts } from './fork-bomb.js';
import { availability, describeSandboxed, execIn, sandboxFixture } from './sandbox-support.js';

const fixture = sandboxFixture('correx-pids-');

describeSandboxed('exec under bubblewrap: the pids limit', () => {
  it('a fork bomb stops at the call’s pids limit, recorded in the receipt’s sandbox profile', async () => {
    const receipt = await execIn(
      fixture,
      { argv: [process.execPath, '-e', FORK_BOMB], timeoutMs: 60_000 },
      {
        sandbox: { availability, neverWritable: [...DEFAULT_NEVER_WRITABLE], maxProcesses: 40 },
      },
    );
    const mechanism = receipt.sandbox?.pidsLimit?.mechanism;
    expect(receipt.sandbox?.pidsLimit).toEqual({ max: 40, mechanism: expect.any(String) });
    // Root is exempt from RLIMIT_NPROC, so only a cgroup bounds a root-run test.
    if (mechanism === 'rlimit-nproc' && process.getuid?.() === 0) return;
    const { live, refused } = forkBombCounts(receipt.output);
    expect(live).toBeGreaterThan(1);
    expect(live).toBeLessThanOrEqual(40);
    expect(refused).toBeGreaterThan(0);
    // It ended when the shell did (the namespace took the sleepers with it), not at the timeout.
    expect(receipt.outcome).toBe('succeeded');
  });

  it('a call within the limit runs as before', async () => {
    const receipt = await execIn(
      fixture,
      { command: 'sleep 0 & sleep 0 & wait; echo done' },
      { sandbox: { availability, neverWritable: [...DEFAULT_NEVER_WRITABLE] } },
    );
    expect(receipt).toMatchObject({ outcome: 'succeeded', output: 'done\n' });
    expect(receipt.sandbox?.pidsLimit?.max).toBe(512);
  });

  // An unprivileged user cannot write a cgroup here, so the limit falls back to RLIMIT_NPROC in
  // the user namespace; only a root test process can start one (setpriv drops to nobody).
  const asNobody =
    process.getuid?.() === 0 &&
    existsSync('/usr/bin/setpriv') &&
    availability.kind === 'bubblewrap' &&
    availability.userNamespace;
  it.skipIf(!asNobody)(
    'without a writable cgroup, RLIMIT_NPROC inside the user namespace stops the same bomb',
    async () => {
      const workspace = join(fixture.base, 'nobody-ws');
      const home = join(fixture.base, 'nobody-home');
      for (const dir of [workspace, home]) {
        mkdirSync(dir, { recursive: true });
        chmodSync(dir, 0o777);
      }
      chmodSync(fixture.base, 0o755);
      const { stdout } = await promisify(execFile)(
        '/usr/bin/setpriv',
        [
          '--reuid=65534',
          '--regid=65534',
          '--clear-groups',
          process.execPath,
          '--import',
          'tsx',
          'test/sandbox/pids-limit-child.ts',
          workspace,
          home,
        ],
        {
          env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, TMPDIR: home },
          timeout: 90_000,
        },
      );
      const receipt = JSON.parse(stdout) as ToolReceipt;
      expect(receipt.sandbox?.pidsLimit).toEqual({ max: 40, mechanism: 'rlimit-nproc' });
      const { live, refused } = forkBombCounts(receipt.output);
      expect(live).toBeGreaterThan(1);
      expect(live).toBeLessThanOrEqual(40);
      expect(refused).toBeGreaterThan(0);
      expect(receipt.outcome).toBe('succeeded');
    },
    120_000,
  );
});

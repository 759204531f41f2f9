import { expect, it } from 'vitest';
import { DEFAULT_NEVER_WRITABLE } from '../../src/core/policies/workspace-policy.js';
import { availability, describeSandboxed, execIn, sandboxFixture } from './sandbox-support.js';

const fixture = sandboxFixture('correx-pids-');

/**
 * A bounded fork bomb: tries to start 300 sleeping children (a failed spawn is an `error` event,
 * not the end of the script), then counts the processes of the sandbox's PID namespace.
 */
const BOMB = `
const { spawn } = require('node:child_process');
let refused = 0;
for (let i = 0; i < 300; i++) spawn('/bin/sleep', ['30']).on('error', () => refused++);
setTimeout(() => {
  const live = require('node:fs').readdirSync('/proc').filter((name) => /^[0-9]+$/.test(name));
  console.log('processes ' + live.length + ' refused ' + refused);
  process.exit(0);
}, 1000);`;

describeSandboxed('exec under bubblewrap: the pids limit', () => {
  it('a fork bomb stops at the call’s pids limit, recorded in the receipt’s sandbox profile', async () => {
    const receipt = await execIn(
      fixture,
      { argv: [process.execPath, '-e', BOMB], timeoutMs: 60_000 },
      {
        sandbox: { availability, neverWritable: [...DEFAULT_NEVER_WRITABLE], maxProcesses: 40 },
      },
    );
    const mechanism = receipt.sandbox?.pidsLimit?.mechanism;
    expect(receipt.sandbox?.pidsLimit).toEqual({ max: 40, mechanism: expect.any(String) });
    // Root is exempt from RLIMIT_NPROC, so only a cgroup bounds a root-run test.
    if (mechanism === 'rlimit-nproc' && process.getuid?.() === 0) return;
    const [, live, refused] = /processes (\d+) refused (\d+)/.exec(receipt.output) ?? [];
    expect(Number(live)).toBeGreaterThan(1);
    expect(Number(live)).toBeLessThanOrEqual(40);
    expect(Number(refused)).toBeGreaterThan(0);
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
});

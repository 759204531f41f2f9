import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  runConfinedProcess,
  type SandboxSettings,
} from '../src/infrastructure/sandbox/confined-process.js';
import { execFile } from 'node:child_process';
import { DEFAULT_NEVER_READABLE } from '../src/core/policies/workspace-policy.js';
import { buildBubblewrapProfile } from '../src/infrastructure/sandbox/bubblewrap-profile.js';
import {
  bubblewrapBaseArgs,
  detectSandbox,
} from '../src/infrastructure/sandbox/sandbox-availability.js';
import { scrubbedEnvironment } from '../src/infrastructure/tools/exec-tool.js';
import { defaultSearchPath } from '../src/infrastructure/system/default-search-path.js';
import { measure, row, type BenchRow } from './bench-table.js';

/**
 * The price of confinement: `true` run plainly, under bubblewrap with no network, and under
 * bubblewrap with an egress allowlist (which starts the filtering proxy and its in-sandbox
 * forwarder for the call). Empty where this machine has no bubblewrap. The deny-by-default read
 * view (issue #41) is measured against the profile before it (the host's root bound read-only,
 * home and /tmp hidden), each built and run per exec, in the same run.
 */
export async function runSandboxBench(options: { quick: boolean }): Promise<BenchRow[]> {
  const availability = await detectSandbox();
  if (availability.kind === 'none') return [];
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'correx-sandbox-bench-')));
  const home = realpathSync(homedir());
  const searchPath = defaultSearchPath();
  const settings: SandboxSettings = { availability };
  const runTrue = (sandbox: SandboxSettings | undefined, egressAllowlist: string[]) => () =>
    runConfinedProcess(
      {
        argv: ['true'],
        cwd: workspace,
        workspaceRoot: workspace,
        homeDirectory: home,
        env: scrubbedEnvironment(home, searchPath),
        searchPath,
        egressAllowlist,
        timeoutMs: 30_000,
        onOutput: () => {},
      },
      sandbox,
    );
  const count = options.quick ? 5 : 30;
  const bwrap = (args: readonly string[]) =>
    new Promise<void>((resolve, reject) =>
      execFile(availability.bwrapPath, [...args, 'true'], (error) =>
        error === null ? resolve() : reject(error),
      ),
    );
  const hostReadOnly = () =>
    bwrap([
      ...bubblewrapBaseArgs(availability.userNamespace),
      ...['--tmpfs', '/tmp', '--tmpfs', '/var/tmp', '--tmpfs', '/run', '--tmpfs', home],
      ...['--bind', workspace, workspace, '--chdir', workspace, '--'],
    ]);
  const denyByDefault = () =>
    bwrap(
      buildBubblewrapProfile({
        bwrapPath: availability.bwrapPath,
        userNamespace: availability.userNamespace,
        workspaceRoot: workspace,
        cwd: workspace,
        homeDirectory: home,
        neverWritable: [],
        neverReadable: [...DEFAULT_NEVER_READABLE],
        hiddenPaths: [],
        readablePaths: [],
        searchPath,
        proxySocket: null,
        allowedHosts: [],
      }).args,
    );
  try {
    const plain = row(
      'exec `true`, no sandbox',
      await measure(count, runTrue(undefined, [])),
      'runs/s',
    );
    // Alternated run by run, so a busy machine slows both alike.
    const [hostRate, viewRate] = await measureAlternating(count * 2, hostReadOnly, denyByDefault);
    const before = row('bwrap `true`, host read-only (before #41)', hostRate, 'runs/s', plain);
    return [
      plain,
      before,
      row('bwrap `true`, deny-by-default view', viewRate, 'runs/s', before),
      row(
        'exec `true` in bubblewrap, no network',
        await measure(count, runTrue(settings, [])),
        'runs/s',
        plain,
      ),
      row(
        'exec `true` in bubblewrap, egress proxy',
        await measure(count, runTrue(settings, ['example.com'])),
        'runs/s',
        plain,
      ),
    ];
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}

/** Runs `a` and `b` alternately `count` times each; their rates per second. */
async function measureAlternating(
  count: number,
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
): Promise<[number, number]> {
  let timeA = 0n;
  let timeB = 0n;
  for (let index = 0; index < count; index++) {
    for (const [run, add] of [
      [a, (t: bigint) => (timeA += t)],
      [b, (t: bigint) => (timeB += t)],
    ] as const) {
      const start = process.hrtime.bigint();
      await run();
      add(process.hrtime.bigint() - start);
    }
  }
  return [count / (Number(timeA) / 1e9), count / (Number(timeB) / 1e9)];
}

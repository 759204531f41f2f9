import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
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
  bubblewrapNamespaceArgs,
  detectSandbox,
} from '../src/infrastructure/sandbox/sandbox-availability.js';
import { scrubbedEnvironment } from '../src/infrastructure/tools/exec-tool.js';
import { defaultSearchPath } from '../src/infrastructure/system/default-search-path.js';
import { cpuMillis, measure, row, type BenchRow } from './bench-table.js';

/**
 * The price of confinement: `true` run plainly, under bubblewrap with no network, and under
 * bubblewrap with an egress allowlist (which starts the filtering proxy and its in-sandbox
 * forwarder for the call). Empty where this machine has no bubblewrap. The deny-by-default read
 * view (issue #41) is measured against the profile before it (the host's root bound read-only,
 * home and /tmp hidden) and against plain exec, each built and run per exec, in the same run,
 * with the CPU time of each (this process and bwrap's) beside the wall time, after one warm-up
 * call each (the view's first call in a process, which prepares the /etc view, has a row of its
 * own); and the cost of one mount, as bwrap with one bind against bwrap with seventeen.
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
  // The profile's construction, timed apart: correx's own CPU and wall time per call.
  const building = { cpu: 0, wall: 0, count: 0 };
  const denyByDefault = () => {
    const cpuStart = process.cpuUsage();
    const start = process.hrtime.bigint();
    const { args } = buildBubblewrapProfile({
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
    });
    const cpu = process.cpuUsage(cpuStart);
    building.cpu += (cpu.user + cpu.system) / 1000;
    building.wall += Number(process.hrtime.bigint() - start) / 1e6;
    building.count += 1;
    return bwrap(args);
  };
  // The cost of one mount: bwrap on the same minimal root with one bind, and with MOUNTS more
  // (/dev/null over files of the workspace), alternated.
  const MOUNTS = 16;
  const targets = Array.from({ length: MOUNTS + 1 }, (_, i) => join(workspace, `mount-${i}`));
  for (const target of targets) writeFileSync(target, '');
  const withBinds = (binds: number) => () =>
    bwrap([
      ...bubblewrapNamespaceArgs(availability.userNamespace),
      ...[
        '--ro-bind',
        '/usr',
        '/usr',
        '--symlink',
        'usr/bin',
        '/bin',
        '--symlink',
        'usr/lib',
        '/lib',
      ],
      ...['--symlink', 'usr/lib64', '/lib64', '--dev', '/dev', '--proc', '/proc'],
      ...['--bind', workspace, workspace],
      ...targets.slice(0, binds).flatMap((target) => ['--ro-bind', '/dev/null', target]),
      '--remount-ro',
      '/',
      '--',
    ]);
  try {
    const plainRun = await measureWithCpu(count, runTrue(undefined, []));
    const plain = row('exec `true`, no sandbox', plainRun.rate, 'runs/s', undefined, plainRun.cpu);
    // The view's first call in a process prepares the /etc view and scans the host's folders
    // (read-view.ts, etc-view.ts), which later calls reuse: measured on its own, then each
    // profile runs once more as a warm-up, so the rows below are the cost of every later call.
    const first = await measureWithCpu(1, denyByDefault);
    await hostReadOnly();
    await denyByDefault();
    Object.assign(building, { cpu: 0, wall: 0, count: 0 });
    // Alternated run by run, so a busy machine slows both alike.
    const [host, view] = await measureAlternating(count * 2, hostReadOnly, denyByDefault);
    const before = row(
      'bwrap `true`, host read-only (before #41)',
      host.rate,
      'runs/s',
      plain,
      host.cpu,
    );
    const [one, many] = await measureAlternating(count * 2, withBinds(1), withBinds(1 + MOUNTS));
    const perMount = (a: Measured, b: Measured) =>
      `+${(((1 / b.rate - 1 / a.rate) * 1000) / MOUNTS).toFixed(2)} ms wall, +${((b.cpu - a.cpu) / MOUNTS).toFixed(2)} ms cpu per bind`;
    const oneBind = row('bwrap `true`, minimal root, 1 bind', one.rate, 'runs/s', plain, one.cpu);
    const noNetwork = await measureWithCpu(count, runTrue(settings, []));
    const proxied = await measureWithCpu(count, runTrue(settings, ['example.com']));
    return [
      plain,
      before,
      row('bwrap `true`, deny-by-default view', view.rate, 'runs/s', before, view.cpu),
      row('bwrap `true`, deny-by-default view ', view.rate, 'runs/s', plain, view.cpu),
      row(
        'building the deny-by-default profile (correx alone, per call)',
        (building.count * 1000) / building.wall,
        'builds/s',
        undefined,
        building.cpu / building.count,
      ),
      row(
        'bwrap `true`, deny-by-default view, first call (prepares /etc)',
        first.rate,
        'runs/s',
        before,
        first.cpu,
      ),
      oneBind,
      row(
        `bwrap \`true\`, ${1 + MOUNTS} binds (${perMount(one, many)})`,
        many.rate,
        'runs/s',
        oneBind,
        many.cpu,
      ),
      row('exec `true` in bubblewrap, no network', noNetwork.rate, 'runs/s', plain, noNetwork.cpu),
      row('exec `true` in bubblewrap, egress proxy', proxied.rate, 'runs/s', plain, proxied.cpu),
    ];
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}

type Measured = { readonly rate: number; readonly cpu: number };

/** Runs `operation` `count` times: its rate per second and CPU milliseconds per run. */
async function measureWithCpu(count: number, operation: () => Promise<unknown>): Promise<Measured> {
  const cpuStart = cpuMillis();
  const rate = await measure(count, operation);
  return { rate, cpu: (cpuMillis() - cpuStart) / count };
}

/** Runs `a` and `b` alternately `count` times each; their rates per second and CPU per run. */
async function measureAlternating(
  count: number,
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
): Promise<[Measured, Measured]> {
  const time = [0n, 0n];
  const cpu = [0, 0];
  for (let index = 0; index < count; index++) {
    for (const [side, run] of [a, b].entries()) {
      const cpuStart = cpuMillis();
      const start = process.hrtime.bigint();
      await run();
      time[side]! += process.hrtime.bigint() - start;
      cpu[side]! += cpuMillis() - cpuStart;
    }
  }
  const measured = (side: number) => ({
    rate: count / (Number(time[side]) / 1e9),
    cpu: cpu[side]! / count,
  });
  return [measured(0), measured(1)];
}

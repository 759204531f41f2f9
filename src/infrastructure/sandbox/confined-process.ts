import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EgressDecision, SandboxProfile } from '../../core/policies/sandbox-profile.js';
import { buildBubblewrapProfile, SANDBOX_PROXY_SOCKET } from './bubblewrap-profile.js';
import { findNeverReadableFiles } from './never-readable-files.js';
import { EGRESS_FORWARDER_SCRIPT } from './egress-forwarder-script.js';
import { startEgressProxy, type EgressProxy, type ResolveHost } from './egress-proxy.js';
import {
  createCallCgroup,
  DEFAULT_MAX_PROCESSES,
  enrolledArgv,
  rlimitArgv,
  type CallCgroup,
} from './pids-limit.js';
import { killProcessGroup } from './process-group.js';
import type { SandboxAvailability } from './sandbox-availability.js';

/**
 * How a runner confines the processes it starts. Built once by the composition root from the
 * detected availability and the policy; a runner without settings runs unconfined and records
 * `sandbox: none` (it never pretends).
 */
export type SandboxSettings = {
  readonly availability: SandboxAvailability;
  /** The policy's never-writable globs; the literal ones inside the workspace become read-only. */
  readonly neverWritable?: readonly string[];
  /** The policy's never-readable globs; the workspace's matching files are bound empty. */
  readonly neverReadable?: readonly string[];
  /** Directories hidden behind an empty one besides the home (correx's home and store). */
  readonly hiddenPaths?: readonly string[];
  /** The policy's grants: paths under the hidden home a process may read. */
  readonly readablePaths?: readonly string[];
  /** The host's system folders shown read-only; default SYSTEM_READABLE_FOLDERS (read-view.ts). */
  readonly systemFolders?: readonly string[];
  /** Resolver for the egress proxy (tests inject one); the system resolver otherwise. */
  readonly resolve?: ResolveHost;
  /** The most tasks one confined call may run at once; default DEFAULT_MAX_PROCESSES. */
  readonly maxProcesses?: number;
};

export type ConfinedProcessRequest = {
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly workspaceRoot: string;
  readonly homeDirectory: string;
  /** The complete environment (already an allowlist); proxy variables are added inside. */
  readonly env: Readonly<Record<string, string>>;
  readonly searchPath: string;
  /** Hosts the process may reach through the proxy; empty means no network at all. */
  readonly egressAllowlist: readonly string[];
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  readonly onOutput: (chunk: Buffer) => void;
};

export type ConfinedProcessResult = {
  readonly exitCode: number | null;
  readonly ending: 'exited' | 'timed_out' | 'aborted' | 'failed_to_start';
  readonly error: string | null;
  readonly profile: SandboxProfile;
  /** The proxy's decisions, when the network went through it. */
  readonly egress?: EgressDecision[];
};

/**
 * Runs one process to its end under the configured confinement, as the leader of a new process
 * group. A timeout or an abort SIGKILLs the group; with bubblewrap the process is also PID 1's
 * only child in a new PID namespace, and when it (or bwrap) exits the kernel kills everything
 * left in the namespace, so nothing it started outlives the call, not even a process that
 * left the group. Unconfined, the group is killed when the leader exits, which catches `cmd &`.
 */
export async function runConfinedProcess(
  request: ConfinedProcessRequest,
  settings: SandboxSettings | undefined,
): Promise<ConfinedProcessResult> {
  const availability = settings?.availability ?? {
    kind: 'none' as const,
    reason: 'no sandbox was configured for this runner',
  };
  let proxy: EgressProxy | null = null;
  let proxyDir: string | null = null;
  let cgroup: CallCgroup | null = null;
  let command: string;
  let args: string[];
  let profile: SandboxProfile;
  try {
    if (availability.kind === 'bubblewrap') {
      if (request.egressAllowlist.length > 0) {
        proxyDir = mkdtempSync(join(tmpdir(), 'correx-egress-'));
        proxy = await startEgressProxy({
          socketPath: join(proxyDir, 'proxy.sock'),
          allowlist: request.egressAllowlist,
          ...(settings?.resolve === undefined ? {} : { resolve: settings.resolve }),
        });
      }
      const built = buildBubblewrapProfile({
        bwrapPath: availability.bwrapPath,
        userNamespace: availability.userNamespace,
        workspaceRoot: request.workspaceRoot,
        cwd: request.cwd,
        homeDirectory: request.homeDirectory,
        neverWritable: settings?.neverWritable ?? [],
        emptiedFiles: findNeverReadableFiles(request.workspaceRoot, settings?.neverReadable ?? []),
        neverReadable: settings?.neverReadable ?? [],
        ...(settings?.systemFolders === undefined ? {} : { systemFolders: settings.systemFolders }),
        hiddenPaths: settings?.hiddenPaths ?? [],
        readablePaths: settings?.readablePaths ?? [],
        searchPath: request.searchPath,
        proxySocket: proxy?.socketPath ?? null,
        allowedHosts: request.egressAllowlist,
      });
      // A pids limit per call: a cgroup's pids.max where one can be made, else RLIMIT_NPROC
      // inside the user namespace; neither (no cgroup, no user namespace) records no limit.
      const maxProcesses = settings?.maxProcesses ?? DEFAULT_MAX_PROCESSES;
      cgroup = await createCallCgroup(maxProcesses);
      const rlimited = cgroup === null && availability.userNamespace;
      const program = rlimited ? rlimitArgv(maxProcesses, request.argv) : [...request.argv];
      const inside = [
        ...built.args,
        ...(proxy === null
          ? program
          : [
              process.execPath,
              '-e',
              EGRESS_FORWARDER_SCRIPT,
              '--',
              SANDBOX_PROXY_SOCKET,
              ...program,
            ]),
      ];
      if (cgroup === null) {
        command = built.command;
        args = inside;
      } else {
        [command = built.command, ...args] = enrolledArgv(cgroup, [built.command, ...inside]);
      }
      const pidsLimit =
        cgroup !== null
          ? { max: maxProcesses, mechanism: cgroup.mechanism }
          : rlimited
            ? { max: maxProcesses, mechanism: 'rlimit-nproc' as const }
            : undefined;
      profile = { ...built.profile, ...(pidsLimit === undefined ? {} : { pidsLimit }) };
    } else {
      const [program, ...rest] = request.argv;
      command = program!;
      args = rest;
      profile = unconfinedProfile(availability.reason);
    }
    const run = await spawnAndWait(command, args, request);
    return {
      ...run,
      profile,
      ...(proxy === null ? {} : { egress: proxy.decisions() }),
    };
  } finally {
    await cgroup?.remove();
    await proxy?.close();
    if (proxyDir !== null) rmSync(proxyDir, { recursive: true, force: true });
  }
}

/** The profile recorded for a process that ran without confinement, and why. */
export function unconfinedProfile(reason: string): SandboxProfile {
  return {
    kind: 'none',
    network: 'host',
    writable: ['/'],
    readOnly: [],
    hidden: [],
    granted: [],
    allowedHosts: [],
    reason,
  };
}

function spawnAndWait(
  command: string,
  args: readonly string[],
  request: ConfinedProcessRequest,
): Promise<Omit<ConfinedProcessResult, 'profile' | 'egress'>> {
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn(command, args, {
        cwd: request.cwd,
        env: request.env,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (error) {
      resolve({
        exitCode: null,
        ending: 'failed_to_start',
        error: error instanceof Error ? error.message : String(error),
      });
      return;
    }
    let ending: 'timed_out' | 'aborted' | null = null;
    const stop = (why: 'timed_out' | 'aborted') => {
      ending ??= why;
      killProcessGroup(child.pid);
    };
    child.stdout.on('data', request.onOutput);
    child.stderr.on('data', request.onOutput);
    // Anything the leader left running in its group (`cmd &`) goes with it.
    child.once('exit', () => killProcessGroup(child.pid));
    const timer = setTimeout(() => stop('timed_out'), request.timeoutMs);
    const onAbort = () => stop('aborted');
    request.signal?.addEventListener('abort', onAbort, { once: true });
    if (request.signal?.aborted === true) onAbort();
    let settled = false;
    const settle = (result: Omit<ConfinedProcessResult, 'profile' | 'egress'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      resolve(result);
    };
    child.once('error', (error) =>
      settle({ exitCode: null, ending: ending ?? 'failed_to_start', error: error.message }),
    );
    child.once('close', (code) =>
      settle({ exitCode: ending === null ? code : null, ending: ending ?? 'exited', error: null }),
    );
  });
}

import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SandboxProfile } from '../../core/policies/sandbox-profile.js';

/** The default process bound of one confined call: room for a build's workers, not a fork bomb. */
export const DEFAULT_MAX_PROCESSES = 512;

export type PidsLimitMechanism = NonNullable<SandboxProfile['pidsLimit']>['mechanism'];

/** A pids-limited cgroup made for one call; `procsFile` is where the call's first process enrolls itself. */
export type CallCgroup = {
  readonly mechanism: 'cgroup-v2' | 'cgroup-v1';
  readonly max: number;
  readonly procsFile: string;
  /** Removes the cgroup once the call's processes are gone (best effort: it never fails a call). */
  remove(): Promise<void>;
};

type Mount = { readonly path: string; readonly type: string; readonly options: string[] };

function mounts(): Mount[] {
  try {
    return readFileSync('/proc/self/mounts', 'utf8')
      .split('\n')
      .map((line) => line.split(' '))
      .filter((fields) => fields.length >= 4)
      .map((fields) => ({
        path: fields[1]!.replace(/\\040/g, ' '),
        type: fields[2]!,
        options: fields[3]!.split(','),
      }));
  } catch {
    return [];
  }
}

/** This process's cgroup path per hierarchy: `''` for v2, the controller list for v1. */
function ownCgroups(): Map<string, string> {
  const own = new Map<string, string>();
  try {
    for (const line of readFileSync('/proc/self/cgroup', 'utf8').split('\n')) {
      const [, controllers, path] = /^\d+:([^:]*):(.*)$/.exec(line) ?? [];
      if (controllers !== undefined && path !== undefined) own.set(controllers, path);
    }
  } catch {
    // No cgroups readable: the caller falls back to RLIMIT_NPROC.
  }
  return own;
}

/**
 * The folders under which a per-call cgroup with a pids controller can be made, best first: the
 * cgroup v2 folder of this process when it delegates `pids` to children, then the v1 pids
 * hierarchy at this process's place in it.
 */
function cgroupParents(): { mechanism: 'cgroup-v2' | 'cgroup-v1'; dir: string }[] {
  const own = ownCgroups();
  const found: { mechanism: 'cgroup-v2' | 'cgroup-v1'; dir: string }[] = [];
  for (const mount of mounts()) {
    if (mount.type === 'cgroup2' && own.has('')) {
      const dir = join(mount.path, own.get('')!);
      try {
        const delegated = readFileSync(join(dir, 'cgroup.subtree_control'), 'utf8');
        if (delegated.split(/\s+/).includes('pids')) found.push({ mechanism: 'cgroup-v2', dir });
      } catch {
        // Not readable: not usable.
      }
    }
  }
  for (const mount of mounts()) {
    if (mount.type === 'cgroup' && mount.options.includes('pids')) {
      const path = [...own].find(([controllers]) => controllers.split(',').includes('pids'))?.[1];
      if (path !== undefined) found.push({ mechanism: 'cgroup-v1', dir: join(mount.path, path) });
    }
  }
  return found;
}

/**
 * Makes a cgroup bounded to `max` tasks for one call, or returns null when no writable pids
 * controller is reachable (then the sandbox bounds processes with RLIMIT_NPROC instead).
 */
export async function createCallCgroup(max: number): Promise<CallCgroup | null> {
  for (const parent of cgroupParents()) {
    const dir = join(parent.dir, `correx-call-${randomUUID()}`);
    try {
      await mkdir(dir);
    } catch {
      continue;
    }
    try {
      await writeFile(join(dir, 'pids.max'), String(max));
      return {
        mechanism: parent.mechanism,
        max,
        procsFile: join(dir, 'cgroup.procs'),
        remove: () => removeCgroup(dir),
      };
    } catch {
      await rmdir(dir).catch(() => undefined);
    }
  }
  return null;
}

/** A cgroup can be removed only once empty; the call's processes may take a moment to be reaped. */
async function removeCgroup(dir: string): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    try {
      await rmdir(dir);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      const procs = await readFile(join(dir, 'cgroup.procs'), 'utf8').catch(() => '');
      for (const pid of procs.split('\n').filter((line) => line !== '')) {
        try {
          process.kill(Number(pid), 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

/**
 * The argv that enrolls itself in `cgroup` and then becomes `argv`: the first process joins
 * before anything can fork, so every descendant is counted.
 */
export function enrolledArgv(cgroup: CallCgroup, argv: readonly string[]): string[] {
  return ['/bin/sh', '-c', 'echo $$ > "$0" && exec "$@"', cgroup.procsFile, ...argv];
}

/**
 * The argv that sets RLIMIT_NPROC to `max` and then becomes `argv`. Run inside the sandbox's
 * new user namespace, where the count is of that namespace's processes only (Linux 5.14+
 * ucounts); it does not bind a process whose real user is root on the host, which is why a
 * cgroup comes first. `ulimit -u` is bash's spelling, `-p` dash's.
 */
export function rlimitArgv(max: number, argv: readonly string[]): string[] {
  return [
    '/bin/sh',
    '-c',
    `{ ulimit -u ${max} || ulimit -p ${max}; } 2>/dev/null && exec "$@"`,
    'sh',
    ...argv,
  ];
}

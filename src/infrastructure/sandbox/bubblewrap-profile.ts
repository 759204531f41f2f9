import { lstatSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative } from 'node:path';
import {
  SANDBOX_PRIVATE_FOLDERS,
  type SandboxProfile,
} from '../../core/policies/sandbox-profile.js';
import { gitPathsOf, linkedGitDirectories } from '../workspace/git-paths.js';
import { buildHostReadView } from './read-view.js';
import { bubblewrapNamespaceArgs } from './sandbox-availability.js';

/** Where the egress proxy's Unix socket appears inside the sandbox (in the private /tmp). */
export const SANDBOX_PROXY_SOCKET = '/tmp/.correx-egress.sock';

export type BubblewrapProfileInput = {
  readonly bwrapPath: string;
  readonly userNamespace: boolean;
  readonly workspaceRoot: string;
  readonly cwd: string;
  readonly homeDirectory: string;
  /** The policy's never-writable globs; the literal ones inside the workspace are bound read-only. */
  readonly neverWritable: readonly string[];
  /** Workspace files bound empty (read-only /dev/null): the never-readable ones. */
  readonly emptiedFiles?: readonly string[];
  /** More directories to replace with an empty one (correx's home and store). */
  readonly hiddenPaths: readonly string[];
  /** Host paths outside the system folders to make readable (policy grants, a program's own folder). */
  readonly readablePaths: readonly string[];
  /** The policy's never-readable globs, applied to /etc and the grants (see read-view.ts). */
  readonly neverReadable?: readonly string[];
  /** The trusted PATH; the toolchain folder of each entry is readable so programs resolve. */
  readonly searchPath: string;
  /** The system folders shown read-only; default SYSTEM_READABLE_FOLDERS (tests give their own). */
  readonly systemFolders?: readonly string[];
  /** The host side of the egress proxy's socket, or null for no network at all. */
  readonly proxySocket: string | null;
  readonly allowedHosts: readonly string[];
};

export type BubblewrapProfile = {
  readonly command: string;
  /** bwrap's arguments up to and including `--`; the program's argv follows. */
  readonly args: readonly string[];
  readonly profile: SandboxProfile;
};

/**
 * The bwrap command line for one process: every namespace new (PID, network, IPC, UTS, and
 * the user namespace where allowed), no capabilities, and a file view that is deny-by-default
 * (read-view.ts): the system's program, library and configuration folders read-only with their
 * secrets emptied, the trusted toolchains and the policy's grants read-only, the home, /tmp and
 * /run empty private directories, the workspace writable except the protected paths, and, when
 * egress is allowed, the proxy's socket. Nothing else of the host exists inside. Mount order
 * matters: a later mount covers an earlier one, so the workspace is bound after the home is
 * hidden, and the root itself is made read-only last.
 */
export function buildBubblewrapProfile(input: BubblewrapProfileInput): BubblewrapProfile {
  const view = buildHostReadView({
    workspaceRoot: input.workspaceRoot,
    homeDirectory: input.homeDirectory,
    searchPath: input.searchPath,
    readablePaths: input.readablePaths,
    neverReadable: input.neverReadable ?? [],
    repositoryPaths: linkedGitDirectories(input.workspaceRoot),
    ...(input.systemFolders === undefined ? {} : { systemFolders: input.systemFolders }),
  });
  const args: string[] = [
    ...bubblewrapNamespaceArgs(input.userNamespace),
    ...view.systemArgs,
    '--dev',
    '/dev',
    '--proc',
    '/proc',
  ];
  const hidden: string[] = [...view.hidden];
  const hide = (path: string) => {
    if (hidden.includes(path) || !isDirectory(path) || path === '/') return;
    args.push('--tmpfs', path);
    hidden.push(path);
  };
  for (const path of SANDBOX_PRIVATE_FOLDERS) hide(path);
  // Sockets of host daemons (docker, dbus) live here; with no folder at all some programs fail.
  hide('/run');
  hide(input.homeDirectory);
  for (const path of input.hiddenPaths) hide(path);
  args.push(...view.grantArgs);

  args.push('--bind', input.workspaceRoot, input.workspaceRoot);
  const readOnly: string[] = [];
  for (const path of protectedWorkspacePaths(input.workspaceRoot, input.neverWritable)) {
    const stat = lstatOrNull(path);
    if (stat !== null && !stat.isSymbolicLink()) {
      args.push('--ro-bind', path, path);
      readOnly.push(path);
    } else if (stat === null && basename(path) === 'hooks' && isDirectory(dirname(path))) {
      // A repository without a hooks directory must not gain one: an empty read-only one
      // takes its place for the call (git recreates the same empty directory on its own).
      args.push('--tmpfs', path, '--remount-ro', path);
      readOnly.push(path);
    }
  }
  // `.git` in any form, bound after the protected paths it covers (see gitPathsOf).
  for (const path of gitPathsOf(input.workspaceRoot)) {
    if (readOnly.includes(path)) continue;
    args.push('--ro-bind', path, path);
    readOnly.push(path);
  }
  for (const path of input.emptiedFiles ?? []) {
    const stat = lstatOrNull(path);
    if (stat === null || !stat.isFile()) continue;
    args.push('--ro-bind', '/dev/null', path);
    hidden.push(path);
  }
  if (input.proxySocket !== null) args.push('--bind', input.proxySocket, SANDBOX_PROXY_SOCKET);
  // The sandbox's own root is a tmpfs bwrap made: nothing may be written there either.
  args.push('--remount-ro', '/', '--chdir', input.cwd, '--');
  return {
    command: input.bwrapPath,
    args,
    profile: {
      kind: 'bubblewrap',
      network: input.proxySocket === null ? 'none' : 'proxy',
      writable: [input.workspaceRoot],
      readOnly,
      hidden,
      granted: [...view.granted],
      allowedHosts: input.proxySocket === null ? [] : [...input.allowedHosts],
      reason: null,
    },
  };
}

/**
 * The never-writable entries that name one concrete path inside the workspace (`.git/hooks/**`
 * → `<ws>/.git/hooks`, `.git/config`, `harness.yaml`, an absolute path under the workspace).
 * Patterns with wildcards in the middle (`**\/.git/hooks/**`) cannot become mounts; the static
 * rules still refuse them as write targets.
 */
export function protectedWorkspacePaths(
  workspaceRoot: string,
  neverWritable: readonly string[],
): string[] {
  const paths: string[] = [];
  for (const pattern of neverWritable) {
    if (pattern.startsWith('~')) continue;
    const literal = pattern.endsWith('/**') ? pattern.slice(0, -3) : pattern;
    if (literal === '' || /[*?[\]{}]/.test(literal)) continue;
    const absolute = isAbsolute(literal) ? literal : join(workspaceRoot, literal);
    if (absolute !== workspaceRoot && inside(absolute, workspaceRoot) && !paths.includes(absolute))
      paths.push(absolute);
  }
  return paths;
}

function inside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

function isDirectory(path: string): boolean {
  return lstatOrNull(path)?.isDirectory() ?? false;
}

function lstatOrNull(path: string) {
  try {
    // No exception for a path that is not there (most of them): building one costs more than
    // the lstat itself.
    return lstatSync(path, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}

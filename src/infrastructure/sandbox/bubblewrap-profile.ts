import { existsSync, lstatSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative } from 'node:path';
import type { SandboxProfile } from '../../core/policies/sandbox-profile.js';
import { gitPathsOf } from '../workspace/git-paths.js';
import { bubblewrapBaseArgs } from './sandbox-availability.js';

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
  /** Paths under a hidden directory to make readable again (policy grants). */
  readonly readablePaths: readonly string[];
  /** The trusted PATH; its directories under a hidden one stay readable so programs resolve. */
  readonly searchPath: string;
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
 * the user namespace where allowed), no capabilities, the host read-only, the home, /tmp and
 * /run replaced by empty private directories, the workspace writable except the protected
 * paths, and, when egress is allowed, the proxy's socket bound in. Mount order matters: a
 * later mount covers an earlier one, so the workspace is bound after the home is hidden.
 */
export function buildBubblewrapProfile(input: BubblewrapProfileInput): BubblewrapProfile {
  const args: string[] = bubblewrapBaseArgs(input.userNamespace);
  const hidden: string[] = [];
  const hide = (path: string) => {
    if (hidden.includes(path) || !isDirectory(path) || path === '/') return;
    args.push('--tmpfs', path);
    hidden.push(path);
  };
  hide('/tmp');
  hide('/var/tmp');
  // Sockets of host daemons (docker, dbus) live here; a read-only bind would still let a
  // process connect to them.
  hide('/run');
  hide(input.homeDirectory);
  for (const path of input.hiddenPaths) hide(path);

  const granted: string[] = [];
  /** Binds `path` read-only if it lies in a hidden directory; `strict` refuses the directory itself. */
  const grant = (path: string, strict: boolean): boolean => {
    if (!existsSync(path)) return false;
    const real = realpathSync(path);
    if (strict && hidden.includes(real)) return false;
    if (!hidden.some((dir) => inside(real, dir))) return false;
    if (!granted.includes(real)) {
      args.push('--ro-bind', real, real);
      granted.push(real);
    }
    return true;
  };
  for (const path of input.readablePaths) grant(expandHome(path, input.homeDirectory), false);
  // A `bin` directory under the home (nvm, a venv) needs its prefix, the libraries beside it,
  // but never the whole home (`~/bin`).
  const programDirs = [...input.searchPath.split(':'), dirname(process.execPath)];
  for (const dir of programDirs.filter((entry) => isAbsolute(entry))) {
    if (!(basename(dir) === 'bin' && grant(dirname(dir), true))) grant(dir, true);
  }

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
  args.push('--chdir', input.cwd, '--');
  return {
    command: input.bwrapPath,
    args,
    profile: {
      kind: 'bubblewrap',
      network: input.proxySocket === null ? 'none' : 'proxy',
      writable: [input.workspaceRoot],
      readOnly,
      hidden,
      granted,
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

function expandHome(path: string, home: string): string {
  if (path === '~') return home;
  return path.startsWith('~/') ? join(home, path.slice(2)) : path;
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
    return lstatSync(path);
  } catch {
    return null;
  }
}

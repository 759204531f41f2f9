import { existsSync, lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { copiesUnchanged, prepareEtcView, type PreparedEtcView } from './etc-view.js';
import { findNeverReadableFilesUnder } from './never-readable-files.js';
import {
  changedRecently,
  foldersUnchanged,
  lstatWatched,
  resolveWatched,
  stampOf,
  type FolderStamp,
} from './watched-folders.js';

/**
 * The host folders every confined process sees, read-only: programs, libraries and the system's
 * configuration, plus the package databases `dpkg -l` and `rpm -qa` read. Anything else of the
 * host (other repositories, /srv, /opt, /root, /home, /mnt, /media, /var) is absent unless the
 * trusted PATH or a policy grant names it: the view is deny-by-default.
 */
export const SYSTEM_READABLE_FOLDERS: readonly string[] = [
  '/usr',
  '/bin',
  '/sbin',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/etc',
  '/sys',
  '/var/lib/dpkg',
  '/var/lib/rpm',
];

/** Secret-bearing folders of an `etc` folder in the view, shown as an empty read-only folder. */
export const ETC_SECRET_FOLDERS: readonly string[] = [
  'ssl/private',
  'pki/tls/private',
  'credstore',
  'credstore.encrypted',
  'NetworkManager/system-connections',
  'wireguard',
  'ipsec.d/private',
];

/** Secret-bearing files of an `etc` folder in the view (globs below it), shown empty. */
export const ETC_SECRET_FILES: readonly string[] = [
  'shadow',
  'shadow-',
  'gshadow',
  'gshadow-',
  'security/opasswd',
  'ssh/*_key',
  'krb5.keytab',
  'ppp/*-secrets',
  '**/*credentials*',
];

/** Public certificate stores of an `etc` folder: never emptied. */
const ETC_TRUST_STORES = ['ssl/certs', 'pki/ca-trust', 'pki/tls/certs', 'ca-certificates'];

/** Files at the top of a toolchain's folder that hold registry credentials (cargo, npm, pip). */
const TOOLCHAIN_SECRET_FILES = ['credentials', 'credentials.toml', '.npmrc', '.netrc', '.pypirc'];

export type HostReadViewInput = {
  readonly workspaceRoot: string;
  readonly homeDirectory: string;
  /** The trusted PATH: each toolchain folder on it becomes readable. */
  readonly searchPath: string;
  /** The policy's grants (and a configured program's own folders). */
  readonly readablePaths: readonly string[];
  /** Folders shown read-only without a never-readable walk (a worktree's git directories). */
  readonly repositoryPaths?: readonly string[];
  /** The policy's never-readable globs: applied to /etc and to every grant too. */
  readonly neverReadable: readonly string[];
  /** Tests give folders of their own; default SYSTEM_READABLE_FOLDERS. */
  readonly systemFolders?: readonly string[];
};

export type HostReadView = {
  /** The system folders (and the secrets covered inside them): mounted first, on an empty root. */
  readonly systemArgs: readonly string[];
  /** Grants and toolchains: mounted after the private home and /tmp, before the workspace. */
  readonly grantArgs: readonly string[];
  readonly granted: readonly string[];
  /** Secrets inside what is shown, replaced by an empty file or folder. */
  readonly hidden: readonly string[];
};

/**
 * The read-only part of a sandbox's file view. The sandbox's root starts empty; only what this
 * returns (and the workspace, the private home and /tmp the profile adds) exists inside it.
 */
export function buildHostReadView(input: HostReadViewInput): HostReadView {
  const host = hostFolders(input);
  const systemArgs = [...host.systemArgs];
  const shown = host.shown;
  const hidden: string[] = [];
  const cover = (args: string[], path: string) => {
    const stat = lstatOrNull(path);
    if (stat === null || hidden.includes(path)) return;
    if (stat.isDirectory()) args.push('--tmpfs', path, '--remount-ro', path);
    else if (stat.isFile()) args.push('--ro-bind', '/dev/null', path);
    else return;
    hidden.push(path);
  };
  // Each `etc` folder shown (the host's, or one a test gives) loses its secrets, and every file
  // in it matching a never-readable glob: the scan is small (/usr, far larger, is not scanned).
  // The result is one prepared folder bound in `etc`'s place (etc-view.ts): a mount per secret
  // would cost every call more than the rest of the view.
  for (const etc of shown.filter((folder) => basename(folder) === 'etc')) {
    const state = etcState(etc, [...ETC_SECRET_FILES, ...input.neverReadable], input.homeDirectory);
    const bind = systemArgs.findIndex(
      (arg, index) => arg === '--ro-bind' && systemArgs[index + 1] === etc,
    );
    if (state.view !== null && bind >= 0) {
      systemArgs[bind + 1] = state.view.path;
      for (const path of [...state.folders, ...state.files])
        if (!hidden.includes(path)) hidden.push(path);
    } else {
      for (const folder of state.folders) cover(systemArgs, folder);
      for (const file of state.files) cover(systemArgs, file);
    }
  }

  const grantArgs: string[] = [];
  const granted: string[] = [];
  const visible = (real: string) =>
    shown.some((dir) => inside(real, dir)) || granted.some((dir) => inside(real, dir));
  const bindResolved = (real: string, named: string): boolean => {
    if (real === '/' || visible(real)) return false;
    grantArgs.push('--ro-bind', real, real);
    granted.push(real);
    // Reached through a link (a linked node_modules): the program names the linked path, which
    // exists inside only if it is bound too.
    if (named !== real && !visible(named)) {
      grantArgs.push('--ro-bind', real, named);
      granted.push(named);
    }
    return true;
  };
  const grant = (path: string): string | null => {
    if (!existsSync(path)) return null;
    const real = realpathSync(path);
    return bindResolved(real, resolve(path)) ? real : null;
  };
  // Grants are looked at afresh on every call, their never-readable walk included.
  for (const path of input.readablePaths) {
    const real = grant(expandHome(path, input.homeDirectory));
    if (real === null) continue;
    for (const file of findNeverReadableFilesUnder(real, input.neverReadable, input.homeDirectory))
      cover(grantArgs, file);
  }
  // Outer folders first, so a worktree's gitdir inside the common .git costs no mount of its own.
  const repositories = [...(input.repositoryPaths ?? [])].sort((a, b) => a.length - b.length);
  for (const path of repositories) grant(path);
  for (const toolchain of host.toolchains) {
    if (!bindResolved(toolchain.real, toolchain.named)) continue;
    for (const secret of toolchain.secrets) {
      if (hidden.includes(secret.path)) continue;
      if (secret.folder) grantArgs.push('--tmpfs', secret.path, '--remount-ro', secret.path);
      else grantArgs.push('--ro-bind', '/dev/null', secret.path);
      hidden.push(secret.path);
    }
  }
  return { systemArgs, grantArgs, granted, hidden };
}

/** The part of a view that depends on the host's folders only, not on the call or the policy. */
type HostFolders = {
  /** The system folders' mounts, `etc` still bound as itself. */
  readonly systemArgs: readonly string[];
  readonly shown: readonly string[];
  /** The toolchain folder of each trusted PATH entry, in PATH order. */
  readonly toolchains: readonly Toolchain[];
};

type Toolchain = {
  /** Its real path, and the path the PATH names it by (bound too when they differ). */
  readonly real: string;
  readonly named: string;
  /** Registry credentials at its top that exist now: shown empty. */
  readonly secrets: readonly { readonly path: string; readonly folder: boolean }[];
};

type HostFoldersScan = HostFolders & {
  /** Every folder whose entries the scan depended on, as it was. */
  readonly stamps: ReadonlyMap<string, FolderStamp>;
};

/** By system folders, trusted PATH, home and workspace (which decide the toolchain folders). */
const hostScans = new Map<string, HostFoldersScan>();
let hostScanCount = 0;
let hostReuseCount = 0;

/** How often the host's folders were scanned and how often a scan was reused (for tests). */
export function hostFolderScanCounts(): { readonly scans: number; readonly reuses: number } {
  return { scans: hostScanCount, reuses: hostReuseCount };
}

/**
 * The system folders and the toolchains on the trusted PATH, resolved once and reused while
 * every folder the resolution read is unchanged (watched-folders.ts): a folder created,
 * removed, renamed or swapped for a link anywhere on the way changes a watched folder's ctime,
 * and the next call scans again. Checking costs one lstat per watched folder (five for the
 * default PATH) instead of resolving every system folder and PATH entry on each call. A scan
 * that read a folder changed in the last RECENT_CHANGE_MARGIN_MS is not kept.
 */
function hostFolders(input: HostReadViewInput): HostFolders {
  const systemFolders = input.systemFolders ?? SYSTEM_READABLE_FOLDERS;
  const key = JSON.stringify([
    systemFolders,
    input.searchPath,
    process.execPath,
    input.homeDirectory,
    input.workspaceRoot,
  ]);
  const cached = hostScans.get(key);
  if (cached !== undefined && foldersUnchanged(cached.stamps)) {
    hostReuseCount += 1;
    return cached;
  }
  hostScans.delete(key);
  const startedAt = Date.now();
  // Each folder is stamped when first met, before its entries are read: a change after that
  // moment, even one during the scan, leaves a different stamp for the next call to see.
  const stamps = new Map<string, FolderStamp>();
  let unstamped = false;
  const watch = (folder: string) => {
    if (stamps.has(folder)) return;
    const stamp = stampOf(folder);
    if (stamp === null) unstamped = true;
    else stamps.set(folder, stamp);
  };
  const systemArgs: string[] = [];
  const shown: string[] = [];
  for (const folder of systemFolders) {
    const stat = lstatWatched(folder, watch);
    if (stat === null) continue;
    if (stat.isSymbolicLink() && dirname(folder) === '/') {
      // Merged /usr: `/bin -> usr/bin` stays a link, so paths resolve as on the host.
      systemArgs.push('--symlink', readlinkSync(folder), folder);
    } else if (stat.isDirectory()) {
      systemArgs.push('--ro-bind', folder, folder);
      shown.push(folder);
    }
  }
  const toolchains: Toolchain[] = [];
  const programDirs = [...input.searchPath.split(':'), dirname(process.execPath)];
  for (const dir of programDirs) {
    if (!isAbsolute(dir) || resolveWatched(dir, watch) === null) continue;
    const folder = toolchainFolder(resolve(dir), input);
    if (folder === null) continue;
    const real = resolveWatched(folder, watch);
    if (real === null || real === '/') continue;
    const secrets: { path: string; folder: boolean }[] = [];
    for (const name of TOOLCHAIN_SECRET_FILES) {
      const path = join(folder, name);
      const stat = lstatWatched(path, watch);
      if (stat?.isDirectory() === true) secrets.push({ path, folder: true });
      else if (stat?.isFile() === true) secrets.push({ path, folder: false });
    }
    toolchains.push({ real, named: resolve(folder), secrets });
  }
  hostScanCount += 1;
  const scan = { systemArgs, shown, toolchains };
  if (unstamped || changedRecently(stamps, startedAt)) return scan;
  hostScans.set(key, { ...scan, stamps });
  // A long-lived server sees few workspaces at once; the oldest scan goes past a handful.
  if (hostScans.size > 16) hostScans.delete(hostScans.keys().next().value!);
  return scan;
}

type EtcState = {
  /** Secret folders that exist: shown empty. */
  readonly folders: readonly string[];
  /** Secret and never-readable files outside the trust stores: shown empty. */
  readonly files: readonly string[];
  /** The prepared folder shown in `etc`'s place, or null to cover each secret with a mount. */
  readonly view: PreparedEtcView | null;
};

type EtcScan = EtcState & {
  readonly key: string;
  /** Every folder the scan read, with its mtime: a file created, removed or renamed changes it. */
  readonly scanned: Map<string, bigint>;
  checkedAt: number;
};
/** By `etc` folder and globs: the host's /etc, and in tests a folder of their own beside it. */
const etcScans = new Map<string, EtcScan>();

/** How long a checked /etc scan is reused without looking at its folders again. */
export const ETC_SCAN_RECHECK_MS = 2_000;

/**
 * What to empty in an `etc` folder, and the prepared view that does it, scanned and built once
 * and reused while no folder in it changed (a file created, removed or renamed changes its
 * folder's mtime) and no copied file changed, looked at again at most every
 * ETC_SCAN_RECHECK_MS and whenever the folder itself changed: /etc is part of every confined
 * call, and walking it each time would cost more than the sandbox itself. Only root creates
 * files there; docs/sandbox.md states the bound.
 */
function etcState(etc: string, globs: readonly string[], home: string): EtcState {
  // A `~/` glob can match under `etc` only when one folder holds the other: otherwise the home
  // plays no part, and a runner with a home of its own (an MCP server, a hook) shares the view.
  const related = home !== '' && (inside(etc, home) || inside(home, etc));
  const key = JSON.stringify([etc, globs, related ? home : null]);
  const now = Date.now();
  const cached = etcScans.get(key);
  if (cached?.key === key && statOrNull(etc)?.mtimeNs === cached.scanned.get(etc)) {
    if (now - cached.checkedAt < ETC_SCAN_RECHECK_MS) return cached;
    if (unchanged(cached.scanned) && (cached.view === null || copiesUnchanged(cached.view))) {
      cached.checkedAt = now;
      return cached;
    }
  }
  const scanned = new Map<string, bigint>();
  const matching = findNeverReadableFilesUnder(etc, globs, home, undefined, (folder) => {
    const stat = statOrNull(folder);
    if (stat !== null) scanned.set(folder, stat.mtimeNs);
  });
  const folders = ETC_SECRET_FOLDERS.map((folder) => join(etc, folder)).filter((folder) =>
    lstatOrNull(folder)?.isDirectory(),
  );
  // Certificates of the public trust stores are no secret (`*.pem` would match them), and
  // TLS through the egress proxy needs them.
  const kept = [...folders, ...ETC_TRUST_STORES.map((folder) => join(etc, folder))];
  const files = matching.filter(
    (file) => !kept.some((folder) => inside(file, folder)) && lstatOrNull(file)?.isFile(),
  );
  const view = prepareEtcView({ etc, emptyFiles: files, emptyFolders: folders });
  const scan: EtcScan = { key, scanned, folders, files, view, checkedAt: now };
  etcScans.delete(key);
  etcScans.set(key, scan);
  // A long-lived server sees few policies; the oldest scan goes past a handful.
  if (etcScans.size > 8) etcScans.delete(etcScans.keys().next().value!);
  return scan;
}

function unchanged(folders: ReadonlyMap<string, bigint>): boolean {
  for (const [folder, mtime] of folders) if (statOrNull(folder)?.mtimeNs !== mtime) return false;
  return true;
}

function statOrNull(path: string) {
  return statSync(path, { bigint: true, throwIfNoEntry: false }) ?? null;
}

/**
 * The folder to show for one PATH entry: a `bin` (or `sbin`, `shims`) folder's prefix, which
 * holds the libraries beside it (`/opt/node/bin` → `/opt/node`, an nvm or pyenv root), unless
 * that prefix is a top-level folder, the home, or holds the home or the workspace (then only the
 * entry itself: `~/bin`, `/opt/bin`). Never `/`, the home, or a folder holding the workspace.
 */
function toolchainFolder(dir: string, input: HostReadViewInput): string | null {
  // A runner may have no home of its own to protect (a hook run without one).
  const holds = (folder: string) =>
    [input.homeDirectory, input.workspaceRoot].some(
      (path) => typeof path === 'string' && path !== '' && inside(path, folder),
    );
  const prefix = dirname(dir);
  const tooWide = prefix === '/' || dirname(prefix) === '/' || holds(prefix);
  if (['bin', 'sbin', 'shims'].includes(basename(dir)) && !tooWide) return prefix;
  return dir === '/' || holds(dir) ? null : dir;
}

function expandHome(path: string, home: string): string {
  if (path === '~') return home;
  return path.startsWith('~/') ? join(home, path.slice(2)) : path;
}

function inside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

function lstatOrNull(path: string) {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}

import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';

/**
 * Whether processes can be confined on this machine. Detected once at start; the kind is a
 * plain value the kernel configuration is built from (so a replay rebuilds the same tiers).
 */
export type SandboxAvailability =
  | {
      readonly kind: 'bubblewrap';
      readonly bwrapPath: string;
      readonly version: string;
      /** Whether `--unshare-user` works here (then capabilities are gone entirely). */
      readonly userNamespace: boolean;
    }
  | { readonly kind: 'none'; readonly reason: string };

export type DetectSandboxOptions = {
  /** Where bwrap may live; never looked up on the caller's PATH, which a workspace could shadow. */
  readonly candidates?: readonly string[];
  readonly platform?: NodeJS.Platform;
};

const DEFAULT_CANDIDATES = ['/usr/bin/bwrap', '/usr/local/bin/bwrap', '/bin/bwrap'];

/** The namespaces every sandboxed process gets; the probe runs exactly these. */
export const BUBBLEWRAP_NAMESPACE_FLAGS = [
  '--die-with-parent',
  '--new-session',
  '--unshare-pid',
  '--unshare-net',
  '--unshare-ipc',
  '--unshare-uts',
  '--unshare-cgroup-try',
] as const;

/**
 * What every confined process starts from: new namespaces, no capabilities, the host read-only,
 * fresh /dev and /proc. The profile adds its mounts after these; detection probes exactly these.
 */
export function bubblewrapBaseArgs(userNamespace: boolean): string[] {
  return [
    ...bubblewrapNamespaceArgs(userNamespace),
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
  ];
}

/** New namespaces and no capabilities: what every confined process starts from, before any mount. */
export function bubblewrapNamespaceArgs(userNamespace: boolean): string[] {
  return [
    ...BUBBLEWRAP_NAMESPACE_FLAGS,
    ...(userNamespace ? ['--unshare-user'] : []),
    '--cap-drop',
    'ALL',
  ];
}

/**
 * Finds bwrap and proves it works by confining `true` with the flags correx will use: an
 * installed bwrap can still fail where user namespaces are disabled (many containers), and
 * a sandbox that only exists on paper must read as `none`.
 */
export async function detectSandbox(
  options: DetectSandboxOptions = {},
): Promise<SandboxAvailability> {
  const platform = options.platform ?? process.platform;
  if (platform !== 'linux')
    return { kind: 'none', reason: `bubblewrap needs Linux namespaces; this is ${platform}` };
  const bwrapPath = (options.candidates ?? DEFAULT_CANDIDATES).find((path) => executable(path));
  if (bwrapPath === undefined)
    return {
      kind: 'none',
      reason: 'bubblewrap (bwrap) is not installed; on Debian/Ubuntu: apt-get install bubblewrap',
    };
  const probe = (user: boolean) =>
    run(bwrapPath, [...bubblewrapBaseArgs(user), '--tmpfs', '/tmp', 'true']);
  const withUser = await probe(true);
  const withoutUser = withUser.ok ? withUser : await probe(false);
  if (!withoutUser.ok)
    return {
      kind: 'none',
      reason: `${bwrapPath} cannot create namespaces here (${withoutUser.output.trim() || 'no output'})`,
    };
  const version = await run(bwrapPath, ['--version']);
  return {
    kind: 'bubblewrap',
    bwrapPath,
    version: version.output.trim() || 'unknown',
    userNamespace: withUser.ok,
  };
}

/**
 * One line for a person: under which confinement this correx runs its commands, and, without
 * one, the tier every exec is raised to (the policy's `unsandboxedExecTier`, default T3).
 */
export function describeSandbox(
  availability: SandboxAvailability,
  unsandboxedExecTier = 'T3',
): string {
  return availability.kind === 'bubblewrap'
    ? `commands run sandboxed (${availability.version}: read-only host, writable workspace, private home and /tmp, no network except the egress allowlist through correx's proxy)`
    : `commands run UNSANDBOXED: ${availability.reason}. Every exec is raised to approval tier ${unsandboxedExecTier}.`;
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function run(file: string, args: readonly string[]): Promise<{ ok: boolean; output: string }> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      { env: { PATH: '/usr/bin:/bin' }, timeout: 10_000 },
      (error, stdout, stderr) => resolve({ ok: error === null, output: `${stdout}${stderr}` }),
    );
  });
}

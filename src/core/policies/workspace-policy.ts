import { z } from 'zod';
import { CorrexError } from '../base/correx-error.js';

/** Same values as `ApprovalTierSchema` in core/approvals (a lower layer cannot import it). */
const TierSchema = z.enum(['T0', 'T1', 'T2', 'T3']);

/** A hostname as written in a policy: lower-case ASCII labels, no port, no wildcard tricks. */
export const PolicyHostSchema = z
  .string()
  .min(1)
  .max(253)
  .regex(
    /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/,
    'a host is lower-case ASCII labels (punycode for IDNs), optionally prefixed by "*." for subdomains',
  );

const GlobSchema = z
  .string()
  .min(1)
  .max(1024)
  .refine((text) => !text.includes('\0'), 'a glob may not contain NUL');

/**
 * What sessions recorded before empty write-scope lists existed hold for "nothing writable" (a
 * workspace overlay whose every glob was refused): it matches no path. Accepted only as a whole
 * list of a recorded write scope, so those sessions still replay; nothing writes it any more.
 */
export const LEGACY_NOTHING_WRITABLE_GLOB = '\0nothing';

/**
 * One list of a write scope: a path must match one of its globs. An empty list matches nothing
 * (nothing is writable): what a workspace overlay whose every glob was refused narrows to.
 */
const WriteScopeListSchema = z.array(z.string().min(1).max(1024)).superRefine((globs, context) => {
  if (globs.length === 1 && globs[0] === LEGACY_NOTHING_WRITABLE_GLOB) return;
  globs.forEach((glob, index) => {
    if (glob.includes('\0'))
      context.addIssue({ code: 'custom', message: 'a glob may not contain NUL', path: [index] });
  });
});

/** Programs an `exec` call may run by default; a policy replaces this list. */
export const DEFAULT_ALLOWED_EXECUTABLES = [
  'cat',
  'cut',
  'diff',
  'echo',
  'false',
  'file',
  'find',
  'git',
  'grep',
  'head',
  'ls',
  'make',
  'mkdir',
  'node',
  'npm',
  'npx',
  'printf',
  'pwd',
  'python3',
  'rg',
  'sed',
  'sort',
  'stat',
  'tail',
  'tee',
  'touch',
  'tr',
  'true',
  'tsc',
  'uniq',
  'vitest',
  'wc',
  'which',
  'xargs',
  'cp',
  'mv',
  'rm',
  'env',
  'test',
  '[',
  'basename',
  'dirname',
  'realpath',
  'jq',
  'awk',
  // Local, network-free tools real agents reach for (issue #17); tools that write are judged by their outputs.
  'python',
  'pytest',
  'tree',
  'du',
  'df',
  'date',
  'seq',
  'sleep',
  'read',
  'exit',
  'nl',
  'paste',
  'comm',
  'column',
  'tac',
  'rev',
  'fold',
  'od',
  'xxd',
  'base64',
  'sha256sum',
  'md5sum',
  'cmp',
  'ffprobe',
  'ffmpeg',
  'identify',
  'convert',
] as const;

/**
 * Paths no tool may ever write, whatever the scope or mode: the harness's own store and
 * configuration, git's executable configuration, files a shell or direnv executes. Patterns
 * starting with `~/` or `/` are absolute; others are relative to the workspace root.
 */
export const DEFAULT_NEVER_WRITABLE = [
  '.correx/**',
  'harness.yaml',
  '.git/hooks/**',
  '.git/config',
  '**/.git/hooks/**',
  '**/.git/config',
  '.gitmodules',
  '**/.envrc',
  '~/.correx/**',
  '~/.config/correx/**',
  '~/.bashrc',
  '~/.bash_profile',
  '~/.bash_login',
  '~/.profile',
  '~/.zshrc',
  '~/.zshenv',
  '~/.zprofile',
  '~/.config/fish/**',
  '~/.gitconfig',
  '~/.config/git/**',
  '~/.ssh/**',
  '~/.npmrc',
  '/etc/**',
] as const;

/**
 * `.git` in any form (a directory, a `gitdir:` file) at any depth: never writable, whatever a
 * policy says, so nothing a tool writes can become configuration correx's own git reads.
 */
export const GIT_NEVER_WRITABLE = ['.git', '.git/**', '**/.git', '**/.git/**'] as const;

/**
 * Paths whose contents no tool may read and no event may hold: secrets by their usual names.
 * Read tools are refused them (flag `never-readable`), grep skips them, and inside the sandbox
 * the workspace's matching files are bound empty. Same pattern syntax as DEFAULT_NEVER_WRITABLE.
 */
export const DEFAULT_NEVER_READABLE = [
  '**/.env',
  '**/.env.local',
  '**/.env.*.local',
  '**/.env.production',
  '**/.env.development',
  '**/.env.staging',
  '**/*.pem',
  '**/*.key',
  '**/*.p12',
  '**/*.pfx',
  '**/id_rsa',
  '**/id_dsa',
  '**/id_ecdsa',
  '**/id_ed25519',
  '**/.npmrc',
  '**/.netrc',
  '~/.ssh/**',
  '~/.aws/**',
  '~/.gnupg/**',
  '~/.netrc',
  '~/.npmrc',
  '~/.docker/config.json',
] as const;

/** The tier every `exec` is raised to when no sandbox confines it (see docs/sandbox.md). */
export const DEFAULT_UNSANDBOXED_EXEC_TIER = 'T3';

/**
 * A workspace policy as data (the `policy:` section of `harness.yaml`). Every field has a safe
 * default: no egress (an empty allowlist denies all), writes anywhere inside the workspace
 * except the never-writable paths, a short list of programs.
 */
export const WorkspacePolicySchema = z.strictObject({
  /** Program names (basenames) `exec` may run, in any position of a command line. */
  allowedExecutables: z.array(z.string().min(1).max(255)).default([...DEFAULT_ALLOWED_EXECUTABLES]),
  /** Hosts network tools may reach; exact match, or `*.example.com` for strict subdomains. */
  egressAllowlist: z.array(PolicyHostSchema).default([]),
  /**
   * Globs (workspace-relative) a write target must match. Every list must match (narrowing); an
   * empty list matches nothing.
   */
  writeScope: z.array(WriteScopeListSchema).default([['**']]),
  /** Paths never writable; see DEFAULT_NEVER_WRITABLE. */
  neverWritable: z.array(GlobSchema).default([...DEFAULT_NEVER_WRITABLE]),
  /** Per-tool minimum approval tier; may only raise a tool's tier. */
  tierOverrides: z.record(z.string().min(1), TierSchema).default({}),
  /** Longest shell command line `exec` accepts; longer lines are blocked, never half-checked. */
  maxCommandLength: z.number().int().min(1).max(65536).default(8192),
  /** Most simple commands one shell line may contain (pipelines, lists, substitutions). */
  maxCommands: z.number().int().min(1).max(256).default(32),
  /**
   * The minimum tier of every `exec` when the machine has no sandbox; absent means
   * DEFAULT_UNSANDBOXED_EXEC_TIER (T3: every command asks). Optional so older policies parse.
   */
  unsandboxedExecTier: TierSchema.optional(),
  /**
   * Paths (absolute or `~/...`) a sandboxed process may read although they lie in the hidden
   * home; nothing under the home is readable otherwise.
   */
  sandboxReadablePaths: z.array(GlobSchema).optional(),
  /**
   * How long a call may wait for a person's approval; past it the call is denied by timeout
   * (recorded), never approved. Absent: it waits until someone decides.
   */
  approvalTimeoutMs: z
    .number()
    .int()
    .min(1)
    .max(30 * 24 * 3600 * 1000)
    .optional(),
  /**
   * The most bytes of content the model's file writes may carry in one session (UTF-8, counted
   * over successful writes); a write past it is blocked. Absent: no budget.
   */
  writeBudgetBytes: z.number().int().min(1).optional(),
  /**
   * Paths never readable (see DEFAULT_NEVER_READABLE, used when absent). Optional with no
   * default so that policies recorded before it existed keep their recorded bytes.
   */
  neverReadable: z.array(GlobSchema).optional(),
});
export type WorkspacePolicy = z.infer<typeof WorkspacePolicySchema>;
export type WorkspacePolicyInput = z.input<typeof WorkspacePolicySchema>;

/** A workspace-supplied policy file: any field may be omitted (it then narrows nothing). */
export const PolicyOverlaySchema = z.strictObject({
  allowedExecutables: z.array(z.string().min(1).max(255)).optional(),
  egressAllowlist: z.array(PolicyHostSchema).optional(),
  writeScope: z.array(GlobSchema).min(1).optional(),
  neverWritable: z.array(GlobSchema).optional(),
  tierOverrides: z.record(z.string().min(1), TierSchema).optional(),
  maxCommandLength: z.number().int().min(1).max(65536).optional(),
  maxCommands: z.number().int().min(1).max(256).optional(),
});
export type PolicyOverlay = z.infer<typeof PolicyOverlaySchema>;

/** A policy document failed its schema. */
export class InvalidPolicyError extends CorrexError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('invalid_policy', message, options);
  }
}

/** Parses a user policy, filling defaults. Throws InvalidPolicyError naming the bad field. */
export function parseWorkspacePolicy(input: unknown): WorkspacePolicy {
  const result = WorkspacePolicySchema.safeParse(input ?? {});
  if (!result.success)
    throw new InvalidPolicyError(`invalid policy: ${z.prettifyError(result.error)}`, {
      cause: result.error,
    });
  return result.data;
}

/** Parses a workspace overlay. Throws InvalidPolicyError naming the bad field. */
export function parsePolicyOverlay(input: unknown): PolicyOverlay {
  const result = PolicyOverlaySchema.safeParse(input ?? {});
  if (!result.success)
    throw new InvalidPolicyError(`invalid workspace policy: ${z.prettifyError(result.error)}`, {
      cause: result.error,
    });
  return result.data;
}

import { z } from 'zod';

/**
 * Whether processes correx starts run confined: `bubblewrap` (Linux namespaces, see
 * docs/sandbox.md) or `none` (no sandbox available; exec is then raised to the policy's
 * unsandboxed tier). A plain value, so a kernel configuration can be rebuilt from data.
 */
export const SandboxKindSchema = z.enum(['bubblewrap', 'none']);
export type SandboxKind = z.infer<typeof SandboxKindSchema>;

/**
 * Folders every sandboxed process gets as its own empty, private tmpfs, discarded when the call
 * ends: what a command writes there never reaches the host.
 */
export const SANDBOX_PRIVATE_FOLDERS: readonly string[] = ['/tmp', '/var/tmp'];

/**
 * The confinement a process ran under, recorded in its receipt so an audit shows it per call.
 * `network`: `none` (a new, empty network namespace), `proxy` (only through correx's egress
 * proxy, to `allowedHosts`), `host` (unconfined). Paths are absolute, in the order mounted.
 */
export const SandboxProfileSchema = z.strictObject({
  kind: SandboxKindSchema,
  network: z.enum(['none', 'proxy', 'host']),
  /** Writable inside the sandbox (the workspace); everything else of the host is read-only. */
  writable: z.array(z.string()),
  /** Inside a writable path but bound read-only (.git/hooks, .git/config, correx's own files). */
  readOnly: z.array(z.string()),
  /** Replaced by an empty private directory (the home, correx's home, /tmp), or by an empty file (never-readable workspace files). */
  hidden: z.array(z.string()),
  /** Paths under a hidden one made readable again (policy grants, the trusted PATH). */
  granted: z.array(z.string()),
  allowedHosts: z.array(z.string()),
  /**
   * The most processes (tasks, threads included) the call could run at once, and how that was
   * enforced: a cgroup's `pids.max` (v2, or the v1 pids controller), or RLIMIT_NPROC set inside
   * the sandbox's own user namespace. Absent on receipts recorded before the limit existed.
   */
  pidsLimit: z
    .strictObject({
      max: z.number().int().min(1),
      mechanism: z.enum(['cgroup-v2', 'cgroup-v1', 'rlimit-nproc']),
    })
    .optional(),
  /** Why there is no sandbox, when `kind` is `none`. */
  reason: z.string().nullable(),
});
export type SandboxProfile = z.infer<typeof SandboxProfileSchema>;

/**
 * One decision of the egress proxy during a call: a connection to `host:port` was let through
 * or refused, `count` times (identical decisions are folded, in first-seen order).
 */
export const EgressDecisionSchema = z.strictObject({
  host: z.string(),
  port: z.number().int().min(0).max(65535),
  allowed: z.boolean(),
  reason: z.string(),
  count: z.number().int().min(1),
});
export type EgressDecision = z.infer<typeof EgressDecisionSchema>;

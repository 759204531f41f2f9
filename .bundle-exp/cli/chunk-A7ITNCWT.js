// src/core/policies/sandbox-profile.ts
import { z } from "zod";
var SandboxKindSchema = z.enum(["bubblewrap", "none"]);
var SANDBOX_PRIVATE_FOLDERS = ["/tmp", "/var/tmp"];
var SandboxProfileSchema = z.strictObject({
  kind: SandboxKindSchema,
  network: z.enum(["none", "proxy", "host"]),
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
  pidsLimit: z.strictObject({
    max: z.number().int().min(1),
    mechanism: z.enum(["cgroup-v2", "cgroup-v1", "rlimit-nproc"])
  }).optional(),
  /** Why there is no sandbox, when `kind` is `none`. */
  reason: z.string().nullable()
});
var EgressDecisionSchema = z.strictObject({
  host: z.string(),
  port: z.number().int().min(0).max(65535),
  allowed: z.boolean(),
  reason: z.string(),
  count: z.number().int().min(1)
});

export {
  SANDBOX_PRIVATE_FOLDERS,
  SandboxProfileSchema,
  EgressDecisionSchema
};

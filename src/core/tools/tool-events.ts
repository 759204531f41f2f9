import { z } from 'zod';
import { defineEvent } from '../events/event-definition.js';

const Sha256HexSchema = z.string().regex(/^[0-9a-f]{64}$/, 'expected a hex SHA-256');

/**
 * A model proposed a tool call. The raw argument text is kept verbatim (it may not even be
 * JSON); whether the call runs is decided by later events.
 */
export const toolCallProposed = defineEvent({
  type: 'tool_call_proposed',
  description: 'A model proposed a tool call; nothing has run yet.',
  fields: {
    callId: z.string().min(1),
    stageId: z.string().min(1),
    tool: z.string().min(1),
    argsRaw: z.string(),
  },
});

/** A file a call touched: its real path and content hash before and after (null = absent). */
export const TouchedFileSchema = z.strictObject({
  path: z.string().min(1),
  access: z.enum(['read', 'write', 'delete']),
  before: Sha256HexSchema.nullable(),
  after: Sha256HexSchema.nullable(),
});
export type TouchedFile = z.infer<typeof TouchedFileSchema>;

/**
 * How a call ended. `world_changed` means the executor's last-moment re-check found the target
 * path or its content different from what was assessed (TOCTOU), so nothing was written.
 */
export const ToolOutcomeSchema = z.enum([
  'succeeded',
  'failed',
  'timed_out',
  'aborted',
  'world_changed',
  'refused',
]);
export type ToolOutcome = z.infer<typeof ToolOutcomeSchema>;

/**
 * The executor is about to run an approved call: the durable intent, written before any effect,
 * so a crash between this and the receipt is visible on resume. Emitted by the kernel.
 */
export const toolCallStarted = defineEvent({
  type: 'tool_call_started',
  description: 'An approved tool call is about to run; targets and their pre-hashes are recorded.',
  fields: {
    callId: z.string().min(1),
    tool: z.string().min(1),
    targets: z.array(
      z.strictObject({ path: z.string().min(1), sha256: Sha256HexSchema.nullable() }),
    ),
  },
});

/**
 * Whether processes correx starts run confined: `bubblewrap` (Linux namespaces, see
 * docs/sandbox.md) or `none` (no sandbox available; exec is then raised to the policy's
 * unsandboxed tier). A plain value, so a kernel configuration can be rebuilt from data.
 */
export const SandboxKindSchema = z.enum(['bubblewrap', 'none']);
export type SandboxKind = z.infer<typeof SandboxKindSchema>;

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
  /** Replaced by an empty private directory (the home, correx's home, /tmp). */
  hidden: z.array(z.string()),
  /** Paths under a hidden one made readable again (policy grants, the trusted PATH). */
  granted: z.array(z.string()),
  allowedHosts: z.array(z.string()),
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

/**
 * The effect of a tool call, recorded by the effect runner after the tool's `execute` returns:
 * the arguments, how it ended, a bounded output with the digest of the full output, and every
 * file touched. Tools never change workflow state; this receipt is their only trace.
 */
export const toolReceipt = defineEvent({
  type: 'tool_receipt',
  description: 'A tool call finished (or was refused at execution); its effects are listed.',
  fields: {
    callId: z.string().min(1),
    tool: z.string().min(1),
    args: z.record(z.string(), z.json()),
    outcome: ToolOutcomeSchema,
    exitCode: z.number().int().nullable(),
    /** Why the call failed or was refused, for the model and the operator. */
    error: z.string().nullable(),
    /** At most the tool's output cap, with a truncation marker when cut. */
    output: z.string(),
    outputBytes: z.number().int().min(0),
    outputSha256: Sha256HexSchema,
    truncated: z.boolean(),
    files: z.array(TouchedFileSchema),
    durationMs: z.number().int().min(0),
    /** Under which confinement the call's process ran (exec); absent for in-process tools. */
    sandbox: SandboxProfileSchema.optional(),
    /** The egress proxy's decisions for this call, when its network went through the proxy. */
    egress: z.array(EgressDecisionSchema).optional(),
  },
});

export const toolEvents = [toolCallProposed, toolCallStarted, toolReceipt] as const;

import { z } from 'zod';
import { ApprovalTierSchema } from '../approvals/approval-tier.js';
import { defineEvent } from '../events/event-definition.js';
import { ParamRoleSchema } from '../tools/tool-contract.js';

/** What the WorldProbe saw at one path. Rules read only this, never the disk. */
export const WorldObservationSchema = z.strictObject({
  /** The lexically normalized absolute path that was probed (ToolPath.resolve output). */
  path: z.string().min(1),
  /** The kind of what the path finally resolves to; `missing` when nothing is there. */
  kind: z.enum(['file', 'directory', 'other', 'missing']),
  /**
   * Every symlink resolved; for a missing path, the real path of its deepest existing ancestor
   * with the remaining segments appended (so a dangling link's destination is still judged).
   */
  realPath: z.string().min(1),
  /** The link text when the path itself is a symlink. */
  linkTarget: z.string().nullable(),
  /** Content hash for regular files (null for others, or files over the probe's hash limit). */
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullable(),
  size: z.number().int().min(0).nullable(),
  mtimeMs: z.number().int().nullable(),
  /** Hard-link count of a regular file; above 1 the same bytes live elsewhere too. */
  linkCount: z.number().int().min(0).nullable(),
  /**
   * The path kept changing while it was probed (twice): nothing above is trustworthy, so the
   * other fields are empty and kind is `other`. Absent on every stable observation.
   */
  changedDuringObservation: z.literal(true).optional(),
});
export type WorldObservation = z.infer<typeof WorldObservationSchema>;

/** The WorldProbe observed a path; appended the moment the observation is made (hard invariant #9). */
export const worldObserved = defineEvent({
  type: 'world_observed',
  description: 'The WorldProbe observed a path on disk; rules read this instead of the disk.',
  origin: 'effect_result',
  fields: () => ({ callId: z.string().min(1).nullable(), observation: WorldObservationSchema }),
});

export const FindingSchema = z.strictObject({
  ruleId: z.string().min(1),
  severity: z.enum(['info', 'ask', 'block']),
  code: z.string().min(1),
  message: z.string().min(1),
  /** The least tier this finding needs; RiskMapping takes the maximum. */
  tier: ApprovalTierSchema,
  /**
   * For a stale write: the content hash the model last saw and the one on disk now (null where
   * none: not a regular file, or too large to hash). Absent on other findings.
   */
  hashes: z
    .strictObject({
      atRead: z.string().nullable(),
      now: z.string().nullable(),
    })
    .optional(),
});
export type Finding = z.infer<typeof FindingSchema>;

export const AssessedTargetSchema = z.strictObject({
  role: ParamRoleSchema,
  param: z.string().min(1),
  /** The argument as the model wrote it. */
  raw: z.string(),
  /** ToolPath.resolve output, or the URL/host for network targets. */
  resolved: z.string(),
  /** The observed real path (symlinks resolved), or null where none applies. */
  realPath: z.string().nullable(),
  write: z.boolean(),
});
export type AssessedTarget = z.infer<typeof AssessedTargetSchema>;

export const VerdictSchema = z.enum(['ALLOW', 'ASK', 'BLOCK']);
export type Verdict = z.infer<typeof VerdictSchema>;
export const RiskLevelSchema = z.enum(['low', 'medium', 'high', 'critical']);
export type RiskLevel = z.infer<typeof RiskLevelSchema>;

/**
 * The plane-2 assessment of a proposed call, appended by the kernel before anything runs
 * (hard invariant #5). Pure function of the policy, the session's recorded observations and
 * the call, so replay re-derives it byte for byte.
 */
export const toolCallAssessed = defineEvent({
  type: 'tool_call_assessed',
  description: 'A proposed tool call was assessed against the workspace policy rules.',
  origin: 'decision',
  fields: () => ({
    callId: z.string().min(1),
    tool: z.string().min(1),
    verdict: VerdictSchema,
    tier: ApprovalTierSchema,
    risk: RiskLevelSchema,
    findings: z.array(FindingSchema),
    targets: z.array(AssessedTargetSchema),
  }),
});

/**
 * The session's egress allowlist changed: seeded from the user policy when a session starts,
 * changed later only by a person. The NetworkHost rule reads the projection of these events.
 */
export const egressAllowlistChanged = defineEvent({
  type: 'egress_allowlist_changed',
  description: 'Hosts were added to or removed from the session egress allowlist.',
  origin: 'command',
  fields: () => ({
    added: z.array(z.string().min(1)),
    removed: z.array(z.string().min(1)),
    by: z.string().min(1),
    reason: z.string(),
  }),
});

export const toolIntentEvents = [worldObserved, toolCallAssessed, egressAllowlistChanged] as const;

import { z } from 'zod';

/**
 * How much scrutiny an operation needs: T0 read-only inside the workspace, T1 workspace
 * writes, T2 execution or wider effects inside the workspace, T3 destructive, outside the
 * workspace, network or arbitrary execution.
 */
export const ApprovalTierSchema = z.enum(['T0', 'T1', 'T2', 'T3']);
export type ApprovalTier = z.infer<typeof ApprovalTierSchema>;

/**
 * The operator's standing instruction: `prompt` asks a human above T0, `auto` approves up to
 * T2 and asks above, `yolo` approves every tier, `deny` refuses everything above T0.
 * A policy BLOCK is terminal in every mode, `yolo` included.
 */
export const OperatorModeSchema = z.enum(['prompt', 'auto', 'yolo', 'deny']);
export type OperatorMode = z.infer<typeof OperatorModeSchema>;

const TIER_RANK: Readonly<Record<ApprovalTier, number>> = { T0: 0, T1: 1, T2: 2, T3: 3 };

/** The numeric rank of a tier (T0 = 0 ... T3 = 3). */
export function tierRank(tier: ApprovalTier): number {
  return TIER_RANK[tier];
}

/** The stricter of two tiers. */
export function maxTier(a: ApprovalTier, b: ApprovalTier): ApprovalTier {
  return TIER_RANK[a] >= TIER_RANK[b] ? a : b;
}

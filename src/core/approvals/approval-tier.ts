import { z } from 'zod';

/**
 * How much scrutiny an operation needs: T0 read-only and harmless, T1 workspace writes,
 * T2 execution or wider effects, T3 irreversible or outside the workspace.
 */
export const ApprovalTierSchema = z.enum(['T0', 'T1', 'T2', 'T3']);
export type ApprovalTier = z.infer<typeof ApprovalTierSchema>;

/**
 * The operator's standing instruction: `prompt` asks a human above T0, `auto` approves up to
 * T1 and asks above, `yolo` approves everything policy allows, `deny` approves nothing gated.
 * A policy BLOCK is terminal in every mode.
 */
export const OperatorModeSchema = z.enum(['prompt', 'auto', 'yolo', 'deny']);
export type OperatorMode = z.infer<typeof OperatorModeSchema>;

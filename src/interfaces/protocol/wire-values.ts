import { z } from 'zod';

/*
 * Closed value sets that appear on the wire. They mirror domain enums on purpose instead of
 * importing them: the protocol is what clients depend on, and it changes only deliberately.
 * The mapping files check at compile time that the domain values still fit.
 */

export const SessionStatusDtoSchema = z.enum([
  'new',
  'created',
  'running',
  'paused',
  'completed',
  'failed',
  'cancelled',
]);
export type SessionStatusDto = z.infer<typeof SessionStatusDtoSchema>;

export const OperatorModeDtoSchema = z.enum(['prompt', 'auto', 'yolo', 'deny']);
export type OperatorModeDto = z.infer<typeof OperatorModeDtoSchema>;

export const ApprovalTierDtoSchema = z.enum(['T0', 'T1', 'T2', 'T3']);
export type ApprovalTierDto = z.infer<typeof ApprovalTierDtoSchema>;

/** The plane-2 assessment of a proposed tool call. */
export const VerdictDtoSchema = z.enum(['ALLOW', 'ASK', 'BLOCK']);
export type VerdictDto = z.infer<typeof VerdictDtoSchema>;
export const RiskLevelDtoSchema = z.enum(['low', 'medium', 'high', 'critical']);
export type RiskLevelDto = z.infer<typeof RiskLevelDtoSchema>;
export const FindingSeverityDtoSchema = z.enum(['info', 'ask', 'block']);
export type FindingSeverityDto = z.infer<typeof FindingSeverityDtoSchema>;

/** `normal` asks the router a question; `steering` asks it to turn the input into a steering note. */
export const UserInputModeSchema = z.enum(['normal', 'steering']);
export type UserInputMode = z.infer<typeof UserInputModeSchema>;

/** Session ids, call ids and stage ids: short printable identifiers. */
export const IdentifierSchema = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[\x21-\x7e]+$/, 'expected printable ASCII without spaces');

/** A per-session sequence cursor: 0 means "from the start". */
export const SequenceCursorSchema = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** Who decided, as a person names themselves; the server records its own user when absent. */
export const DeciderSchema = z.string().min(1).max(128);

/** A short free text (a reason). */
export const ReasonSchema = z.string().min(1).max(2_000);

/** What a grant allows without asking: one exact command line, a path pattern for a tool, or a host. */
export const GrantScopeDtoSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('command'), command: z.string().min(1).max(8_192) }),
  z.strictObject({
    kind: z.literal('path'),
    tool: z.string().min(1).max(128),
    glob: z.string().min(1).max(1_024),
  }),
  z.strictObject({ kind: z.literal('host'), host: z.string().min(1).max(256) }),
]);
export type GrantScopeDto = z.infer<typeof GrantScopeDtoSchema>;

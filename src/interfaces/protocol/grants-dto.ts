import { z } from 'zod';
import { EventDtoSchema } from './event-dto.js';
import { CommandResponseSchema } from './rest-dto.js';
import { DeciderSchema, GrantScopeDtoSchema, ReasonSchema } from './wire-values.js';

/*
 * Standing approvals of a session over REST: the grants `correx grant` records, and the inbox's
 * "always allow", which records the exact grant the CLI's prompt would.
 */

export const GrantDtoSchema = z.strictObject({
  grantId: z.string(),
  scope: GrantScopeDtoSchema,
  description: z.string(),
  stageId: z.string().nullable(),
  expiresAt: z.string().nullable(),
  by: z.string(),
  reason: z.string(),
});
export type GrantDto = z.infer<typeof GrantDtoSchema>;

export const ListGrantsResponseSchema = z.strictObject({ grants: z.array(GrantDtoSchema) });
export type ListGrantsResponse = z.infer<typeof ListGrantsResponseSchema>;

/** Body of `POST .../grants`, as `correx grant` takes it. */
export const AddGrantRequestSchema = z.strictObject({
  scope: GrantScopeDtoSchema,
  /** Only in this stage; default: the whole session. */
  stage: z.string().min(1).max(256).optional(),
  /** An ISO-8601 instant it expires at. */
  until: z.iso.datetime({ offset: true }).optional(),
  reason: ReasonSchema,
  by: DeciderSchema.optional(),
});
export type AddGrantRequest = z.infer<typeof AddGrantRequestSchema>;

export const AddGrantResponseSchema = z.strictObject({
  grantId: z.string(),
  event: EventDtoSchema,
});
export type AddGrantResponse = z.infer<typeof AddGrantResponseSchema>;

export const RevokeGrantRequestSchema = z.strictObject({
  reason: ReasonSchema.optional(),
  by: DeciderSchema.optional(),
});

/** Body of "always allow": an optional reason and decider, as an approval takes them. */
export const AlwaysAllowRequestSchema = z.strictObject({
  by: DeciderSchema.optional(),
});

export const AlwaysAllowResponseSchema = CommandResponseSchema.extend({
  grantId: z.string(),
  scope: GrantScopeDtoSchema,
});
export type AlwaysAllowResponse = z.infer<typeof AlwaysAllowResponseSchema>;

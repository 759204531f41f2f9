import { z } from 'zod';
import { ModelCapabilitySchema } from './model-capability.js';

/**
 * One model correx may route to, as configured in `harness.yaml` (`models:`). `provider` names
 * a provider instance wired by the composition root; core never interprets it.
 */
export const ModelProfileSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, 'profile ids are lowercase [a-z0-9._-]'),
  provider: z.string().min(1),
  model: z.string().min(1),
  capabilities: z.array(ModelCapabilitySchema),
  /** Context window in tokens. */
  contextWindow: z.number().int().positive(),
  maxOutputTokens: z.number().int().positive().default(4096),
  /** Higher wins among eligible profiles; ties keep configuration order. */
  priority: z.number().int().default(0),
  /** US dollars per million tokens, for cost in `show` and the session's cost budget. */
  prices: z
    .strictObject({
      inputPerMillion: z.number().nonnegative(),
      outputPerMillion: z.number().nonnegative(),
      /** Cached input, where the provider reports it; defaults to the input price. */
      cachedInputPerMillion: z.number().nonnegative().optional(),
    })
    .optional(),
});
export type ModelProfile = z.infer<typeof ModelProfileSchema>;
export type ModelProfileInput = z.input<typeof ModelProfileSchema>;

export const ModelProfileListSchema = z
  .array(ModelProfileSchema)
  .superRefine((profiles, context) => {
    const seen = new Set<string>();
    profiles.forEach((profile, index) => {
      if (seen.has(profile.id)) {
        context.addIssue({
          code: 'custom',
          path: [index, 'id'],
          message: `duplicate model profile id "${profile.id}"`,
        });
      }
      seen.add(profile.id);
    });
  });

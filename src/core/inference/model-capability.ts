import { z } from 'zod';

/**
 * What a model can do, as declared in its profile. The router matches a stage's required
 * capabilities against these; core never asks a provider what it supports.
 */
export const ModelCapabilitySchema = z.enum([
  'tool_calling',
  'json_output',
  'long_context',
  'vision',
  'streaming',
  'reasoning',
]);
export type ModelCapability = z.infer<typeof ModelCapabilitySchema>;

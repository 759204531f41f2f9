import { z } from 'zod';

/**
 * The closed set of failure categories (spec 000, failure semantics). Every failure event names
 * one, so retry policies and transition conditions can route on it; there is no "other".
 */
export const FAILURE_CATEGORIES = [
  'validation',
  'transition',
  'inference',
  'tool',
  'policy',
  'provider',
  'replay',
] as const;

export const FailureCategorySchema = z.enum(FAILURE_CATEGORIES);
export type FailureCategory = z.infer<typeof FailureCategorySchema>;

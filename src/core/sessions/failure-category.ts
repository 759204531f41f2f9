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
  /**
   * The workspace lacks something the stage keeps referring to (three `reference-exists` blocks
   * for the same path in one attempt): a file-writing stage or the recovery stage can create it.
   */
  'workspace_precondition',
  /** The session reached a budget (tokens, cost, duration) and nobody raised it. */
  'budget',
] as const;

export const FailureCategorySchema = z.enum(FAILURE_CATEGORIES);
export type FailureCategory = z.infer<typeof FailureCategorySchema>;

import type { z } from 'zod';
import { ApiError } from './server-errors.js';

/** A request's body, query or path parameter through its schema; a refusal names the first issues. */
export function parseRequestPart<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
  what: string,
): z.infer<Schema> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.join('.') || what}: ${issue.message}`);
  throw new ApiError(400, 'invalid_request', `invalid ${what}: ${issues.join('; ')}`);
}

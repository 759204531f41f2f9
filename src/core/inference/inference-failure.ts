import { z } from 'zod';
import { CorrexError } from '../base/correx-error.js';

/**
 * Why a call failed, as a closed set the retry policy can switch on. Providers map every wire or
 * runtime failure onto one of these; nothing provider-specific leaks past them.
 */
export const InferenceFailureCategorySchema = z.enum([
  /** The call outlived its `timeoutMs` (including a hung connection or a stalled stream). */
  'timeout',
  /** The provider said slow down (HTTP 429); `retryAfterMs` carries its hint when it gave one. */
  'rate_limit',
  /** Credentials were missing or refused (HTTP 401/403). Retrying will not help. */
  'auth',
  /** The provider answered, but not with something we can read (bad JSON, cut-off stream). */
  'malformed_response',
  /** The provider is unreachable or failing (connection refused, HTTP 5xx). */
  'provider_down',
  /** The caller aborted the call. */
  'cancelled',
  /** The provider rejected the request itself (HTTP 400/422, context too long). */
  'invalid_request',
  /**
   * The provider is set up so that it can never serve this request (llama-server without
   * `--jinja` refusing tools, an unknown model name, an endpoint without tool support): the
   * operator must change the server or the model profile. Retrying will not help.
   */
  'configuration',
]);
export type InferenceFailureCategory = z.infer<typeof InferenceFailureCategorySchema>;

/** Whether a retry of the same request can reasonably succeed. */
export function isRetryableCategory(category: InferenceFailureCategory): boolean {
  switch (category) {
    case 'timeout':
    case 'rate_limit':
    case 'malformed_response':
    case 'provider_down':
      return true;
    case 'auth':
    case 'cancelled':
    case 'invalid_request':
    case 'configuration':
      return false;
  }
}

/**
 * A provider call failed. Thrown by `InferenceProvider.infer`; the effect runner records it as
 * `inference_failed`. The message is built by correx and never contains credentials.
 */
export class InferenceError extends CorrexError {
  readonly category: InferenceFailureCategory;
  readonly provider: string;
  readonly retryAfterMs: number | undefined;

  constructor(options: {
    category: InferenceFailureCategory;
    provider: string;
    message: string;
    retryAfterMs?: number | undefined;
    cause?: unknown;
  }) {
    super(`inference_${options.category}`, `${options.provider}: ${options.message}`, {
      cause: options.cause,
    });
    this.category = options.category;
    this.provider = options.provider;
    this.retryAfterMs = options.retryAfterMs;
  }

  get retryable(): boolean {
    return isRetryableCategory(this.category);
  }
}

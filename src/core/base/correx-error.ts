import type { ErrorCode } from './error-code.js';

const marker = Symbol.for('correx.error');

/**
 * Base of every error correx throws on purpose. `code` is stable and machine-readable (one of
 * `ERROR_CODES`); the message is for people. Expected domain outcomes (a rule blocks,
 * validation fails) are values and events, not CorrexErrors.
 */
export class CorrexError extends Error {
  readonly code: ErrorCode;
  readonly [marker] = true;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }

  /** True for any CorrexError, even one from another copy of this module. */
  static isInstance(error: unknown): error is CorrexError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}

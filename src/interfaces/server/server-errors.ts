import { CorrexError } from '../../core/base/correx-error.js';
import type { ErrorCode } from '../protocol/rest-dto.js';

/** A REST request the server refuses: an HTTP status and a stable wire code. */
export class ApiError extends CorrexError {
  readonly status: number;
  readonly wireCode: ErrorCode;

  constructor(status: number, wireCode: ErrorCode, message: string) {
    super(`api_${wireCode}`, message);
    this.status = status;
    this.wireCode = wireCode;
  }
}

/** The server's token cannot be used safely (a token file others can read, a token too short). */
export class ServerTokenError extends CorrexError {
  constructor(code: 'server_token_insecure' | 'server_token_invalid', message: string) {
    super(code, message);
  }
}

/** The server was configured in a way it cannot run with (no allowed roots, a bad address). */
export class ServerConfigError extends CorrexError {
  constructor(message: string) {
    super('server_config_invalid', message);
  }
}

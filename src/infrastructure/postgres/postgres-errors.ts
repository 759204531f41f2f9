import { CorrexError } from '../../core/base/correx-error.js';

/** Why correx could not use a PostgreSQL server; each names what the user should fix. */
export type PostgresConnectReason =
  | 'invalid_url'
  | 'refused'
  | 'host_not_found'
  | 'timeout'
  | 'auth_failed'
  | 'database_missing'
  | 'connection_lost';

/** correx could not reach or log in to PostgreSQL, or lost the connection mid-operation. */
export class PostgresConnectError extends CorrexError {
  constructor(
    readonly location: string,
    readonly reason: PostgresConnectReason,
    detail: string,
    cause?: unknown,
  ) {
    super('postgres_connect_failed', `PostgreSQL store ${location}: ${detail}`, { cause });
  }
}

/** The store's schema is missing (not migrated) or was written by a newer correx. */
export class PostgresSchemaError extends CorrexError {
  constructor(
    readonly location: string,
    readonly schema: string,
    readonly reason: 'missing' | 'newer' | 'invalid_name',
    detail: string,
  ) {
    super('postgres_schema_not_ready', `PostgreSQL store ${location}, schema ${schema}: ${detail}`);
  }
}

type DriverError = Error & { code?: string; constraint?: string };

/** The server's SQLSTATE or the socket's error code of a driver error, if any. */
export function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error
    ? String((error as DriverError).code)
    : undefined;
}

/** True for a unique violation (23505) of the named constraint. */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  return errorCode(error) === '23505' && (error as DriverError).constraint === constraint;
}

/** True when the connection itself failed (not the statement): the outcome of a commit is unknown. */
export function isConnectionFailure(error: unknown): boolean {
  const code = errorCode(error);
  if (code === undefined) {
    return (
      error instanceof Error &&
      /Connection terminated|connection.*(closed|ended)/i.test(error.message)
    );
  }
  return (
    code.startsWith('08') ||
    code === '57P01' ||
    code === '57P02' ||
    code === '57P03' ||
    code === 'ECONNRESET' ||
    code === 'EPIPE' ||
    code === 'ECONNREFUSED'
  );
}

/**
 * Translates a failure to connect into one error naming what to fix. Errors that are not
 * about the connection are returned unchanged.
 */
export function describeConnectFailure(location: string, error: unknown): unknown {
  if (CorrexError.isInstance(error)) return error;
  const code = errorCode(error);
  const message = error instanceof Error ? error.message : String(error);
  const fail = (reason: PostgresConnectReason, detail: string) =>
    new PostgresConnectError(location, reason, detail, error);
  switch (code) {
    case 'ECONNREFUSED':
      return fail(
        'refused',
        'connection refused: is PostgreSQL running, and on this host and port?',
      );
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return fail('host_not_found', 'host not found: check the host name in the URL');
    case 'ETIMEDOUT':
      return fail('timeout', 'connection timed out: check the host, port and firewall');
    case '28P01':
    case '28000':
      return fail(
        'auth_failed',
        `authentication failed (${message}): check the user and password in the URL, or pg_hba.conf`,
      );
    case '3D000':
      return fail(
        'database_missing',
        `${message}: create it (createdb) or fix the database name in the URL`,
      );
    default:
      if (/timeout/i.test(message)) return fail('timeout', `connection timed out (${message})`);
      if (isConnectionFailure(error))
        return fail('connection_lost', `the connection was lost (${message})`);
      return error;
  }
}

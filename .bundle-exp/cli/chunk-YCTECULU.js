import {
  isPostgresUrl,
  redactConnectionString
} from "./chunk-XESUYX36.js";
import {
  CorrexError
} from "./chunk-BDZLLWVY.js";

// src/infrastructure/postgres/postgres-connection.ts
import { createHash } from "node:crypto";
import pg from "pg";

// src/infrastructure/postgres/postgres-errors.ts
var PostgresConnectError = class extends CorrexError {
  constructor(location, reason, detail, cause) {
    super("postgres_connect_failed", `PostgreSQL store ${location}: ${detail}`, { cause });
    this.location = location;
    this.reason = reason;
  }
  location;
  reason;
};
var PostgresSchemaError = class extends CorrexError {
  constructor(location, schema, reason, detail) {
    super("postgres_schema_not_ready", `PostgreSQL store ${location}, schema ${schema}: ${detail}`);
    this.location = location;
    this.schema = schema;
    this.reason = reason;
  }
  location;
  schema;
  reason;
};
function errorCode(error) {
  return typeof error === "object" && error !== null && "code" in error ? String(error.code) : void 0;
}
function isUniqueViolation(error, constraint) {
  return errorCode(error) === "23505" && error.constraint === constraint;
}
function isConnectionFailure(error) {
  const code = errorCode(error);
  if (code === void 0) {
    return error instanceof Error && /Connection terminated|connection.*(closed|ended)/i.test(error.message);
  }
  return code.startsWith("08") || code === "57P01" || code === "57P02" || code === "57P03" || code === "ECONNRESET" || code === "EPIPE" || code === "ECONNREFUSED";
}
function describeConnectFailure(location, error) {
  if (CorrexError.isInstance(error)) return error;
  const code = errorCode(error);
  const message = error instanceof Error ? error.message : String(error);
  const fail = (reason, detail) => new PostgresConnectError(location, reason, detail, error);
  switch (code) {
    case "ECONNREFUSED":
      return fail(
        "refused",
        "connection refused: is PostgreSQL running, and on this host and port?"
      );
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return fail("host_not_found", "host not found: check the host name in the URL");
    case "ETIMEDOUT":
      return fail("timeout", "connection timed out: check the host, port and firewall");
    case "28P01":
    case "28000":
      return fail(
        "auth_failed",
        `authentication failed (${message}): check the user and password in the URL, or pg_hba.conf`
      );
    case "3D000":
      return fail(
        "database_missing",
        `${message}: create it (createdb) or fix the database name in the URL`
      );
    default:
      if (/timeout/i.test(message)) return fail("timeout", `connection timed out (${message})`);
      if (isConnectionFailure(error))
        return fail("connection_lost", `the connection was lost (${message})`);
      return error;
  }
}

// src/infrastructure/postgres/postgres-connection.ts
var SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
function quoteSchema(schema, location) {
  if (!SCHEMA_NAME.test(schema)) {
    throw new PostgresSchemaError(
      location,
      schema,
      "invalid_name",
      "a schema name is 1-63 lowercase letters, digits or underscores, not starting with a digit"
    );
  }
  return `"${schema}"`;
}
function schemaLockKey(schema) {
  return createHash("sha256").update(`correx:${schema}`).digest().readInt32BE(0);
}
function createPostgresPool(connectionString, options = {}) {
  const location = redactConnectionString(connectionString);
  if (!isPostgresUrl(connectionString)) {
    throw new PostgresConnectError(
      location,
      "invalid_url",
      "not a PostgreSQL URL: expected postgres://user[:password]@host[:port]/database"
    );
  }
  try {
    new URL(connectionString);
  } catch {
    throw new PostgresConnectError(
      location,
      "invalid_url",
      "the URL cannot be parsed: expected postgres://user[:password]@host[:port]/database"
    );
  }
  const pool = new pg.Pool({
    connectionString,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 1e4,
    application_name: options.applicationName ?? "correx",
    keepAlive: true
  });
  guardPool(pool);
  return pool;
}
function guardPool(pool) {
  pool.on("error", () => void 0);
  pool.on("connect", (client) => client.on("error", () => void 0));
}
async function checkConnection(pool, location) {
  try {
    await pool.query("SELECT 1");
  } catch (error) {
    throw describeConnectFailure(location, error);
  }
}

export {
  PostgresConnectError,
  PostgresSchemaError,
  isUniqueViolation,
  isConnectionFailure,
  describeConnectFailure,
  quoteSchema,
  schemaLockKey,
  createPostgresPool,
  guardPool,
  checkConnection
};

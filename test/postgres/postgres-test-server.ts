import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll } from 'vitest';

/** The server the PostgreSQL tests use; CI and the development machines run one here. */
export const TEST_POSTGRES_URL =
  process.env.CORREX_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export type ServerProbe =
  { readonly available: true } | { readonly available: false; readonly reason: string };

/**
 * Whether the test server answers. Without one the PostgreSQL tests skip, except under CI,
 * where a missing server is a failure (so CI never passes by skipping them).
 */
export async function probeTestServer(): Promise<ServerProbe> {
  const client = new pg.Client({
    connectionString: TEST_POSTGRES_URL,
    connectionTimeoutMillis: 3000,
  });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return { available: true };
  } catch (error) {
    const reason = `PostgreSQL at ${TEST_POSTGRES_URL} is unreachable (${(error as Error).message})`;
    if (process.env.CI) throw new Error(`${reason}; CI requires it`, { cause: error });
    console.warn(`PostgreSQL tests skipped: ${reason}`);
    return { available: false, reason };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A schema name no other test run uses. */
export function freshSchemaName(): string {
  return `correx_test_${process.pid}_${randomBytes(4).toString('hex')}`;
}

/** Schemas handed out by `trackedSchema` are dropped when the test file ends. */
export function schemaTracker(): { next(): string } {
  const schemas: string[] = [];
  afterAll(async () => {
    if (schemas.length === 0) return;
    const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await client.connect();
    try {
      for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    } finally {
      await client.end();
    }
  });
  return {
    next() {
      const schema = freshSchemaName();
      schemas.push(schema);
      return schema;
    },
  };
}

import { describe, it } from 'vitest';
import { createFileSessionLocker } from '../../src/infrastructure/locks/file-session-locker.js';
import { migratePostgres } from '../../src/infrastructure/postgres/postgres-migrations.js';
import { openPostgresSessionLocker } from '../../src/infrastructure/postgres/postgres-session-locker.js';
import {
  sessionLockerContract,
  type SessionLockerHarness,
} from '../../src/testing/session-locker-contract.js';
import {
  freshSchemaName,
  probeTestServer,
  TEST_POSTGRES_URL,
} from '../postgres/postgres-test-server.js';
import { tempDir } from '../support/temp-dir.js';

/** Both lockers run the same contract; each harness's lockers share one lock space. */
const server = await probeTestServer();

function fileHarness(): SessionLockerHarness {
  const directory = tempDir('correx-locker-contract-');
  return { open: async () => createFileSessionLocker(directory) };
}

function postgresHarness(): SessionLockerHarness {
  const schema = freshSchemaName();
  let migrated: Promise<unknown> | undefined;
  return {
    open: async () => {
      // The lease lives on the store's head rows: the schema must exist.
      await (migrated ??= migratePostgres(TEST_POSTGRES_URL, { schema }));
      return openPostgresSessionLocker(TEST_POSTGRES_URL, schema);
    },
  };
}

describe('SessionLocker contract: lock files', () => {
  for (const contractCase of sessionLockerContract(fileHarness()))
    it(contractCase.name, contractCase.run);
});

describe.skipIf(!server.available)('SessionLocker contract: PostgreSQL advisory locks', () => {
  for (const contractCase of sessionLockerContract(postgresHarness()))
    it(contractCase.name, contractCase.run);
});

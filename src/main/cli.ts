import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { runCli } from '../interfaces/cli/program.js';
import { systemClock } from '../infrastructure/system/system-clock.js';
import { createUuidV7IdSource } from '../infrastructure/system/uuid-v7-id-source.js';
import { correxHome, defaultStoreLocation } from './store-location.js';

/** The composition root of the `correx` executable: real stores, real output, the process's arguments. */
const { version } = createRequire(import.meta.url)('../../package.json') as { version: string };

process.exitCode = await runCli(
  {
    version,
    correxHome: correxHome(),
    clock: systemClock,
    ids: createUuidV7IdSource(),
    user: process.env.USER || process.env.USERNAME || 'unknown',
    defaultStore: defaultStoreLocation(),
    async openStores(location) {
      // Loaded on first use, so `--help` and usage errors do not pay for database drivers.
      const { openStores, parseStoreLocation } = await import('../infrastructure/open-store.js');
      // A SQLite store's folder ($CORREX_HOME on first use) is created, not reported missing.
      const parsed = parseStoreLocation(location);
      if (parsed.kind === 'sqlite') mkdirSync(dirname(parsed.path), { recursive: true });
      return openStores(location);
    },
    async migrateStore(location, options) {
      const { migrateStore } = await import('../infrastructure/migrate-store.js');
      return migrateStore(location, options);
    },
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
  },
  process.argv.slice(2),
);

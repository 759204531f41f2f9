import { homedir } from 'node:os';
import { join } from 'node:path';

/** correx's home: $CORREX_HOME, else ~/.correx. */
export function correxHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.CORREX_HOME || join(homedir(), '.correx');
}

/** The store used when no `--store` is given: $CORREX_STORE, else $CORREX_HOME/correx.db. */
export function defaultStoreLocation(env: NodeJS.ProcessEnv = process.env): string {
  return env.CORREX_STORE || join(correxHome(env), 'correx.db');
}

import type { Command } from 'commander';
import type { CliContext, CliStores } from './cli-context.js';

/** Opens the store named by the global `--store` option for one command, and always closes it. */
export async function withStore<T>(
  context: CliContext,
  command: Command,
  use: (stores: CliStores) => Promise<T>,
): Promise<T> {
  const location = (command.optsWithGlobals() as { store?: string }).store ?? context.defaultStore;
  const stores = await context.openStores(location);
  try {
    return await use(stores);
  } finally {
    await stores.close();
  }
}

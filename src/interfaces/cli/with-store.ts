import type { Command } from 'commander';
import type { CliContext, CliStores } from './cli-context.js';

/** The store a command works on: the global `--store` option, else the default. */
export function storeLocation(context: Pick<CliContext, 'defaultStore'>, command: Command): string {
  return (command.optsWithGlobals() as { store?: string }).store ?? context.defaultStore;
}

/**
 * Opens the store named by the global `--store` option for one command, and always closes it.
 * Only commands that start sessions pass `create`: the others need a store that already exists.
 */
export async function withStore<T>(
  context: CliContext,
  command: Command,
  use: (stores: CliStores) => Promise<T>,
  options: { readonly create?: boolean } = {},
): Promise<T> {
  const stores = await context.openStores(storeLocation(context, command), options);
  try {
    return await use(stores);
  } finally {
    await stores.close();
  }
}

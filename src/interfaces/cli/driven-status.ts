import type { Command } from 'commander';
import type { CliContext } from './cli-context.js';
import { storeLocation } from './with-store.js';

/**
 * A session's status as a person should read it: a log that says `running` while no live
 * process holds the session's driver lock (its driver was killed, the machine restarted) is
 * "interrupted (nobody driving)": `correx resume` continues it. Unchanged when the store cannot
 * tell who drives.
 */
export async function drivenStatus(
  context: Pick<CliContext, 'sessionDriver' | 'defaultStore'>,
  command: Command,
  sessionId: string,
  status: string,
): Promise<string> {
  if (status !== 'running' || context.sessionDriver === undefined) return status;
  const driver = await context.sessionDriver(storeLocation(context, command), sessionId);
  return driver === null ? 'interrupted (nobody driving)' : status;
}

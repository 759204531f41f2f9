import { Command, InvalidArgumentError } from 'commander';
import type { CommandContext } from '../cli-context.js';
import { formatJson, formatTable } from '../format.js';
import { withStore } from '../with-store.js';

export function parseCount(value: string): number {
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < 0)
    throw new InvalidArgumentError('expected a whole number >= 0');
  return number;
}

/** The fields worth a glance in a one-line listing; `--json` has everything. */
function summarize(payload: Record<string, unknown>): string {
  return Object.entries(payload)
    .filter(([key]) => key !== 'type')
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' ')
    .slice(0, 120);
}

export function eventsCommand(context: CommandContext): Command {
  return new Command('events')
    .description("print a session's events in order (hash chain verified as they are read)")
    .argument('<session>', 'session id')
    .option('--after <sequence>', 'only events after this sequence', parseCount)
    .option('--limit <count>', 'at most this many events', parseCount)
    .option('--json', 'print JSON')
    .action(
      async (
        sessionId: string,
        options: { after?: number; limit?: number; json?: boolean },
        command: Command,
      ) => {
        await withStore(context, command, async ({ events }) => {
          const read = await events.read(sessionId, {
            ...(options.after !== undefined && { afterSequence: options.after }),
            ...(options.limit !== undefined && { limit: options.limit }),
          });
          if (options.json) return context.out(formatJson(read));
          if (read.length === 0) return context.out(`no events for session ${sessionId}`);
          context.out(
            formatTable(
              ['SEQ', 'TIME', 'TYPE', 'DETAILS'],
              read.map((event) => [
                String(event.sequence),
                event.timestamp,
                event.payload.type,
                summarize(event.payload),
              ]),
            ),
          );
        });
      },
    );
}

import { Command, InvalidArgumentError } from 'commander';
import { resolveSessionRef, SESSION_ARGUMENT } from '../session-ref.js';
import type { CommandContext } from '../cli-context.js';
import { canonicalJson } from '../../../core/events/canonical-json.js';
import { formatTable } from '../format.js';
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
    .argument('[session]', SESSION_ARGUMENT)
    .option('--from <sequence>', 'start at this sequence (default 1)', parseCount)
    .option('--limit <count>', 'at most this many events', parseCount)
    .option('--json', 'print NDJSON: one canonical envelope (with position and hash) per line')
    .action(
      async (
        typed: string | undefined,
        options: { from?: number; limit?: number; json?: boolean },
        command: Command,
      ) => {
        await withStore(context, command, async ({ events }) => {
          const sessionId = await resolveSessionRef(events, typed, command);
          const after = options.from !== undefined ? Math.max(0, options.from - 1) : 0;
          if (options.json) {
            // Streamed page by page: a million-event session never sits in memory whole.
            let lines: string[] = [];
            let left = options.limit ?? Infinity;
            if (left === 0) return;
            for await (const event of events.stream(sessionId, { afterSequence: after })) {
              lines.push(canonicalJson(event));
              left -= 1;
              if (lines.length === 500) {
                context.out(lines.join('\n'));
                lines = [];
              }
              if (left === 0) break;
            }
            if (lines.length > 0) context.out(lines.join('\n'));
            return;
          }
          const read = await events.read(sessionId, {
            ...(options.from !== undefined && { afterSequence: Math.max(0, options.from - 1) }),
            ...(options.limit !== undefined && { limit: options.limit }),
          });
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

import { Command } from 'commander';
import type { CommandContext } from '../cli-context.js';
import { formatJson, formatTable } from '../format.js';
import { withStore } from '../with-store.js';

export function sessionsCommand(context: CommandContext): Command {
  return new Command('sessions')
    .description('list the sessions in the store')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }, command: Command) => {
      await withStore(context, command, async ({ events }) => {
        const sessions = await events.listSessions();
        if (options.json) return context.out(formatJson(sessions));
        if (sessions.length === 0) return context.out('no sessions yet');
        context.out(
          formatTable(
            ['SESSION', 'EVENTS', 'FIRST EVENT', 'LAST EVENT'],
            sessions.map((session) => [
              session.sessionId,
              String(session.lastSequence),
              session.firstTimestamp,
              session.lastTimestamp,
            ]),
          ),
        );
      });
    });
}

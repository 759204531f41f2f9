import { Command } from 'commander';
import { copySessions } from '../../../infrastructure/store-copy.js';
import type { CommandContext } from '../cli-context.js';
import { formatJson, formatTable } from '../format.js';

export function storeCommand(context: CommandContext): Command {
  const store = new Command('store').description('work with whole stores');
  store
    .command('copy')
    .description(
      'copy sessions between stores, keeping ids, bytes and hashes; verifies every chain on arrival',
    )
    .requiredOption('--from <location>', 'source store: SQLite file or postgres:// URL')
    .requiredOption('--to <location>', 'target store: SQLite file or postgres:// URL')
    .option('--session <id...>', 'only these sessions (default: all)')
    .option('--json', 'print JSON')
    .action(async (options: { from: string; to: string; session?: string[]; json?: boolean }) => {
      const from = await context.openStores(options.from);
      try {
        const to = await context.openStores(options.to, { create: true });
        try {
          const reports = await copySessions({
            from: from.events,
            to: to.events,
            ...(options.session && { sessionIds: options.session }),
          });
          if (options.json) return context.out(formatJson(reports));
          context.out(
            formatTable(
              ['SESSION', 'COPIED', 'ALREADY THERE', 'LAST SEQ', 'HEAD HASH'],
              reports.map((r) => [
                r.sessionId,
                String(r.copied),
                String(r.alreadyPresent),
                String(r.lastSequence),
                r.headHash,
              ]),
            ),
          );
          context.out(
            `${reports.length} session(s) from ${from.location} to ${to.location}, hash chains verified`,
          );
        } finally {
          await to.close();
        }
      } finally {
        await from.close();
      }
    });
  return store;
}

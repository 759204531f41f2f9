import { Command } from 'commander';
import type { CommandContext } from '../cli-context.js';
import { formatJson } from '../format.js';
import { storeLocation } from '../with-store.js';

export function migrateCommand(context: CommandContext): Command {
  return new Command('migrate')
    .description(
      "bring the store's schema up to date (safe to run twice, or from several processes at once)",
    )
    .option('--schema <name>', 'PostgreSQL schema holding correx tables (default: correx)')
    .option('--json', 'print JSON')
    .action(async (options: { schema?: string; json?: boolean }, command: Command) => {
      const report = await context.migrateStore(
        storeLocation(context, command),
        options.schema === undefined ? {} : { schema: options.schema },
      );
      if (options.json) return context.out(formatJson(report));
      const where = report.schema
        ? `${report.location} (schema ${report.schema})`
        : report.location;
      context.out(
        report.fromVersion === report.toVersion
          ? `${where}: schema already at version ${report.toVersion}`
          : `${where}: schema migrated from version ${report.fromVersion} to ${report.toVersion}`,
      );
    });
}

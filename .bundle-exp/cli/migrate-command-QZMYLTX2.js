import {
  formatJson
} from "./chunk-5MQ6PZFE.js";
import {
  storeLocation
} from "./chunk-UBE6EJMR.js";
import "./chunk-7N5K7NRY.js";

// src/interfaces/cli/commands/migrate-command.ts
import { Command } from "commander";
function migrateCommand(context) {
  return new Command("migrate").description(
    "bring the store's schema up to date (safe to run twice, or from several processes at once)"
  ).option("--schema <name>", "PostgreSQL schema holding correx tables (default: correx)").option("--json", "print JSON").action(async (options, command) => {
    const report = await context.migrateStore(
      storeLocation(context, command),
      options.schema === void 0 ? {} : { schema: options.schema }
    );
    if (options.json) return context.out(formatJson(report));
    const where = report.schema ? `${report.location} (schema ${report.schema})` : report.location;
    context.out(
      report.fromVersion === report.toVersion ? `${where}: schema already at version ${report.toVersion}` : `${where}: schema migrated from version ${report.fromVersion} to ${report.toVersion}`
    );
  });
}
export {
  migrateCommand
};

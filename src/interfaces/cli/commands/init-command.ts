import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Command } from 'commander';
import { CorrexError } from '../../../core/base/correx-error.js';
import { HARNESS_FILE } from '../../../infrastructure/config/load-harness-config.js';
import {
  USER_HARNESS_TEMPLATE,
  userHarnessTemplateFor,
  WORKSPACE_HARNESS_TEMPLATE,
} from '../../../infrastructure/config/harness-template.js';
import { visibleText } from '../../../core/base/visible-text.js';
import type { CommandContext } from '../cli-context.js';

export function initCommand(context: CommandContext): Command {
  return new Command('init')
    .description(
      `write a commented ${HARNESS_FILE}: yours in $CORREX_HOME, or a repository's with --workspace`,
    )
    .option(
      '--workspace <dir>',
      "write the repository's narrower template into this folder instead",
    )
    .option('--force', 'overwrite an existing file')
    .action((options: { workspace?: string; force?: boolean }) => {
      const dir = options.workspace === undefined ? context.correxHome : resolve(options.workspace);
      const file = join(dir, HARNESS_FILE);
      if (existsSync(file) && !options.force) {
        throw new CorrexError(
          'config_exists',
          `${file} already exists; pass --force to overwrite it`,
        );
      }
      mkdirSync(dir, { recursive: true });
      const server = options.workspace === undefined ? context.environmentModel : undefined;
      writeFileSync(
        file,
        options.workspace !== undefined
          ? WORKSPACE_HARNESS_TEMPLATE
          : server === undefined
            ? USER_HARNESS_TEMPLATE
            : userHarnessTemplateFor(server),
        { mode: 0o600 },
      );
      context.out(`wrote ${file}`);
      // The file's models win over the environment from now on: say so, and what carried over.
      if (server !== undefined)
        context.out(
          visibleText(
            `OPENAI_BASE_URL is set: from now on the models in ${file} win over it (the environment is used only when the file configures none). Its provider "local" points at ${server.baseUrl}${
              server.model === undefined
                ? '; set its model: to the name your server serves'
                : ` with model ${server.model}`
            }, so runs keep using that server. Check with: correx doctor`,
          ),
        );
    });
}

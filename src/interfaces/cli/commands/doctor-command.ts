import { resolve } from 'node:path';
import { Command } from 'commander';
import { visibleText } from '../../../core/base/visible-text.js';
import { CorrexError } from '../../../core/base/correx-error.js';
import { parseDuration } from '../../../core/base/duration.js';
import type { CommandContext } from '../cli-context.js';
import { formatJson } from '../format.js';
import { storeLocation } from '../with-store.js';

/**
 * `correx doctor`: checks what a run needs before one is started (the sandbox, the store, which
 * configuration wins, each model endpoint) and prints one line per check, with the fix for each
 * problem. Exit 0 when every check passes, 1 otherwise.
 */
export function doctorCommand(context: CommandContext): Command {
  return new Command('doctor')
    .description(
      'check the sandbox, the store, which model configuration wins and each model endpoint; prints the fix for each problem',
    )
    .option('--workspace <dir>', 'the workspace whose harness.yaml also applies (default: here)')
    .option('--json', 'print the checks as JSON')
    .option(
      '--probe-timeout <duration>',
      'the longest each model probe may take, its answer included (default 30s; a slow local model may need 2m)',
    )
    .action(
      async (
        options: { workspace?: string; json?: boolean; probeTimeout?: string },
        command: Command,
      ) => {
        if (context.runDoctor === undefined) throw new Error('correx doctor is not available here');
        const probeTimeoutMs =
          options.probeTimeout === undefined ? undefined : parseDuration(options.probeTimeout);
        if (probeTimeoutMs === null || probeTimeoutMs === 0)
          throw new CorrexError(
            'usage',
            `--probe-timeout takes a duration such as 10s or 2m, got ${JSON.stringify(options.probeTimeout)}`,
          );
        const checks = await context.runDoctor({
          store: storeLocation(context, command),
          workspace: resolve(context.cwd, options.workspace ?? '.'),
          ...(probeTimeoutMs === undefined ? {} : { probeTimeoutMs }),
        });
        const problems = checks.filter((check) => !check.ok).length;
        if (options.json) {
          context.out(formatJson({ ok: problems === 0, checks }));
        } else {
          for (const check of checks) {
            context.out(visibleText(`${check.ok ? '✓' : '✗'} ${check.name}: ${check.detail}`));
            if (check.fix !== undefined) context.out(visibleText(`    fix: ${check.fix}`));
          }
          context.out(
            problems === 0
              ? 'all checks passed'
              : `${problems} problem${problems === 1 ? '' : 's'} found`,
          );
        }
        if (problems > 0) context.fail(1);
      },
    );
}

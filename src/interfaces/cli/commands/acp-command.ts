import { Command, Option } from 'commander';
import { OperatorModeSchema, type OperatorMode } from '../../../core/approvals/approval-tier.js';
import type { CommandContext } from '../cli-context.js';

const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

/** `correx acp`: correx as an Agent Client Protocol agent on stdio, for editors (docs/acp.md). */
export function acpCommand(context: CommandContext): Command {
  return new Command('acp')
    .description(
      'serve correx as an ACP agent on stdio for editors (Zed, JetBrains...): sessions, approvals as permission requests, diffs, replayable logs',
    )
    .option(
      '--allow-root <dir>',
      'a folder ACP sessions may work in (repeatable; default: the current folder)',
      collect,
    )
    .option(
      '--workflow <name|file>',
      'the workflow new sessions run (default: chat when configured, else the default workflow)',
    )
    .option(
      '--model <profile>',
      'the model profile new sessions use (default: the configured routing)',
    )
    .addOption(
      new Option(
        '--mode <mode>',
        'the approval mode new sessions start in (default: the configured mode)',
      ).choices(OperatorModeSchema.options),
    )
    .action(
      async (
        options: { allowRoot?: string[]; workflow?: string; model?: string; mode?: OperatorMode },
        command: Command,
      ) => {
        const { serveAcp } = await import('../../acp/serve-acp.js');
        await serveAcp(context, {
          location: (command.optsWithGlobals() as { store?: string }).store ?? context.defaultStore,
          allowRoots: options.allowRoot ?? [context.cwd],
          ...(options.workflow === undefined ? {} : { workflow: options.workflow }),
          ...(options.model === undefined ? {} : { modelProfile: options.model }),
          ...(options.mode === undefined ? {} : { mode: options.mode }),
        });
      },
    );
}

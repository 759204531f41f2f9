import { Command } from 'commander';
import { CorrexError } from '../../../core/base/correx-error.js';
import { visibleText } from '../../../core/base/visible-text.js';
import { UnknownSessionError } from '../../../core/kernel/index.js';
import {
  createPreimageStore,
  preimageDirectory,
} from '../../../infrastructure/sandbox/preimage-store.js';
import { undoSessionChanges } from '../../session-undo.js';
import type { CommandContext } from '../cli-context.js';
import { parseCount } from './events-command.js';
import { withStore } from '../with-store.js';
import { resolveSessionRef, SESSION_ARGUMENT } from '../session-ref.js';
import { sessionTurns } from '../../../core/kernel/index.js';
import { TURN_HELP, turnOption } from '../turn-option.js';

/**
 * `correx undo <session> [--to <seq> | --stage <name>]`: restores the workspace files the
 * session's recorded changes touched to a recorded point, from the stored pre-images; refuses,
 * listing them, files changed outside correx since; records the restore as `workspace_restored`.
 */
export function undoCommand(context: CommandContext): Command {
  return new Command('undo')
    .description(
      'restore the workspace to a recorded point of a session from its change records (recorded as workspace_restored)',
    )
    .argument('[session]', SESSION_ARGUMENT)
    .option('--to <sequence>', 'undo every change recorded after this event', parseCount)
    .option('--stage <id>', 'undo every change since the stage last started')
    .option(
      '--turn <n>',
      `undo every change since the start of ${TURN_HELP} (that turn's and later ones')`,
    )
    .option('--by <name>', 'who undoes (default: $USER)')
    .option('--force', 'also while the session is recorded as running (after a crash)')
    .action(
      async (
        typed: string | undefined,
        options: { to?: number; stage?: string; turn?: string; by?: string; force?: boolean },
        command: Command,
      ) => {
        if ([options.to, options.stage, options.turn].filter((o) => o !== undefined).length > 1)
          throw new CorrexError(
            'usage',
            'give at most one of --to <sequence>, --stage <id> or --turn <n>',
          );
        await withStore(context, command, async ({ events }) => {
          const sessionId = await resolveSessionRef(events, typed, command);
          if (options.turn !== undefined) {
            const read = await events.read(sessionId);
            const turn = turnOption(options.turn, read);
            const from = sessionTurns(read).find((each) => each.turn === turn)!.fromSequence;
            options = { ...options, to: Math.max(0, from - 1) };
          }
          const result = await undoSessionChanges(
            {
              store: events,
              recording: context,
              preimages: createPreimageStore(preimageDirectory(context.correxHome)),
            },
            {
              sessionId,
              by: options.by ?? context.user,
              ...(options.to === undefined ? {} : { toSequence: options.to }),
              ...(options.stage === undefined ? {} : { stageId: options.stage }),
              ...(options.force === true ? { force: true } : {}),
            },
          );
          switch (result.outcome) {
            case 'unknown_session':
              throw new UnknownSessionError(sessionId);
            case 'running':
              throw new CorrexError(
                'usage',
                `session ${sessionId} is running: pause or cancel it first (or --force after a crash)`,
              );
            case 'invalid':
              throw new CorrexError('usage', result.message);
            case 'nothing':
              context.out(`nothing to undo after #${result.toSequence} in session ${sessionId}`);
              return;
            case 'refused': {
              const lines = [
                ...result.changedSince.map(
                  (path) => `  changed outside correx since: ${visibleText(path)}`,
                ),
                ...result.missingPreimages.map(
                  (path) => `  no stored pre-image: ${visibleText(path)}`,
                ),
                ...result.outsideWorkspace.map(
                  (path) =>
                    `  no longer inside the workspace (a folder on its way is now a symlink or a file): ${visibleText(path)}`,
                ),
              ];
              context.err(`correx: refused to undo; nothing was changed:\n${lines.join('\n')}`);
              context.fail(1);
              return;
            }
            case 'restored':
              for (const file of result.files)
                context.out(
                  `${file.access === 'delete' ? 'deleted ' : 'restored'} ${visibleText(file.path)}`,
                );
              context.out(
                `recorded workspace_restored as #${result.event.sequence} in session ${sessionId} (${result.files.length} file(s), back to #${result.toSequence})`,
              );
          }
        });
      },
    );
}

import { Command } from 'commander';
import {
  createPreimageStore,
  preimageDirectory,
} from '../../../infrastructure/sandbox/preimage-store.js';
import { describeSessionDiff, sessionDiffLines } from '../../session-diff.js';
import type { CommandContext } from '../cli-context.js';
import { withStore } from '../with-store.js';
import { resolveSessionRef, SESSION_ARGUMENT } from '../session-ref.js';
import { eventsOfTurn } from '../../../core/kernel/index.js';
import { TURN_HELP, turnOption } from '../turn-option.js';

/**
 * `correx diff <session> [--stage S]`: what each call changed in the workspace, from the
 * recorded change records, with the command that changed it; file contents from the stored
 * pre-images (`<correx home>/preimages`), or a note when they were not kept.
 */
export function diffCommand(context: CommandContext): Command {
  return new Command('diff')
    .description('show what a session changed in the workspace, call by call, with the commands')
    .argument('[session]', SESSION_ARGUMENT)
    .option('--stage <id>', 'only the calls of this stage')
    .option('--turn <n>', `only the calls of ${TURN_HELP}`)
    .action(
      async (
        typed: string | undefined,
        options: { stage?: string; turn?: string },
        command: Command,
      ) => {
        const blobs = createPreimageStore(preimageDirectory(context.correxHome));
        await withStore(context, command, async ({ events }) => {
          const sessionId = await resolveSessionRef(events, typed, command);
          const all = await events.read(sessionId);
          const read =
            options.turn === undefined
              ? all
              : (eventsOfTurn(all, turnOption(options.turn, all)) ?? []);
          const changes = describeSessionDiff(
            read,
            blobs,
            options.stage === undefined ? {} : { stageId: options.stage },
          );
          if (changes.length === 0) {
            context.out(
              `no recorded changes in session ${sessionId}${options.turn === undefined ? '' : ` turn ${options.turn}`}`,
            );
            return;
          }
          context.out(sessionDiffLines(changes).join('\n'));
        });
      },
    );
}

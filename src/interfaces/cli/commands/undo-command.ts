import { Command } from 'commander';
import { CorrexError } from '../../../core/base/correx-error.js';
import { replay } from '../../../core/events/replay.js';
import { appendToSession } from '../../../core/kernel/append-decided.js';
import { planUndo } from '../../../core/kernel/session-changes.js';
import { sessionProjection } from '../../../core/sessions/session-projection.js';
import {
  createPreimageStore,
  preimageDirectory,
} from '../../../infrastructure/sandbox/preimage-store.js';
import { restoreWorkspace } from '../../../infrastructure/sandbox/restore-workspace.js';
import type { CommandContext } from '../cli-context.js';
import { parseCount } from './events-command.js';
import { withStore } from '../with-store.js';

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
    .argument('<session>', 'session id')
    .option('--to <sequence>', 'undo every change recorded after this event', parseCount)
    .option('--stage <id>', 'undo every change since the stage last started')
    .option('--by <name>', 'who undoes (default: $USER)')
    .option('--force', 'also while the session is recorded as running (after a crash)')
    .action(
      async (
        sessionId: string,
        options: { to?: number; stage?: string; by?: string; force?: boolean },
        command: Command,
      ) => {
        if (options.to !== undefined && options.stage !== undefined)
          throw new CorrexError('usage', 'give at most one of --to <sequence> or --stage <id>');
        await withStore(context, command, async ({ events }) => {
          const read = await events.read(sessionId);
          if (read.length === 0)
            throw new CorrexError('usage', `no events for session ${sessionId}`);
          const { state } = await replay(events, sessionProjection, sessionId);
          if (state.status === 'running' && options.force !== true)
            throw new CorrexError(
              'usage',
              `session ${sessionId} is running: pause or cancel it first (or --force after a crash)`,
            );
          const workspace = (
            read.find((event) => event.payload.type === 'session_created')?.payload as
              { workspace?: string } | undefined
          )?.workspace;
          if (workspace === undefined)
            throw new CorrexError('usage', `session ${sessionId} names no workspace`);
          const plan = planUndo(read, {
            ...(options.to === undefined ? {} : { toSequence: options.to }),
            ...(options.stage === undefined ? {} : { stageId: options.stage }),
          });
          if (!plan.ok) throw new CorrexError('usage', plan.message);
          if (plan.steps.length === 0) {
            context.out(`nothing to undo after #${plan.toSequence} in session ${sessionId}`);
            return;
          }
          const result = restoreWorkspace(plan.steps, {
            workspaceRoot: workspace,
            preimages: createPreimageStore(preimageDirectory(context.correxHome)),
          });
          if (!result.ok) {
            const lines = [
              ...result.changedSince.map((path) => `  changed outside correx since: ${path}`),
              ...result.missingPreimages.map((path) => `  no stored pre-image: ${path}`),
            ];
            context.err(`correx: refused to undo; nothing was changed:\n${lines.join('\n')}`);
            context.fail(1);
            return;
          }
          const stored = await appendToSession(context, events, sessionId, {
            type: 'workspace_restored',
            by: options.by ?? context.user,
            toSequence: plan.toSequence,
            stageId: plan.stageId,
            files: result.files,
          });
          for (const file of result.files)
            context.out(`${file.access === 'delete' ? 'deleted ' : 'restored'} ${file.path}`);
          context.out(
            `recorded workspace_restored as #${stored.sequence} in session ${sessionId} (${result.files.length} file(s), back to #${plan.toSequence})`,
          );
        });
      },
    );
}

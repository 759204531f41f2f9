import { Command } from 'commander';
import { replay } from '../../../core/events/replay.js';
import { recordCommand } from '../../../core/kernel/record-command.js';
import { isFinalStatus } from '../../../core/sessions/session-status.js';
import { sessionProjection } from '../../../core/sessions/session-projection.js';
import {
  findSessionWorktree,
  mergeSessionBranch,
  removeSessionWorktree,
  WorktreeError,
  type SessionWorktree,
} from '../../../infrastructure/workspace/git-worktree.js';
import type { CommandContext } from '../cli-context.js';
import type { CliStores } from '../cli-context.js';
import { withStore } from '../with-store.js';
import { resolveSessionRef, SESSION_ARGUMENT } from '../session-ref.js';

/** The worktree a recorded session works in, or a WorktreeError saying it has none. */
async function worktreeOf(
  stores: CliStores,
  typed: string | undefined,
  command: Command,
): Promise<{ sessionId: string; worktree: SessionWorktree; final: boolean }> {
  const sessionId = await resolveSessionRef(stores.events, typed, command);
  const { state } = await replay(stores.events, sessionProjection, sessionId);
  const worktree =
    state.workspace === null ? null : findSessionWorktree(state.workspace, sessionId);
  if (worktree === null)
    throw new WorktreeError(
      `session ${sessionId} has no worktree (started without --worktree, or discarded)`,
    );
  return { sessionId, worktree, final: isFinalStatus(state.status) };
}

/** `correx branch`, `correx merge` and `correx discard`: a worktree session's branch. */
export function worktreeCommands(context: CommandContext): Command[] {
  const branch = new Command('branch')
    .description("print the git branch of a session's worktree (correx/<session>)")
    .argument('[session]', SESSION_ARGUMENT)
    .action(async (typed: string | undefined, _options: unknown, command: Command) => {
      await withStore(context, command, async (stores) => {
        const { worktree } = await worktreeOf(stores, typed, command);
        context.out(worktree.branch);
        context.out(`worktree ${worktree.path}; from ${worktree.base} in ${worktree.repository}`);
      });
    });

  const merge = new Command('merge')
    .description(
      "merge a session's branch into the branch it started from (refused, and nothing merged, on conflict)",
    )
    .argument('[session]', SESSION_ARGUMENT)
    .action(async (typed: string | undefined, _options: unknown, command: Command) => {
      await withStore(context, command, async (stores) => {
        const { sessionId, worktree, final } = await worktreeOf(stores, typed, command);
        if (!final)
          throw new WorktreeError(
            `session ${sessionId} has not ended; merge it once it has (or cancel it)`,
          );
        const { commit } = mergeSessionBranch(worktree);
        context.out(`merged ${worktree.branch} into ${worktree.base} (${commit.slice(0, 12)})`);
      });
    });

  const discard = new Command('discard')
    .description("remove a session's worktree and branch (cancels the session first if it is open)")
    .argument('[session]', SESSION_ARGUMENT)
    .action(async (typed: string | undefined, _options: unknown, command: Command) => {
      await withStore(context, command, async (stores) => {
        const { sessionId, worktree, final } = await worktreeOf(stores, typed, command);
        if (!final) {
          await recordCommand(context, stores.events, sessionId, {
            type: 'cancel',
            by: context.user,
            reason: 'discarded with correx discard',
          });
          context.out(`cancelled ${sessionId}`);
        }
        const removed = removeSessionWorktree(worktree);
        context.out(`removed worktree ${removed.path} and branch ${removed.branch}`);
      });
    });
  return [branch, merge, discard];
}

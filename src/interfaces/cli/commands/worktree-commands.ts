import { Command } from 'commander';
import { replay } from '../../../core/events/replay.js';
import { recordCommand } from '../../../core/kernel/record-command.js';
import { isFinalStatus } from '../../../core/sessions/session-status.js';
import { sessionProjection } from '../../../core/sessions/session-projection.js';
import {
  readRecordedWorktree,
  type RecordedWorktree,
} from '../../../core/sessions/recorded-worktree.js';
import {
  derivedSessionWorktree,
  mergeSessionBranch,
  removeSessionWorktree,
  WorktreeError,
} from '../../../infrastructure/workspace/git-worktree.js';
import type { CommandContext } from '../cli-context.js';
import type { CliStores } from '../cli-context.js';
import { withStore } from '../with-store.js';

/**
 * The worktree a recorded session works in, as its `session_created` recorded it (or, for a
 * session recorded before that, where correx puts worktrees), never as the workspace's `.git`
 * says; a WorktreeError when it has none.
 */
async function worktreeOf(
  stores: CliStores,
  sessionId: string,
): Promise<{ worktree: RecordedWorktree; final: boolean }> {
  const { state, sequence } = await replay(stores.events, sessionProjection, sessionId);
  if (sequence === 0) throw new WorktreeError(`no session ${sessionId} in this store`);
  const worktree =
    (await readRecordedWorktree(stores.events, sessionId)) ??
    (state.workspace === null ? null : derivedSessionWorktree(state.workspace, sessionId));
  if (worktree === null)
    throw new WorktreeError(
      `session ${sessionId} has no worktree (started without --worktree, or discarded)`,
    );
  return { worktree, final: isFinalStatus(state.status) };
}

/** `correx branch`, `correx merge` and `correx discard`: a worktree session's branch. */
export function worktreeCommands(context: CommandContext): Command[] {
  const branch = new Command('branch')
    .description("print the git branch of a session's worktree (correx/<session>)")
    .argument('<session>', 'session id')
    .action(async (sessionId: string, _options: unknown, command: Command) => {
      await withStore(context, command, async (stores) => {
        const { worktree } = await worktreeOf(stores, sessionId);
        context.out(worktree.branch);
        context.out(`worktree ${worktree.path}; from ${worktree.base} in ${worktree.repository}`);
      });
    });

  const merge = new Command('merge')
    .description(
      "merge a session's branch into the branch it started from (refused, and nothing merged, on conflict)",
    )
    .argument('<session>', 'session id')
    .action(async (sessionId: string, _options: unknown, command: Command) => {
      await withStore(context, command, async (stores) => {
        const { worktree, final } = await worktreeOf(stores, sessionId);
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
    .argument('<session>', 'session id')
    .action(async (sessionId: string, _options: unknown, command: Command) => {
      await withStore(context, command, async (stores) => {
        const { worktree, final } = await worktreeOf(stores, sessionId);
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

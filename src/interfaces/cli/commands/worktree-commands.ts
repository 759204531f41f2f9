import { Command } from 'commander';
import { replay } from '../../../core/events/replay.js';
import { recordCommand } from '../../../core/kernel/index.js';
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
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  AttestationUnreadableError,
  parseEnvelope,
} from '../../../infrastructure/provenance/dsse-envelope.js';
import { readTreeUnderReview } from '../../../infrastructure/provenance/tree-under-review.js';
import {
  decodeStatement,
  statedSessionId,
} from '../../../infrastructure/provenance/verify-attestation.js';
import type { CliStores } from '../cli-context.js';
import { withStore } from '../with-store.js';
import { resolveSessionRef, SESSION_ARGUMENT } from '../session-ref.js';

/**
 * The worktree a recorded session works in, as its `session_created` recorded it (or, for a
 * session recorded before that, where correx puts worktrees), never as the workspace's `.git`
 * says; a WorktreeError when it has none.
 */
async function worktreeOf(
  stores: CliStores,
  typed: string | undefined,
  command: Command,
): Promise<{ sessionId: string; worktree: RecordedWorktree; final: boolean }> {
  const sessionId = await resolveSessionRef(stores.events, typed, command);
  const { state } = await replay(stores.events, sessionProjection, sessionId);
  const worktree =
    (await readRecordedWorktree(stores.events, sessionId)) ??
    (state.workspace === null ? null : derivedSessionWorktree(state.workspace, sessionId));
  if (worktree === null)
    throw new WorktreeError(
      `session ${sessionId} has no worktree (started without --worktree, or discarded)`,
    );
  return { sessionId, worktree, final: isFinalStatus(state.status) };
}

/**
 * The merge commit's trailer naming a statement by the SHA-256 of its payload, refused unless the
 * statement is about this session and names the branch's head as it is now.
 */
function attestationTrailer(file: string, sessionId: string, worktree: RecordedWorktree): string {
  const envelope = parseEnvelope(readFileSync(resolve(file), 'utf8'), file);
  const decoded = decodeStatement(envelope);
  if ('problem' in decoded) throw new AttestationUnreadableError(`${file}: ${decoded.problem}`);
  if (statedSessionId(decoded.statement) !== sessionId)
    throw new AttestationUnreadableError(`${file} is not about session ${sessionId}`);
  const git = (decoded.statement.predicate as { git?: { commit?: unknown } | null }).git;
  const head = readTreeUnderReview(worktree.path, worktree);
  if (head.kind !== 'git' || git?.commit !== head.commit)
    throw new AttestationUnreadableError(
      `${file} names commit ${String(git?.commit ?? 'none').slice(0, 12)}, but ${worktree.branch} is at ${head.kind === 'git' ? head.commit.slice(0, 12) : 'no commit'}: attest again`,
    );
  const digest = createHash('sha256').update(Buffer.from(envelope.payload, 'base64')).digest('hex');
  return `Correx-Attestation: sha256:${digest}`;
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
    .option(
      '--attestation <file>',
      "a statement from correx attest about the branch's head: its digest goes in the merge commit's Correx-Attestation trailer",
    )
    .action(
      async (typed: string | undefined, options: { attestation?: string }, command: Command) => {
        await withStore(context, command, async (stores) => {
          const { sessionId, worktree, final } = await worktreeOf(stores, typed, command);
          if (!final)
            throw new WorktreeError(
              `session ${sessionId} has not ended; merge it once it has (or cancel it)`,
            );
          const trailers =
            options.attestation === undefined
              ? []
              : [attestationTrailer(options.attestation, sessionId, worktree)];
          const { commit } = mergeSessionBranch(worktree, { trailers });
          context.out(`merged ${worktree.branch} into ${worktree.base} (${commit.slice(0, 12)})`);
        });
      },
    );

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

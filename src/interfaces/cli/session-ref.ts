import type { Command } from 'commander';
import { CorrexError } from '../../core/base/correx-error.js';
import type { CorrexEventStore } from '../../core/event-catalog.js';
import { UnknownSessionError } from '../../core/kernel/index.js';

/** How commands describe their session argument. */
export const SESSION_ARGUMENT = 'session id, or a unique start of one (or --last)';

/**
 * The session a command means: the exact id, else the one session whose id starts with what was
 * typed, else (with no id and the global `--last`) the newest session. An ambiguous start names
 * the candidates; an unknown one is `session_not_found`.
 */
export async function resolveSessionRef(
  store: CorrexEventStore,
  typed: string | undefined,
  command: Command,
): Promise<string> {
  const last = (command.optsWithGlobals() as { last?: boolean }).last === true;
  if (typed === undefined) {
    if (!last)
      throw new CorrexError('usage', 'give a session id (or a unique start of one), or --last');
    const newest = (await store.listSessions()).at(-1);
    if (newest === undefined)
      throw new CorrexError('session_not_found', 'there are no sessions yet');
    return newest.sessionId;
  }
  if (last) throw new CorrexError('usage', 'give a session id or --last, not both');
  if ((await store.lastSequence(typed)) > 0) return typed;
  const matches = (await store.listSessions())
    .map((summary) => summary.sessionId)
    .filter((sessionId) => sessionId.startsWith(typed));
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1)
    throw new CorrexError(
      'usage',
      `${typed} is the start of ${matches.length} sessions (${matches.slice(0, 5).join(', ')}${matches.length > 5 ? ', …' : ''}); type more of the id`,
    );
  throw new UnknownSessionError(typed);
}

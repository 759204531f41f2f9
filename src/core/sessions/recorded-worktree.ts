import { z } from 'zod';
import type { EventStore } from '../events/event-store.js';

const absolute = z.string().min(1).startsWith('/');

/**
 * Where a session isolated in a git worktree works, recorded once at its start (in
 * `session_created`): every git command correx runs for it later acts on these locations,
 * never on whatever the workspace's `.git` says by then.
 */
export const RecordedWorktreeSchema = z.strictObject({
  /** The worktree's folder: the session's workspace. */
  path: absolute,
  branch: z.string().min(1),
  /** The original working tree the session started from, left as it was. */
  repository: absolute,
  /** The git directory of `repository` (its `.git`, or its admin directory when it is a linked worktree). */
  repositoryGitDir: absolute,
  /** The repository's common git directory. */
  commonDir: absolute,
  /** The worktree's own admin directory, `<commonDir>/worktrees/<name>`. */
  gitDir: absolute,
  /** The branch (or commit, when HEAD is detached) the session started from. */
  base: z.string().min(1),
});

export type RecordedWorktree = z.infer<typeof RecordedWorktreeSchema>;

/**
 * The worktree recorded in a session's `session_created`, or null when it has none (started
 * without one, or recorded before worktrees were recorded). Reads only the log's first page.
 */
export async function readRecordedWorktree(
  store: EventStore<{ readonly type: string }>,
  sessionId: string,
): Promise<RecordedWorktree | null> {
  for (const event of await store.read(sessionId, { limit: 8 })) {
    const payload = event.payload as { type: string; worktree?: unknown };
    if (payload.type === 'session_created') {
      const parsed = RecordedWorktreeSchema.safeParse(payload.worktree);
      return parsed.success ? parsed.data : null;
    }
  }
  return null;
}

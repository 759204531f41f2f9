import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { ApiError } from './server-errors.js';

/**
 * Where a fork asked over REST rebuilds its workspace: the asked folder, or the parent's
 * workspace's sibling `<workspace>-fork-<last 8 of the fork's id>` (as `correx fork` does). The
 * folder need not exist yet, but its nearest existing ancestor, symlinks resolved, must lie
 * inside an allowed root: a client cannot have the server write outside them.
 */
export function forkWorkspace(
  asked: string | undefined,
  parentWorkspace: string | null,
  forkSessionId: string,
  roots: readonly string[],
): string {
  if (asked !== undefined && !isAbsolute(asked))
    throw new ApiError(400, 'invalid_request', 'workspace must be an absolute path');
  if (asked === undefined && parentWorkspace === null)
    throw new ApiError(400, 'invalid_request', 'the session recorded no workspace to fork');
  const path = resolve(
    asked ??
      join(
        dirname(parentWorkspace!),
        `${basename(parentWorkspace!)}-fork-${forkSessionId.slice(-8)}`,
      ),
  );
  let existing = path;
  const missing: string[] = [];
  while (!existsSync(existing)) {
    missing.unshift(basename(existing));
    const up = dirname(existing);
    if (up === existing) break;
    existing = up;
  }
  const real = join(realpathSync(existing), ...missing);
  const inside = roots.some(
    (root) => real !== root && real.startsWith(root.endsWith(sep) ? root : root + sep),
  );
  if (!inside)
    throw new ApiError(
      403,
      'workspace_not_allowed',
      `the fork's workspace ${path} is outside the allowed roots${asked === undefined ? ' (it goes beside the parent’s: name one inside a root)' : ''}`,
    );
  return real;
}

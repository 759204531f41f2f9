import { lstatSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { CorrexError } from '../../core/base/correx-error.js';
import type { RecordedWorktree } from '../../core/sessions/recorded-worktree.js';
import { WorktreeError } from './hardened-git.js';

/**
 * A git directory correx recorded is no longer where, or what, it was: most often the
 * workspace's `.git` was rewritten to point somewhere else. Nothing was run on it.
 */
export class GitLocationChangedError extends CorrexError {
  constructor(detail: string) {
    super('git_location_changed', detail);
  }
}

/** The target of a `gitdir: …` file, resolved against the file's folder; null if it is none. */
function gitFileTarget(file: string): string | null {
  let text: string;
  try {
    if (!lstatSync(file).isFile()) return null;
    text = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  const match = /^gitdir: (.+)$/.exec(text.trim());
  return match === null ? null : resolve(dirname(file), match[1]!);
}

function real(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

function isRealDirectory(path: string): boolean {
  try {
    return lstatSync(path).isDirectory() && realpathSync(path) === path;
  } catch {
    return false;
  }
}

function readLine(path: string): string | null {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return null;
  }
}

/**
 * Whether `gitDir` is a linked worktree's admin directory of `commonDir` that belongs to the
 * work tree `workTree`: directly under `<commonDir>/worktrees/`, its `commondir` leading back
 * to `commonDir` and its `gitdir` naming `<workTree>/.git`.
 */
function isAdminDirectoryOf(gitDir: string, commonDir: string, workTree: string): boolean {
  if (!isRealDirectory(gitDir) || dirname(gitDir) !== join(commonDir, 'worktrees')) return false;
  const common = readLine(join(gitDir, 'commondir'));
  if (common === null || real(resolve(gitDir, common)) !== commonDir) return false;
  return readLine(join(gitDir, 'gitdir')) === join(workTree, '.git');
}

/**
 * Verifies the repository found at a session's start before anything is created in it: its
 * git directory is the work tree's own `.git` directory, or the admin directory of a linked
 * worktree that points back at it. A `.git` file pointing anywhere else is refused.
 */
export function verifyRepositoryLocation(
  workTree: string,
  gitDir: string,
  commonDir: string,
): { readonly workTree: string; readonly gitDir: string; readonly commonDir: string } {
  const dotGit = join(workTree, '.git');
  if (gitDir === commonDir) {
    if (gitDir === dotGit && isRealDirectory(dotGit)) return { workTree, gitDir, commonDir };
    throw new WorktreeError(
      `${dotGit} points at ${gitDir}, which is not ${workTree}'s own git directory: correx starts a worktree only from a repository whose .git it can verify (a .git directory, or a linked worktree of one)`,
    );
  }
  if (gitFileTarget(dotGit) !== null && real(gitFileTarget(dotGit)!) === gitDir)
    if (isAdminDirectoryOf(gitDir, commonDir, workTree)) return { workTree, gitDir, commonDir };
  throw new WorktreeError(
    `${dotGit} points at ${gitDir}, which is not a worktree of ${commonDir} that belongs to ${workTree}: correx starts a worktree only from a repository whose .git it can verify`,
  );
}

/**
 * Verifies a session's recorded git locations before git acts on them: the repository's git
 * directory and the worktree's admin directory are still where and what they were, and (unless
 * `workspace` is false, for removing a worktree) the workspace's `.git` still points at the
 * recorded admin directory. Throws GitLocationChangedError naming what moved.
 */
export function verifyWorktreeLocation(
  worktree: RecordedWorktree,
  options: { readonly workspace?: boolean } = {},
): void {
  const { commonDir, gitDir, path, repository, repositoryGitDir } = worktree;
  if (!isRealDirectory(commonDir))
    throw new GitLocationChangedError(
      `the repository's git directory recorded at session start (${commonDir}) is gone or replaced`,
    );
  const repositoryOk =
    repositoryGitDir === commonDir
      ? real(join(repository, '.git')) === commonDir
      : isAdminDirectoryOf(repositoryGitDir, commonDir, repository);
  if (!repositoryOk)
    throw new GitLocationChangedError(
      `${repository} is no longer the working tree of the git directory recorded at session start (${repositoryGitDir})`,
    );
  if (!isAdminDirectoryOf(gitDir, commonDir, path))
    throw new GitLocationChangedError(
      `the worktree's git directory recorded at session start (${gitDir}) is gone or no longer belongs to ${path}`,
    );
  if (options.workspace === false) return;
  const target = gitFileTarget(join(path, '.git'));
  if (target === null || real(target) !== gitDir)
    throw new GitLocationChangedError(
      `the workspace's .git (${join(path, '.git')}) no longer points at the git directory recorded at session start (${gitDir}); nothing was committed`,
    );
}

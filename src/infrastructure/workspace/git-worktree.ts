import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { CorrexError } from '../../core/base/correx-error.js';

/** A git command an isolated session needs failed (not a repository, a branch in the way...). */
export class WorktreeError extends CorrexError {
  constructor(detail: string, options?: { cause?: unknown }) {
    super('worktree_failed', detail, options);
  }
}

/** Merging a session's branch would conflict: nothing was merged. */
export class MergeConflictError extends CorrexError {
  constructor(
    readonly branch: string,
    readonly into: string,
    readonly files: readonly string[],
  ) {
    super(
      'merge_conflict',
      `merging ${branch} into ${into} conflicts in ${files.join(', ') || 'the working tree'}; nothing was merged (resolve by hand with git merge ${branch})`,
    );
  }
}

/** The branch of a session's worktree. */
export function sessionBranch(sessionId: string): string {
  return `correx/${sessionId}`;
}

function git(cwd: string, args: readonly string[]): string {
  try {
    return execFileSync('git', ['-C', cwd, ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    }).trim();
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim();
    throw new WorktreeError(`git ${args.join(' ')} in ${cwd} failed: ${stderr}`, { cause: error });
  }
}

/**
 * `git` for a command that takes a repository-wide lock (`.git/config.lock`): two sessions
 * starting at once on one repository contend for it, so a lock refusal is retried briefly.
 */
function gitUnderLock(cwd: string, args: readonly string[]): string {
  for (let attempt = 1; ; attempt++) {
    try {
      return git(cwd, args);
    } catch (error) {
      if (
        attempt >= 40 ||
        !/could not lock|Unable to create .*\.lock/.test(String((error as Error).message))
      )
        throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 25);
    }
  }
}

/** The top of the git working tree `dir` is in, or null when it is in none. */
export function gitTopLevel(dir: string): string | null {
  try {
    return git(dir, ['rev-parse', '--show-toplevel']);
  } catch {
    return null;
  }
}

export type SessionWorktree = {
  /** The worktree's folder: the session's workspace. */
  readonly path: string;
  readonly branch: string;
  /** The repository's main working tree, left as it was. */
  readonly repository: string;
  /** The branch (or commit, when HEAD is detached) the session started from. */
  readonly base: string;
  /** Uncommitted changes in the original tree at the start (`git status --porcelain` lines): not in the worktree. */
  readonly uncommitted: readonly string[];
};

/**
 * Adds a worktree for a session on a new branch `correx/<session>` from the repository's HEAD,
 * beside the repository (`<parent>/.correx-worktrees/<repo>/<session>`), so the original
 * working tree is not touched. Uncommitted changes there are not carried over; they are
 * reported. The base is kept in the branch's git config (`branch.<name>.correxBase`).
 */
export function addSessionWorktree(directory: string, sessionId: string): SessionWorktree {
  const repository = gitTopLevel(directory);
  if (repository === null) throw new WorktreeError(`${directory} is not in a git repository`);
  const branch = sessionBranch(sessionId);
  const head = git(repository, ['rev-parse', '--abbrev-ref', 'HEAD']);
  const base = head === 'HEAD' ? git(repository, ['rev-parse', 'HEAD']) : head;
  const uncommitted = git(repository, ['status', '--porcelain'])
    .split('\n')
    .filter((line) => line !== '');
  const parent = join(dirname(repository), '.correx-worktrees', basename(repository));
  mkdirSync(parent, { recursive: true });
  const path = join(parent, sessionId);
  gitUnderLock(repository, ['worktree', 'add', '--quiet', '-b', branch, path, 'HEAD']);
  gitUnderLock(repository, ['config', `branch.${branch}.correxBase`, base]);
  return { path, branch, repository, base, uncommitted };
}

/** The worktree a session works in, read from its workspace; null when it has none. */
export function findSessionWorktree(workspace: string, sessionId: string): SessionWorktree | null {
  if (!existsSync(workspace) || gitTopLevel(workspace) === null) return null;
  const branch = sessionBranch(sessionId);
  if (git(workspace, ['rev-parse', '--abbrev-ref', 'HEAD']) !== branch) return null;
  const common = git(workspace, ['rev-parse', '--path-format=absolute', '--git-common-dir']);
  const repository = dirname(common);
  const base = git(repository, ['config', '--get', `branch.${branch}.correxBase`]);
  return { path: workspace, branch, repository, base, uncommitted: [] };
}

const IDENTITY = ['-c', 'user.name=correx', '-c', 'user.email=correx@localhost'];

/**
 * Commits everything changed in the worktree, with a trailer naming the session and the event
 * that accepted the stage. Returns the commit, or null when nothing changed.
 */
export function commitStage(
  worktree: string,
  message: string,
  trailer: { readonly sessionId: string; readonly sequence: number },
): string | null {
  git(worktree, ['add', '--all']);
  if (git(worktree, ['status', '--porcelain']) === '') return null;
  const configured = (() => {
    try {
      return git(worktree, ['config', 'user.email']) !== '';
    } catch {
      return false;
    }
  })();
  git(worktree, [
    ...(configured ? [] : IDENTITY),
    'commit',
    '--quiet',
    '-m',
    message,
    '-m',
    `Correx-Session: ${trailer.sessionId}\nCorrex-Event: ${trailer.sequence}`,
  ]);
  return git(worktree, ['rev-parse', 'HEAD']);
}

/**
 * Merges a session's branch into the branch it started from, in the original working tree,
 * which must have that branch checked out. A conflict aborts the merge and is a MergeConflictError.
 */
export function mergeSessionBranch(
  worktree: SessionWorktree,
  options: { readonly trailers?: readonly string[] } = {},
): { readonly commit: string } {
  const { repository, branch, base } = worktree;
  const current = git(repository, ['rev-parse', '--abbrev-ref', 'HEAD']);
  if (current !== base)
    throw new WorktreeError(
      `${repository} has ${current} checked out, not ${base} (where the session started): check out ${base} first`,
    );
  try {
    const trailers = options.trailers ?? [];
    git(repository, [
      ...IDENTITY,
      'merge',
      '--no-ff',
      ...(trailers.length === 0
        ? ['--no-edit']
        : ['-m', `Merge branch '${branch}'`, '-m', trailers.join('\n')]),
      branch,
    ]);
  } catch (error) {
    const files = (() => {
      try {
        return git(repository, ['diff', '--name-only', '--diff-filter=U'])
          .split('\n')
          .filter((file) => file !== '');
      } catch {
        return [];
      }
    })();
    try {
      git(repository, ['merge', '--abort']);
    } catch {
      // No merge in progress: it failed before starting (a dirty tree in the way).
      throw error;
    }
    throw new MergeConflictError(branch, base, files);
  }
  return { commit: git(repository, ['rev-parse', 'HEAD']) };
}

/** Removes a session's worktree and its branch; returns what was removed. */
export function removeSessionWorktree(worktree: SessionWorktree): {
  readonly path: string;
  readonly branch: string;
} {
  git(worktree.repository, ['worktree', 'remove', '--force', worktree.path]);
  git(worktree.repository, ['branch', '-D', worktree.branch]);
  return { path: worktree.path, branch: worktree.branch };
}

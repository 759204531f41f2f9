import { existsSync, mkdirSync, realpathSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { CorrexError } from '../../core/base/correx-error.js';
import type { RecordedWorktree } from '../../core/sessions/recorded-worktree.js';
import {
  readGlobalIdentity,
  runHardenedGit,
  WorktreeError,
  type GitLocation,
} from './hardened-git.js';
import { verifyWorktreeLocation, verifyRepositoryLocation } from './git-location.js';
import { sleepSync } from '../system/sleep-sync.js';

export { WorktreeError } from './hardened-git.js';

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

/**
 * `git` for a command that takes a repository-wide lock (`.git/config.lock`): two sessions
 * starting at once on one repository contend for it, so a lock refusal is retried briefly.
 */
function gitUnderLock(location: GitLocation, args: readonly string[]): string {
  for (let attempt = 1; ; attempt++) {
    try {
      return runHardenedGit(location, args);
    } catch (error) {
      if (
        attempt >= 40 ||
        !/could not lock|Unable to create .*\.lock/.test(String((error as Error).message))
      )
        throw error;
      sleepSync(25);
    }
  }
}

/**
 * A session's worktree, as recorded at its start (`session_created.worktree`): every later git
 * command acts on these locations, verified first, never on what the workspace's `.git` says.
 */
export type SessionWorktree = RecordedWorktree & {
  /** Uncommitted changes in the original tree at the start (`git status --porcelain` lines): not in the worktree. */
  readonly uncommitted: readonly string[];
};

/** The repository's main working tree and its git directory. */
function repositoryLocation(worktree: RecordedWorktree): GitLocation {
  return { gitDir: worktree.repositoryGitDir, workTree: worktree.repository };
}

/** The session's worktree and its own git directory (`<commonDir>/worktrees/<name>`). */
function worktreeLocation(worktree: RecordedWorktree): GitLocation {
  return { gitDir: worktree.gitDir, workTree: worktree.path };
}

/**
 * The repository `directory` is the top of, found once at a session's start: its work tree
 * must be `directory`'s top and its git directory must verifiably be that tree's own (a
 * `.git` directory, or a linked worktree's admin directory that points back at it). A `.git`
 * file pointing anywhere else is refused here, before anything is created.
 */
export function findRepository(directory: string): GitLocation & { readonly commonDir: string } {
  let lines: string[];
  try {
    lines = runHardenedGit({ discoverFrom: directory }, [
      'rev-parse',
      '--path-format=absolute',
      '--show-toplevel',
      '--git-dir',
      '--git-common-dir',
    ]).split('\n');
  } catch (error) {
    throw new WorktreeError(`${directory} is not in a git repository`, { cause: error });
  }
  const [top, gitDir, commonDir] = lines;
  if (top === undefined || gitDir === undefined || commonDir === undefined || top === '')
    throw new WorktreeError(`${directory} is not in a git repository with a working tree`);
  return verifyRepositoryLocation(realpathSync(top), realpathSync(gitDir), realpathSync(commonDir));
}

/**
 * Adds a worktree for a session on a new branch `correx/<session>` from the repository's HEAD,
 * beside the repository (`<parent>/.correx-worktrees/<repo>/<session>`), so the original
 * working tree is not touched. Uncommitted changes there are not carried over; they are
 * reported. The base is kept in the branch's git config (`branch.<name>.correxBase`). Every
 * check comes before the worktree and branch exist; a failure after that removes both.
 */
export function addSessionWorktree(directory: string, sessionId: string): SessionWorktree {
  const found = findRepository(directory);
  // Branches and configuration are the repository's; HEAD and status are this tree's.
  const here: GitLocation = { gitDir: found.gitDir, workTree: found.workTree };
  const main = here;
  const branch = sessionBranch(sessionId);
  const head = runHardenedGit(here, ['rev-parse', '--abbrev-ref', 'HEAD']);
  const base = head === 'HEAD' ? runHardenedGit(here, ['rev-parse', 'HEAD']) : head;
  runHardenedGit(here, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']);
  if (runHardenedGit(main, ['branch', '--list', branch]) !== '')
    throw new WorktreeError(`the branch ${branch} already exists in ${found.workTree}`);
  const uncommitted = runHardenedGit(here, ['status', '--porcelain'])
    .split('\n')
    .filter((line) => line !== '');
  const parent = join(dirname(found.workTree), '.correx-worktrees', basename(found.workTree));
  mkdirSync(parent, { recursive: true });
  const path = join(parent, sessionId);
  if (existsSync(path)) throw new WorktreeError(`${path} already exists`);
  gitUnderLock(here, ['worktree', 'add', '--quiet', '-b', branch, path, 'HEAD']);
  try {
    gitUnderLock(main, ['config', `branch.${branch}.correxBase`, base]);
    const realPath = realpathSync(path);
    const gitDir = realpathSync(
      runHardenedGit({ discoverFrom: realPath }, ['rev-parse', '--absolute-git-dir']),
    );
    const recorded: RecordedWorktree = {
      path: realPath,
      branch,
      repository: found.workTree,
      repositoryGitDir: found.gitDir,
      base,
      gitDir,
      commonDir: found.commonDir,
    };
    verifyWorktreeLocation(recorded);
    return { ...recorded, uncommitted };
  } catch (error) {
    // Nothing of a worktree that failed to start is left behind.
    try {
      runHardenedGit(main, ['worktree', 'remove', '--force', path]);
    } catch {
      rmSync(path, { recursive: true, force: true });
      try {
        runHardenedGit(main, ['worktree', 'prune']);
      } catch {
        // Nothing more to prune.
      }
    }
    try {
      runHardenedGit(main, ['branch', '-D', branch]);
    } catch {
      // The branch was never made.
    }
    throw error;
  }
}

/**
 * The worktree of a session recorded before locations were recorded: derived from where
 * correx puts worktrees (`<parent>/.correx-worktrees/<repo>/<session>`), never from the
 * workspace's `.git`, and verified like a recorded one. Null when the workspace is not there.
 */
export function derivedSessionWorktree(
  workspace: string,
  sessionId: string,
): RecordedWorktree | null {
  if (basename(workspace) !== sessionId) return null;
  if (basename(dirname(dirname(workspace))) !== '.correx-worktrees') return null;
  const repository = join(dirname(dirname(dirname(workspace))), basename(dirname(workspace)));
  const commonDir = real(join(repository, '.git'));
  if (commonDir === null) return null;
  const branch = sessionBranch(sessionId);
  let base: string;
  try {
    base = runHardenedGit({ gitDir: commonDir, workTree: repository }, [
      'config',
      '--get',
      `branch.${branch}.correxBase`,
    ]);
  } catch {
    return null;
  }
  return {
    path: workspace,
    branch,
    repository,
    repositoryGitDir: commonDir,
    base,
    gitDir: join(commonDir, 'worktrees', sessionId),
    commonDir,
  };
}

function real(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

const IDENTITY = ['-c', 'user.name=correx', '-c', 'user.email=correx@localhost'];

/** The person's global identity where they set one (read alone), else correx's. */
function personIdentity(): string[] {
  const { name, email } = readGlobalIdentity();
  if (email === undefined) return IDENTITY;
  return ['-c', `user.name=${name ?? 'correx'}`, '-c', `user.email=${email}`];
}

/**
 * Commits everything changed in the worktree, with a trailer naming the session and the event
 * that accepted the stage. Returns the commit, or null when nothing changed. The recorded
 * locations are verified first: a workspace whose `.git` no longer points at the recorded git
 * directory is refused (GitLocationChangedError), and nothing is committed.
 */
export function commitStage(
  worktree: RecordedWorktree,
  message: string,
  trailer: { readonly sessionId: string; readonly sequence: number },
): string | null {
  verifyWorktreeLocation(worktree);
  const location = worktreeLocation(worktree);
  runHardenedGit(location, ['add', '--all']);
  if (runHardenedGit(location, ['status', '--porcelain', '--ignore-submodules=all']) === '')
    return null;
  const configured = (() => {
    try {
      return runHardenedGit(location, ['config', 'user.email']) !== '';
    } catch {
      return false;
    }
  })();
  const identity = configured ? [] : personIdentity();
  runHardenedGit(location, [
    ...identity,
    'commit',
    '--quiet',
    '--no-verify',
    '-m',
    message,
    '-m',
    `Correx-Session: ${trailer.sessionId}\nCorrex-Event: ${trailer.sequence}`,
  ]);
  return runHardenedGit(location, ['rev-parse', 'HEAD']);
}

/**
 * Merges a session's branch into the branch it started from, in the original working tree,
 * which must have that branch checked out. A conflict aborts the merge and is a MergeConflictError.
 */
export function mergeSessionBranch(
  worktree: RecordedWorktree,
  options: { readonly trailers?: readonly string[] } = {},
): { readonly commit: string } {
  verifyWorktreeLocation(worktree, { workspace: false });
  const { repository, branch, base } = worktree;
  const main = repositoryLocation(worktree);
  const current = runHardenedGit(main, ['rev-parse', '--abbrev-ref', 'HEAD']);
  if (current !== base)
    throw new WorktreeError(
      `${repository} has ${current} checked out, not ${base} (where the session started): check out ${base} first`,
    );
  try {
    const trailers = options.trailers ?? [];
    runHardenedGit(main, [
      ...IDENTITY,
      'merge',
      '--no-ff',
      '--no-verify',
      ...(trailers.length === 0
        ? ['--no-edit']
        : ['-m', `Merge branch '${branch}'`, '-m', trailers.join('\n')]),
      branch,
    ]);
  } catch (error) {
    const files = (() => {
      try {
        return runHardenedGit(main, ['diff', '--no-ext-diff', '--name-only', '--diff-filter=U'])
          .split('\n')
          .filter((file) => file !== '');
      } catch {
        return [];
      }
    })();
    try {
      runHardenedGit(main, ['merge', '--abort']);
    } catch {
      // No merge in progress: it failed before starting (a dirty tree in the way).
      throw error;
    }
    throw new MergeConflictError(branch, base, files);
  }
  return { commit: runHardenedGit(main, ['rev-parse', 'HEAD']) };
}

/** Removes a session's worktree and its branch; returns what was removed. */
export function removeSessionWorktree(worktree: RecordedWorktree): {
  readonly path: string;
  readonly branch: string;
} {
  verifyWorktreeLocation(worktree, { workspace: false });
  const main = repositoryLocation(worktree);
  try {
    runHardenedGit(main, ['worktree', 'remove', '--force', worktree.path]);
  } catch {
    // git refuses a worktree whose .git was rewritten: the recorded folder goes all the same.
    rmSync(worktree.path, { recursive: true, force: true });
    runHardenedGit(main, ['worktree', 'prune']);
  }
  runHardenedGit(main, ['branch', '-D', worktree.branch]);
  return { path: worktree.path, branch: worktree.branch };
}

import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readFileSync, readlinkSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import type { ChangedFile } from '../../core/kernel/index.js';
import type { RecordedWorktree } from '../../core/sessions/recorded-worktree.js';
import { verifyWorktreeLocation } from '../workspace/git-location.js';
import { runHardenedGitBytes, type GitLocation } from '../workspace/hardened-git.js';

/**
 * The state of a session's change as it stands on disk now: the head of its branch in worktree
 * mode, else its workspace's files. What a statement's subject names and a gate reviews.
 */
export type TreeUnderReview =
  | {
      readonly kind: 'git';
      readonly path: string;
      readonly location: GitLocation;
      readonly branch: string;
      readonly baseRef: string;
      /** The commit the branch forked from (`git merge-base`), null when git cannot say. */
      readonly baseCommit: string | null;
      readonly commit: string;
      readonly tree: string;
      /** Paths with uncommitted changes in the worktree (`git status`), untracked included. */
      readonly uncommitted: readonly string[];
    }
  | { readonly kind: 'files'; readonly path: string }
  | { readonly kind: 'absent'; readonly path: string; readonly reason?: string };

// Every git command through the hardened runner, on the locations recorded at session start.
const gitText = (location: GitLocation, args: readonly string[]) =>
  runHardenedGitBytes(location, args).toString('utf8').trim();

/**
 * The tree under review of a session that worked in `workspace`, in `worktree` when it had one
 * (its recorded locations, verified before git runs; a moved one is reported, not followed).
 */
export function readTreeUnderReview(
  workspace: string,
  worktree: RecordedWorktree | null,
): TreeUnderReview {
  if (!existsSync(workspace)) return { kind: 'absent', path: workspace };
  if (worktree === null) return { kind: 'files', path: workspace };
  try {
    verifyWorktreeLocation(worktree);
  } catch (error) {
    return { kind: 'absent', path: workspace, reason: (error as Error).message };
  }
  const location: GitLocation = { gitDir: worktree.gitDir, workTree: worktree.path };
  const commit = gitText(location, ['rev-parse', 'HEAD']);
  const baseCommit = (() => {
    try {
      return gitText(location, ['merge-base', worktree.base, worktree.branch]);
    } catch {
      return null;
    }
  })();
  const uncommitted = runHardenedGitBytes(location, [
    'status',
    '--porcelain=v1',
    '-z',
    '--untracked-files=all',
  ])
    .toString('utf8')
    .split('\0')
    .filter((entry) => entry.length > 3)
    .map((entry) => entry.slice(3));
  return {
    kind: 'git',
    path: workspace,
    location,
    branch: worktree.branch,
    baseRef: worktree.base,
    baseCommit,
    commit,
    tree: gitText(location, ['rev-parse', `${commit}^{tree}`]),
    uncommitted,
  };
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * The SHA-256 of each path's content in the tree under review (null: absent): blobs of the
 * branch head in worktree mode (a symlink's target text, as git stores it), else the files.
 */
export function contentDigests(
  tree: TreeUnderReview,
  paths: readonly string[],
): Map<string, string | null> {
  const digests = new Map<string, string | null>();
  if (tree.kind === 'git') {
    const relative = paths.filter((path) => !isAbsolute(path));
    if (relative.length > 0) {
      const output = runHardenedGitBytes(
        tree.location,
        ['cat-file', '--batch'],
        Buffer.from(relative.map((path) => `${tree.commit}:${path}\n`).join('')),
      );
      let offset = 0;
      for (const path of relative) {
        const end = output.indexOf(0x0a, offset);
        const header = output.subarray(offset, end).toString('utf8');
        offset = end + 1;
        if (header.endsWith(' missing') || header.endsWith(' ambiguous')) {
          digests.set(path, null);
          continue;
        }
        const [, type, size] = header.split(' ');
        const length = Number(size);
        digests.set(
          path,
          type === 'blob' ? sha256(output.subarray(offset, offset + length)) : null,
        );
        offset += length + 1;
      }
    }
    for (const path of paths) if (isAbsolute(path)) digests.set(path, fileDigest(path));
    return digests;
  }
  for (const path of paths)
    digests.set(
      path,
      tree.kind === 'absent' ? null : fileDigest(isAbsolute(path) ? path : join(tree.path, path)),
    );
  return digests;
}

function fileDigest(path: string): string | null {
  try {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) return sha256(Buffer.from(readlinkSync(path)));
    if (!stat.isFile()) return null;
    return sha256(readFileSync(path));
  } catch {
    return null;
  }
}

/** Paths git says differ between two commits (no rename detection: both sides are named). */
export function gitChangedPaths(location: GitLocation, from: string, to: string): string[] {
  return runHardenedGitBytes(location, [
    'diff',
    '--no-renames',
    '--no-ext-diff',
    '--name-only',
    '-z',
    from,
    to,
  ])
    .toString('utf8')
    .split('\0')
    .filter((entry) => entry !== '');
}

/** Paths of `files` git ignores in the worktree (changes there never reach a commit). */
export function gitIgnoredPaths(location: GitLocation, files: readonly string[]): Set<string> {
  const relative = files.filter((file) => !isAbsolute(file));
  if (relative.length === 0) return new Set();
  try {
    const output = runHardenedGitBytes(
      location,
      ['check-ignore', '--no-index', '-z', '--stdin'],
      Buffer.from(relative.join('\0') + '\0'),
    );
    return new Set(
      output
        .toString('utf8')
        .split('\0')
        .filter((entry) => entry !== ''),
    );
  } catch {
    // Exit 1: none of them is ignored.
    return new Set();
  }
}

/**
 * Where the tree under review differs from the log's record of the change: each changed path
 * whose content is not what the last recorded change left, and (worktree mode) each path the
 * branch changed since its base that the log never recorded, and each uncommitted change.
 */
export function treeDifferences(tree: TreeUnderReview, files: readonly ChangedFile[]): string[] {
  if (tree.kind === 'absent') return [tree.reason ?? `the workspace ${tree.path} is gone`];
  const differences: string[] = [];
  const ignored =
    tree.kind === 'git'
      ? gitIgnoredPaths(
          tree.location,
          files.map((f) => f.path),
        )
      : new Set<string>();
  const compared = files.filter((file) => !ignored.has(file.path));
  const now = contentDigests(
    tree,
    compared.map((file) => file.path),
  );
  for (const file of compared) {
    const actual = now.get(file.path) ?? null;
    if (actual !== file.sha256)
      differences.push(
        `${file.path}: the log's last change left ${describe(file.sha256)}, the tree has ${describe(actual)}`,
      );
  }
  if (tree.kind === 'git') {
    const recorded = new Set(files.map((file) => file.path));
    if (tree.baseCommit !== null)
      for (const path of gitChangedPaths(tree.location, tree.baseCommit, tree.commit))
        if (!recorded.has(path))
          differences.push(
            `${path}: changed on ${tree.branch} but not by any change the log records`,
          );
    for (const path of tree.uncommitted)
      differences.push(`${path}: changed in the worktree and not committed`);
  }
  return differences;
}

function describe(digest: string | null): string {
  return digest === null ? 'no file' : `sha256 ${digest.slice(0, 12)}`;
}

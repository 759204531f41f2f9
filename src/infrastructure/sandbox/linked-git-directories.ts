import { lstatSync, readFileSync, realpathSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';

/**
 * The git directories a workspace's `.git` file or link leads to outside the workspace (a
 * worktree's `gitdir`, and its `commondir` holding objects and refs). The deny-by-default read
 * view shows nothing outside the workspace, so git inside the sandbox needs them bound
 * read-only, as the host-wide read-only bind showed them before.
 */
export function linkedGitDirectories(workspaceRoot: string): string[] {
  const dotGit = join(workspaceRoot, '.git');
  const stat = lstatOrNull(dotGit);
  if (stat === null || stat.isDirectory()) return [];
  let gitDir: string | null;
  if (stat.isSymbolicLink()) gitDir = realOrNull(dotGit);
  else {
    const match = /^gitdir: (.+)$/m.exec(readOrEmpty(dotGit));
    gitDir = match === null ? null : realOrNull(resolve(workspaceRoot, match[1]!.trim()));
  }
  if (gitDir === null) return [];
  const common = readOrEmpty(join(gitDir, 'commondir')).trim();
  const dirs = [gitDir, ...(common === '' ? [] : [realOrNull(resolve(gitDir, common))])];
  return dirs.filter((dir): dir is string => dir !== null && !inside(dir, workspaceRoot));
}

function inside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

function lstatOrNull(path: string) {
  return lstatSync(path, { throwIfNoEntry: false }) ?? null;
}

function realOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

function readOrEmpty(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

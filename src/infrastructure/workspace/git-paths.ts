import { lstatSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';

/**
 * The workspace's `.git` in whatever form (a directory, a `gitdir:` file, a link) and the git
 * directories it leads to inside the workspace. The sandbox binds them read-only (a mount
 * point cannot be replaced or removed either) and the policy makes them never writable, so no
 * command can rewrite a repository's configuration or point `.git` at a repository of its own.
 */
export function gitPathsOf(workspaceRoot: string): string[] {
  const found = gitLocationsOf(workspaceRoot);
  return found.filter((path) => path !== workspaceRoot && inside(path, workspaceRoot));
}

/**
 * The git directories a workspace's `.git` file or link leads to outside the workspace (a
 * worktree's `gitdir`, and its `commondir` holding objects and refs). The deny-by-default read
 * view shows nothing outside the workspace, so git inside the sandbox needs them bound read-only.
 */
export function linkedGitDirectories(workspaceRoot: string): string[] {
  const dotGit = lstatOrNull(join(workspaceRoot, '.git'));
  if (dotGit === null || dotGit.isDirectory()) return [];
  return gitLocationsOf(workspaceRoot).filter((path) => !inside(path, workspaceRoot));
}

/**
 * `.git` itself (when it is a folder or a file) and the real git directories it leads to (a
 * link's target, a `gitdir:` file's target and that directory's `commondir`), each once. The one
 * reading of a workspace's `.git`: what is protected inside and what is shown outside follow it.
 */
function gitLocationsOf(workspaceRoot: string): string[] {
  const paths: string[] = [];
  const add = (path: string | null) => {
    if (path !== null && !paths.includes(path)) paths.push(path);
  };
  const dotGit = join(workspaceRoot, '.git');
  const stat = lstatOrNull(dotGit);
  if (stat === null) return paths;
  let gitDir: string | null;
  if (stat.isSymbolicLink()) gitDir = realOrNull(dotGit);
  else {
    add(dotGit);
    if (!stat.isFile()) return paths;
    const target = gitFileTarget(dotGit);
    gitDir = target === null ? null : realOrNull(target);
  }
  add(gitDir);
  if (gitDir !== null) {
    const common = readTextOrNull(join(gitDir, 'commondir'));
    if (common !== null) add(realOrNull(resolve(gitDir, common.trim())));
  }
  return paths;
}

function gitFileTarget(file: string): string | null {
  const match = /^gitdir: (.+)$/m.exec(readTextOrNull(file) ?? '');
  return match === null ? null : resolve(dirname(file), match[1]!.trim());
}

function readTextOrNull(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

function realOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

function inside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

function lstatOrNull(path: string) {
  try {
    // No exception for a path that is not there (most of them): building one costs more than
    // the lstat itself.
    return lstatSync(path, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}

import { lstatSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';

/**
 * The workspace's `.git` in whatever form (a directory, a `gitdir:` file, a link) and the git
 * directories it leads to inside the workspace. The sandbox binds them read-only (a mount
 * point cannot be replaced or removed either) and the policy makes them never writable, so no
 * command can rewrite a repository's configuration or point `.git` at a repository of its own.
 */
export function gitPathsOf(workspaceRoot: string): string[] {
  const paths: string[] = [];
  const add = (path: string | null) => {
    if (path === null || path === workspaceRoot || !inside(path, workspaceRoot)) return;
    if (!paths.includes(path)) paths.push(path);
  };
  const dotGit = join(workspaceRoot, '.git');
  const stat = lstatOrNull(dotGit);
  if (stat === null) return paths;
  if (stat.isSymbolicLink()) {
    add(realOrNull(dotGit));
    return paths;
  }
  add(dotGit);
  if (!stat.isFile()) return paths;
  const target = gitFileTarget(dotGit);
  const gitDir = target === null ? null : realOrNull(target);
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
    return lstatSync(path);
  } catch {
    return null;
  }
}

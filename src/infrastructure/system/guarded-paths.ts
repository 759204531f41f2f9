import { existsSync, realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';

/** Whether `path` is `root` or lies under it (both absolute). */
export function isInsidePath(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel) && !rel.startsWith(sep));
}

/**
 * Why `workspace` (a real path) cannot hold a session, or null: it contains or lies inside one
 * of the `guarded` paths (correx's home, its store) that no tool may touch, so every read and
 * write the agent tried there would be refused.
 */
export function guardedPathOverlap(workspace: string, guarded: readonly string[]): string | null {
  for (const path of guarded) {
    const real = existsSync(path) ? realpathSync(path) : resolve(path);
    if (isInsidePath(real, workspace))
      return `workspace ${workspace} contains ${real}, which correx keeps out of the agent's reach; choose a folder that does not contain it`;
    if (isInsidePath(workspace, real))
      return `workspace ${workspace} is inside ${real}, which correx keeps out of the agent's reach; choose a folder outside it`;
  }
  return null;
}

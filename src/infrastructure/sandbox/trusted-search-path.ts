import { isAbsolute, relative } from 'node:path';

/**
 * The PATH a confined process resolves programs on: only absolute directories, none inside the
 * workspace (a model-written `./node_modules/.bin/git` must never shadow the real one), no
 * duplicates. Dropped entries are dropped silently: they are never trusted, whatever the caller asked.
 */
export function trustedSearchPath(searchPath: string, workspaceRoot: string): string {
  const kept: string[] = [];
  for (const dir of searchPath.split(':')) {
    if (!isAbsolute(dir) || kept.includes(dir)) continue;
    const rel = relative(workspaceRoot, dir);
    if (rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))) continue;
    kept.push(dir);
  }
  return kept.join(':');
}

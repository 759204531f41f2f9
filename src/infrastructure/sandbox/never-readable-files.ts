import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { matchGlob } from '../../core/policies/path-glob.js';

/** The most directory entries looked at; past it, deeper secrets are left to the static rules. */
export const NEVER_READABLE_SCAN_LIMIT = 50_000;

/**
 * The regular files of the workspace matching a workspace-relative never-readable glob (those
 * starting with `~/` or `/` lie outside it, where the home is hidden anyway), to be bound empty
 * inside the sandbox. Symlinks are not followed and `.git` is skipped; the scan stops after
 * NEVER_READABLE_SCAN_LIMIT entries (docs/sandbox.md states the bound).
 */
export function findNeverReadableFiles(
  workspaceRoot: string,
  patterns: readonly string[],
  limit = NEVER_READABLE_SCAN_LIMIT,
): string[] {
  const globs = patterns.filter((pattern) => !pattern.startsWith('~') && !pattern.startsWith('/'));
  if (globs.length === 0) return [];
  return scanFiles(workspaceRoot, limit, (path) => {
    const subject = relative(workspaceRoot, path);
    return globs.some((glob) => matchGlob(glob, subject, { foldCase: true }));
  });
}

/**
 * The regular files under `root`, a folder outside the workspace that the sandbox shows (a
 * policy grant, /etc), matching a never-readable glob wherever it lies: a relative glob
 * (`**\/*.pem`) against the path below `root`, `~/…` against the path below the home, `/…`
 * against the absolute path. Same bounds as findNeverReadableFiles.
 */
export function findNeverReadableFilesUnder(
  root: string,
  patterns: readonly string[],
  homeDirectory: string,
  limit = NEVER_READABLE_SCAN_LIMIT,
): string[] {
  if (patterns.length === 0) return [];
  return scanFiles(root, limit, (path) =>
    patterns.some((pattern) => {
      const fold = { foldCase: true };
      if (pattern.startsWith('~/')) {
        const rel = relative(homeDirectory, path);
        return !rel.startsWith('..') && matchGlob(pattern.slice(2), rel, fold);
      }
      if (pattern.startsWith('/')) return matchGlob(pattern.slice(1), path.slice(1), fold);
      return (
        matchGlob(pattern, relative(root, path), fold) || matchGlob(pattern, path.slice(1), fold)
      );
    }),
  );
}

function scanFiles(root: string, limit: number, matches: (path: string) => boolean): string[] {
  const found: string[] = [];
  const pending = [root];
  let seen = 0;
  while (pending.length > 0 && seen < limit) {
    const dir = pending.pop()!;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue; // vanished or unreadable: nothing to hide there
    }
    for (const entry of entries) {
      seen += 1;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== '.git') pending.push(path);
      } else if (entry.isFile() && matches(path)) {
        found.push(path);
      }
    }
  }
  return found.sort();
}

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
  const found: string[] = [];
  const pending = [workspaceRoot];
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
      } else if (entry.isFile()) {
        const subject = relative(workspaceRoot, path);
        if (globs.some((glob) => matchGlob(glob, subject, { foldCase: true }))) found.push(path);
      }
    }
  }
  return found.sort();
}

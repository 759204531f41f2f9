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
  /** Told each folder the scan read (a caller that caches the result watches them). */
  onFolder?: (folder: string) => void,
): string[] {
  if (patterns.length === 0) return [];
  const fold = { foldCase: true };
  const matchers = patterns.map((pattern) => {
    // A file's name must match the pattern's last segment: checked first, it spares the full
    // match for almost every file (/etc holds a thousand entries, scanned per call).
    const name = lastSegmentMatcher(pattern);
    const full = (path: string) => {
      if (pattern.startsWith('~/')) {
        const rel = relative(homeDirectory, path);
        return !rel.startsWith('..') && matchGlob(pattern.slice(2), rel, fold);
      }
      if (pattern.startsWith('/')) return matchGlob(pattern.slice(1), path.slice(1), fold);
      return (
        matchGlob(pattern, relative(root, path), fold) || matchGlob(pattern, path.slice(1), fold)
      );
    };
    return (path: string, base: string) => (name === null || name.test(base)) && full(path);
  });
  return scanFiles(
    root,
    limit,
    (path, base) => matchers.some((matches) => matches(path, base)),
    onFolder,
  );
}

/** A case-insensitive test of a glob's last segment against a file name; null for `**`. */
function lastSegmentMatcher(pattern: string): RegExp | null {
  const last = pattern.split('/').at(-1) ?? '';
  if (last === '**' || last === '') return null;
  const body = [...last.normalize('NFC')]
    .map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body}$`, 'i');
}

function scanFiles(
  root: string,
  limit: number,
  matches: (path: string, name: string) => boolean,
  onFolder?: (folder: string) => void,
): string[] {
  const found: string[] = [];
  const pending = [root];
  let seen = 0;
  while (pending.length > 0 && seen < limit) {
    const dir = pending.pop()!;
    onFolder?.(dir);
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
      } else if (entry.isFile() && matches(path, entry.name)) {
        found.push(path);
      }
    }
  }
  return found.sort();
}

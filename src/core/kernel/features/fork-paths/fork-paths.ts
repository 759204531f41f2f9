import { isPathInside } from '../../../tools/tool-path.js';

/*
 * A fork's copied prefix names the parent's workspace wherever it recorded an absolute path
 * (observations, reads, change records, checkpoints, call targets). With the flag
 * `fork-paths-onto-workspace` the kernel state is rebased once, when it folds `session_forked`:
 * every recorded path inside the parent's workspace becomes the same path inside the fork's,
 * so every later decision compares and resolves paths in the fork's workspace. The flag is
 * read by its feature (fork-paths-feature.ts), whose slice says whether the session recorded it.
 */

/**
 * `value` moved from under `from` to under `to` when it is a path inside `from` written in
 * normal form (absolute, no empty, `.` or `..` segment: `/w/p/../x` may lie outside and is left
 * as it is); null otherwise. Nothing outside `from` is ever moved, so a path the parent recorded
 * outside its workspace stays outside.
 */
export function pathOntoFork(value: string, from: string, to: string): string | null {
  if (value === from) return to;
  if (!value.startsWith(`${from}/`)) return null;
  const rest = value.slice(from.length + 1);
  for (const segment of rest.split('/'))
    if (segment === '' || segment === '.' || segment === '..') return null;
  return `${to}/${rest}`;
}

/**
 * Whether the two workspaces can be rebased onto each other: both absolute, neither the root,
 * different, and neither inside the other (a path inside both would be ambiguous; `correx fork`
 * never makes such a fork, since it copies the parent into a fresh or empty folder).
 */
export function rebaseableRoots(from: string, to: string): boolean {
  if (!from.startsWith('/') || !to.startsWith('/') || from === '/' || to === '/') return false;
  return !isPathInside(from, to) && !isPathInside(to, from);
}

/**
 * `value` (plain JSON: a kernel state) with every string that is a path inside `from` moved
 * under `to`, record keys included. Where a moved key meets a key already there (a path the
 * parent recorded outside its workspace, inside the fork's folder: `correx fork` refuses such a
 * fork, see `prefixPathsInsideFork`), the moved one wins: it is what the fork's copy holds.
 */
export function rebasedOntoFork<T>(value: T, from: string, to: string): T {
  if (!rebaseableRoots(from, to)) return value;
  return rebase(value, from, to) as T;
}

function rebase(value: unknown, from: string, to: string): unknown {
  if (typeof value === 'string') return pathOntoFork(value, from, to) ?? value;
  if (Array.isArray(value)) return value.map((item) => rebase(item, from, to));
  if (value === null || typeof value !== 'object') return value;
  const kept: [string, unknown][] = [];
  const moved: [string, unknown][] = [];
  for (const [key, item] of Object.entries(value)) {
    const onto = pathOntoFork(key, from, to);
    (onto === null ? kept : moved).push([onto ?? key, rebase(item, from, to)]);
  }
  const out: Record<string, unknown> = Object.fromEntries(kept);
  for (const [key, item] of moved) out[key] = item;
  return layeredSizesFixed(out);
}

/** A layered record (base/recent with their sizes) whose keys met counts its entries again. */
function layeredSizesFixed(record: Record<string, unknown>): Record<string, unknown> {
  const { base, recent } = record;
  if (
    Object.keys(record).length !== 4 ||
    typeof record.baseSize !== 'number' ||
    typeof record.recentSize !== 'number' ||
    base === null ||
    typeof base !== 'object' ||
    recent === null ||
    typeof recent !== 'object'
  )
    return record;
  return {
    base,
    baseSize: Object.keys(base).length,
    recent,
    recentSize: Object.keys(recent).length,
  };
}

/**
 * The paths a parent's prefix recorded inside the fork's workspace while outside its own (a
 * file it observed or wrote outside its workspace, where the fork's folder now is). Rebased,
 * they would read as the fork's own files: `correx fork` refuses such a folder, naming them.
 */
export function prefixPathsInsideFork(
  payloads: readonly unknown[],
  from: string,
  to: string,
): string[] {
  const found = new Set<string>();
  const visit = (value: unknown): void => {
    if (typeof value === 'string') {
      if (isPathInside(value, to) && pathOntoFork(value, from, to) === null) found.add(value);
      return;
    }
    if (Array.isArray(value)) return value.forEach(visit);
    if (value === null || typeof value !== 'object') return;
    for (const [key, item] of Object.entries(value)) {
      visit(key);
      visit(item);
    }
  };
  if (rebaseableRoots(from, to)) payloads.forEach(visit);
  return [...found].sort();
}

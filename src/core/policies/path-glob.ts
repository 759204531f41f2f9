/**
 * A small, exact glob matcher over `/`-separated paths: `**` matches any number of whole
 * segments (including none), `*` any run of characters inside one segment, `?` one character.
 * No braces, no character classes: a policy pattern means exactly what it says.
 */
export function matchGlob(
  pattern: string,
  path: string,
  options?: { foldCase?: boolean },
): boolean {
  const fold = options?.foldCase === true;
  const patternSegments = splitSegments(normalizeGlobText(pattern, fold));
  const pathSegments = splitSegments(normalizeGlobText(path, fold));
  return matchSegments(patternSegments, 0, pathSegments, 0);
}

/**
 * The text matchGlob compares when folding case (NFC, lower case), or the text itself: a caller
 * that folds a name once and matches it against many patterns folded once too (without
 * `foldCase` then) gets matchGlob's answers.
 */
export function normalizeGlobText(text: string, fold: boolean): string {
  return fold ? text.normalize('NFC').toLowerCase() : text;
}

/**
 * The segment a path's last segment must match for the whole path to match `pattern` (its last
 * segment), or null when that is `**`, which any last segment passes. A cheap test to run first
 * on a file's name: matchGlob(pattern, path) implies matchGlob(lastGlobSegment(pattern), name).
 */
export function lastGlobSegment(pattern: string): string | null {
  const last = splitSegments(pattern).at(-1)!;
  return last === '**' ? null : last;
}

function splitSegments(text: string): string[] {
  return text.split('/').filter((segment, index) => segment !== '' || index === 0);
}

function matchSegments(pattern: string[], p: number, path: string[], q: number): boolean {
  if (p === pattern.length) return q === path.length;
  const segment = pattern[p]!;
  if (segment === '**') {
    for (let skip = q; skip <= path.length; skip++) {
      if (matchSegments(pattern, p + 1, path, skip)) return true;
    }
    return false;
  }
  if (q === path.length) return false;
  return matchSegment(segment, path[q]!) && matchSegments(pattern, p + 1, path, q + 1);
}

function matchSegment(pattern: string, text: string): boolean {
  // Iterative wildcard matching with single backtrack point: linear in practice, no regex.
  let p = 0;
  let t = 0;
  let starP = -1;
  let starT = 0;
  while (t < text.length) {
    const c = pattern[p];
    if (c === '?' || (c !== undefined && c !== '*' && c === text[t])) {
      p++;
      t++;
    } else if (c === '*') {
      starP = p++;
      starT = t;
    } else if (starP >= 0) {
      p = starP + 1;
      t = ++starT;
    } else {
      return false;
    }
  }
  while (pattern[p] === '*') p++;
  return p === pattern.length;
}

/** The part of a pattern before its first wildcard segment, e.g. `src/lib` for `src/lib/**`. */
export function globStaticPrefix(pattern: string): string {
  const segments = pattern.split('/');
  const fixed: string[] = [];
  for (const segment of segments) {
    if (/[*?]/.test(segment)) break;
    fixed.push(segment);
  }
  return fixed.join('/');
}

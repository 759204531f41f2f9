/** Line pairs above which no inline diff is computed (the LCS table would be too large). */
const MAX_CELLS = 4_000_000;

/**
 * A unified diff (3 lines of context) of two texts, by a longest-common-subsequence over lines;
 * null when the texts are too long for that (the caller then says only that they differ).
 */
export function unifiedDiff(before: string, after: string): string[] | null {
  const a = splitLines(before);
  const b = splitLines(after);
  if (a.length * b.length > MAX_CELLS) return null;
  // lcs[i][j]: length of the LCS of a[i..] and b[j..].
  const lcs: Uint32Array[] = Array.from(
    { length: a.length + 1 },
    () => new Uint32Array(b.length + 1),
  );
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i]![j] =
        a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  type Line = { tag: ' ' | '-' | '+'; text: string; aLine: number; bLine: number };
  const lines: Line[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      lines.push({ tag: ' ', text: a[i]!, aLine: i++, bLine: j++ });
    } else if (i < a.length && (j === b.length || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) {
      lines.push({ tag: '-', text: a[i]!, aLine: i++, bLine: j });
    } else {
      lines.push({ tag: '+', text: b[j]!, aLine: i, bLine: j++ });
    }
  }
  const out: string[] = [];
  let index = 0;
  while (index < lines.length) {
    if (lines[index]!.tag === ' ') {
      index++;
      continue;
    }
    const start = Math.max(0, index - 3);
    let end = index;
    // Extend the hunk while changes are within 6 lines of each other.
    for (let k = index; k < lines.length; k++) {
      if (lines[k]!.tag !== ' ') end = k;
      else if (k - end > 6) break;
    }
    const stop = Math.min(lines.length, end + 4);
    const hunk = lines.slice(start, stop);
    const aCount = hunk.filter((line) => line.tag !== '+').length;
    const bCount = hunk.filter((line) => line.tag !== '-').length;
    const aStart = hunk[0]!.aLine + (aCount === 0 ? 0 : 1);
    const bStart = hunk[0]!.bLine + (bCount === 0 ? 0 : 1);
    out.push(`@@ -${aStart},${aCount} +${bStart},${bCount} @@`);
    for (const line of hunk) out.push(`${line.tag}${line.text}`);
    index = stop;
  }
  return out;
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

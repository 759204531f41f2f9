export type DiffLine = { readonly kind: 'same' | 'add' | 'remove'; readonly text: string };

/** Past this many line pairs the diff is not aligned: old lines removed, new lines added. */
const MAX_CELLS = 4_000_000;

/**
 * A line diff (longest common subsequence) of two texts, with unchanged runs longer than
 * `context * 2` collapsed to their edges. Small and exact; large inputs degrade to a replace.
 */
export function diffLines(before: string, after: string, context = 3): DiffLine[] {
  const a = splitLines(before);
  const b = splitLines(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const middle = diffMiddle(a.slice(start, endA), b.slice(start, endB));
  const lines: DiffLine[] = [
    ...a.slice(0, start).map((line) => ({ kind: 'same' as const, text: line })),
    ...middle,
    ...a.slice(endA).map((line) => ({ kind: 'same' as const, text: line })),
  ];
  return collapse(lines, context);
}

function diffMiddle(a: string[], b: string[]): DiffLine[] {
  if (a.length * b.length > MAX_CELLS)
    return [
      ...a.map((line) => ({ kind: 'remove' as const, text: line })),
      ...b.map((line) => ({ kind: 'add' as const, text: line })),
    ];
  const width = b.length + 1;
  const table = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      table[i * width + j] =
        a[i] === b[j]
          ? table[(i + 1) * width + j + 1]! + 1
          : Math.max(table[(i + 1) * width + j]!, table[i * width + j + 1]!);
  const lines: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      lines.push({ kind: 'same', text: a[i]! });
      i++;
      j++;
    } else if (table[(i + 1) * width + j]! >= table[i * width + j + 1]!) {
      lines.push({ kind: 'remove', text: a[i++]! });
    } else {
      lines.push({ kind: 'add', text: b[j++]! });
    }
  }
  while (i < a.length) lines.push({ kind: 'remove', text: a[i++]! });
  while (j < b.length) lines.push({ kind: 'add', text: b[j++]! });
  return lines;
}

function collapse(lines: DiffLine[], context: number): DiffLine[] {
  const keep = lines.map(() => false);
  lines.forEach((line, index) => {
    if (line.kind === 'same') return;
    for (
      let k = Math.max(0, index - context);
      k <= Math.min(lines.length - 1, index + context);
      k++
    )
      keep[k] = true;
  });
  const out: DiffLine[] = [];
  let skipped = 0;
  lines.forEach((line, index) => {
    if (keep[index]) {
      if (skipped > 0) out.push({ kind: 'same', text: `… ${skipped} unchanged lines` });
      skipped = 0;
      out.push(line);
    } else skipped++;
  });
  if (skipped > 0 && out.length > 0)
    out.push({ kind: 'same', text: `… ${skipped} unchanged lines` });
  return out;
}

/** Lines of a text; a final newline ends the last line instead of starting an empty one. */
function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

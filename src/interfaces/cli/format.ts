import { visibleText } from '../../core/base/visible-text.js';

/** Renders rows as aligned columns under a header, for people; `--json` output bypasses this. */
export function formatTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
): string {
  // Cells hold recorded text (tasks, paths, details): one visible line each.
  rows = rows.map((row) => row.map(visibleText));
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column]!)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

/** One line of JSON per value: easy to pipe into `jq` or another program. */
export function formatJson(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

/** Dollars as people read them: four decimals below a dollar, two above. */
export function formatCost(usd: number): string {
  return usd >= 1 ? `$${usd.toFixed(2)}` : `$${usd.toFixed(4)}`;
}

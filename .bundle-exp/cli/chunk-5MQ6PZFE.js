import {
  visibleText
} from "./chunk-7N5K7NRY.js";

// src/interfaces/cli/format.ts
function formatTable(header, rows) {
  rows = rows.map((row) => row.map(visibleText));
  const widths = header.map(
    (title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? "").length))
  );
  const line = (cells) => cells.map((cell, column) => column === cells.length - 1 ? cell : cell.padEnd(widths[column])).join("  ").trimEnd();
  return [line(header), ...rows.map(line)].join("\n");
}
function formatJson(value) {
  return JSON.stringify(value, null, 2);
}
function formatCost(usd) {
  return usd >= 1 ? `$${usd.toFixed(2)}` : `$${usd.toFixed(4)}`;
}

export {
  formatTable,
  formatJson,
  formatCost
};

import {
  visibleText
} from "./chunk-7N5K7NRY.js";

// src/interfaces/cli/command-output-excerpt.ts
var HEAD_LINES = 10;
var TAIL_LINES = 20;
var LINE_CHARS = 240;
var TELLING_LINES = 24;
var TELLING = /\b(expected|actual|received|assert\w*|error|fail\w*|not ok|mismatch|differ\w*)\b|^\s*[+-]\s|^\s*[-+]{3}\s|[✗✕×≠]/i;
var STACK_FRAME = /^\s+at\s/;
function commandOutputExcerpt(output) {
  const lines = output.replace(/\n+$/, "").split("\n");
  if (lines.length === 1 && lines[0] === "") return [];
  if (lines.length <= HEAD_LINES + TAIL_LINES + 1) return lines.map(clipLine);
  const kept = /* @__PURE__ */ new Set();
  for (let index = 0; index < HEAD_LINES; index++) kept.add(index);
  for (let index = lines.length - TAIL_LINES; index < lines.length; index++) kept.add(index);
  let telling = 0;
  for (let index = HEAD_LINES; index < lines.length - TAIL_LINES; index++) {
    if (telling >= TELLING_LINES) break;
    const line = lines[index];
    if (STACK_FRAME.test(line) || !TELLING.test(line) || kept.has(index)) continue;
    kept.add(index);
    telling += 1;
  }
  const shown = [];
  let previous = -1;
  for (const index of [...kept].sort((a, b) => a - b)) {
    const gap = index - previous - 1;
    if (gap > 0) shown.push(`\u2026 ${gap} ${gap === 1 ? "line" : "lines"} omitted \u2026`);
    shown.push(clipLine(lines[index]));
    previous = index;
  }
  return shown;
}
function clipLine(line) {
  const visible = visibleText(line.replace(/\r$/, ""));
  return visible.length <= LINE_CHARS ? visible : `${visible.slice(0, LINE_CHARS - 1)}\u2026`;
}

export {
  commandOutputExcerpt
};

// src/interfaces/unified-diff.ts
var MAX_CELLS = 4e6;
function unifiedDiff(before, after) {
  const a = splitLines(before);
  const b = splitLines(after);
  if (a.length * b.length > MAX_CELLS) return null;
  const lcs = Array.from(
    { length: a.length + 1 },
    () => new Uint32Array(b.length + 1)
  );
  for (let i2 = a.length - 1; i2 >= 0; i2--)
    for (let j2 = b.length - 1; j2 >= 0; j2--)
      lcs[i2][j2] = a[i2] === b[j2] ? lcs[i2 + 1][j2 + 1] + 1 : Math.max(lcs[i2 + 1][j2], lcs[i2][j2 + 1]);
  const lines = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      lines.push({ tag: " ", text: a[i], aLine: i++, bLine: j++ });
    } else if (i < a.length && (j === b.length || lcs[i + 1][j] >= lcs[i][j + 1])) {
      lines.push({ tag: "-", text: a[i], aLine: i++, bLine: j });
    } else {
      lines.push({ tag: "+", text: b[j], aLine: i, bLine: j++ });
    }
  }
  const out = [];
  let index = 0;
  while (index < lines.length) {
    if (lines[index].tag === " ") {
      index++;
      continue;
    }
    const start = Math.max(0, index - 3);
    let end = index;
    for (let k = index; k < lines.length; k++) {
      if (lines[k].tag !== " ") end = k;
      else if (k - end > 6) break;
    }
    const stop = Math.min(lines.length, end + 4);
    const hunk = lines.slice(start, stop);
    const aCount = hunk.filter((line) => line.tag !== "+").length;
    const bCount = hunk.filter((line) => line.tag !== "-").length;
    const aStart = hunk[0].aLine + (aCount === 0 ? 0 : 1);
    const bStart = hunk[0].bLine + (bCount === 0 ? 0 : 1);
    out.push(`@@ -${aStart},${aCount} +${bStart},${bCount} @@`);
    for (const line of hunk) out.push(`${line.tag}${line.text}`);
    index = stop;
  }
  return out;
}
function splitLines(text) {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

export {
  unifiedDiff
};

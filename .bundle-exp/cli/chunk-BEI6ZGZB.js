// src/core/base/duration.ts
var UNITS = { ms: 1, s: 1e3, m: 6e4, h: 36e5 };
function parseDuration(text) {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(text);
  if (match === null) return null;
  const ms = Number(match[1]) * UNITS[match[2] ?? "s"];
  return Number.isFinite(ms) && ms > 0 ? Math.round(ms) : null;
}

export {
  parseDuration
};

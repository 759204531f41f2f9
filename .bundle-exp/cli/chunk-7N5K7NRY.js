// src/core/base/visible-text.ts
var HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\u034F\u115F\u1160\u2800\u3164\uFFA0]/gu;
var NAMED = { "\n": "\\n", "\r": "\\r", "	": "\\t" };
function escapeOne(character) {
  const named = NAMED[character];
  if (named !== void 0) return named;
  const code = character.codePointAt(0);
  if (code < 256) return `\\x${code.toString(16).padStart(2, "0")}`;
  return `\\u{${code.toString(16).toUpperCase().padStart(4, "0")}}`;
}
function visibleText(text) {
  return text.replace(HIDDEN, escapeOne);
}
function visibleLines(text) {
  return text.replace(
    HIDDEN,
    (character) => character === "\n" || character === "	" ? character : escapeOne(character)
  );
}
function visibleLinesJsonEscaped(text) {
  return text.replace(
    HIDDEN,
    (character) => character === "\n" || character === "	" ? character : Array.from(
      { length: character.length },
      (_, index) => `\\u${character.charCodeAt(index).toString(16).padStart(4, "0")}`
    ).join("")
  );
}

export {
  visibleText,
  visibleLines,
  visibleLinesJsonEscaped
};

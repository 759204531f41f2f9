// src/interfaces/person-name.ts
var RESERVED = /* @__PURE__ */ new Set([
  "auto",
  "policy",
  "grant",
  "system",
  "correx",
  "correx serve",
  "correx-shutdown",
  "prompt",
  "yolo"
]);
function reservedNameReason(name) {
  const folded = name.trim().toLowerCase();
  if (folded === "") return "a decider needs a name";
  if (RESERVED.has(folded)) return `"${name}" is reserved for decisions correx makes itself`;
  if (folded.includes(":")) return `"${name}" contains ":", which the audit trail reserves`;
  return null;
}

export {
  reservedNameReason
};

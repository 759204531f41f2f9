import {
  UnknownSessionError
} from "./chunk-OYJRPCLU.js";
import {
  CorrexError
} from "./chunk-BDZLLWVY.js";

// src/interfaces/cli/session-ref.ts
var SESSION_ARGUMENT = "session id, or a unique start of one (or --last)";
async function resolveSessionRef(store, typed, command) {
  const last = command.optsWithGlobals().last === true;
  if (typed === void 0) {
    if (!last)
      throw new CorrexError("usage", "give a session id (or a unique start of one), or --last");
    const newest = (await store.listSessions()).at(-1);
    if (newest === void 0)
      throw new CorrexError("session_not_found", "there are no sessions yet");
    return newest.sessionId;
  }
  if (last) throw new CorrexError("usage", "give a session id or --last, not both");
  if (await store.lastSequence(typed) > 0) return typed;
  const matches = (await store.listSessions()).map((summary) => summary.sessionId).filter((sessionId) => sessionId.startsWith(typed));
  if (matches.length === 1) return matches[0];
  if (matches.length > 1)
    throw new CorrexError(
      "usage",
      `${typed} is the start of ${matches.length} sessions (${matches.slice(0, 5).join(", ")}${matches.length > 5 ? ", \u2026" : ""}); type more of the id`
    );
  throw new UnknownSessionError(typed);
}

export {
  SESSION_ARGUMENT,
  resolveSessionRef
};

import {
  readTreeUnderReview
} from "./chunk-7FCCLOU5.js";
import {
  derivedSessionWorktree
} from "./chunk-Y6YTVGPA.js";
import {
  nodeSha256
} from "./chunk-XFVAXZIU.js";
import {
  provenanceFacts
} from "./chunk-OYJRPCLU.js";
import {
  RecordedWorktreeSchema
} from "./chunk-IRD534JB.js";

// src/infrastructure/provenance/session-evidence.ts
function treeOf(created, sessionId) {
  const recorded = RecordedWorktreeSchema.safeParse(created.worktree);
  const worktree = recorded.success ? recorded.data : derivedSessionWorktree(created.workspace, sessionId);
  return readTreeUnderReview(created.workspace, worktree);
}
async function readSessionEvidence(store, sessionId) {
  const chain = await store.verify(sessionId);
  if (!chain.ok) {
    let tree = null;
    try {
      const [first] = await store.read(sessionId, { limit: 1 });
      if (first?.payload.type === "session_created") tree = treeOf(first.payload, sessionId);
    } catch {
      tree = null;
    }
    return { chain, events: null, facts: null, tree };
  }
  const events = await store.read(sessionId);
  const facts = provenanceFacts(events, nodeSha256);
  const created = events.find((event) => event.payload.type === "session_created")?.payload;
  return {
    chain,
    events,
    facts,
    tree: created?.type === "session_created" ? treeOf(created, sessionId) : null
  };
}

export {
  readSessionEvidence
};

import type { ChainVerification } from '../../core/events/hash-chain.js';
import type { CorrexEvent, CorrexEventStore } from '../../core/event-catalog.js';
import { provenanceFacts, type ProvenanceFacts } from '../../core/kernel/index.js';
import { nodeSha256 } from '../system/node-sha256.js';
import { RecordedWorktreeSchema } from '../../core/sessions/recorded-worktree.js';
import { derivedSessionWorktree } from '../workspace/git-worktree.js';
import { readTreeUnderReview, type TreeUnderReview } from './tree-under-review.js';

/**
 * The tree under review of a session: in the worktree its `session_created` recorded (or, for a
 * session recorded before that, where correx puts worktrees), else its workspace's files.
 */
function treeOf(
  created: { readonly workspace: string; readonly worktree?: unknown },
  sessionId: string,
): TreeUnderReview {
  const recorded = RecordedWorktreeSchema.safeParse(created.worktree);
  const worktree = recorded.success
    ? recorded.data
    : derivedSessionWorktree(created.workspace, sessionId);
  return readTreeUnderReview(created.workspace, worktree);
}

/** A session's log as a verifier sees it: its chain, and (when the chain holds) its events and facts. */
export type SessionEvidence = {
  readonly chain: ChainVerification;
  readonly events: readonly CorrexEvent[] | null;
  readonly facts: ProvenanceFacts | null;
  /** The tree under review of its workspace; null when the log names none. */
  readonly tree: TreeUnderReview | null;
};

/**
 * Reads what a statement or a gate is checked against. A broken chain is a finding, not an
 * error: its events are not read (a store read refuses them), and the workspace comes from the
 * first event only if that much can still be read.
 */
export async function readSessionEvidence(
  store: CorrexEventStore,
  sessionId: string,
): Promise<SessionEvidence> {
  const chain = await store.verify(sessionId);
  if (!chain.ok) {
    let tree: TreeUnderReview | null = null;
    try {
      const [first] = await store.read(sessionId, { limit: 1 });
      if (first?.payload.type === 'session_created') tree = treeOf(first.payload, sessionId);
    } catch {
      tree = null;
    }
    return { chain, events: null, facts: null, tree };
  }
  const events = await store.read(sessionId);
  const facts = provenanceFacts(events, nodeSha256);
  const created = events.find((event) => event.payload.type === 'session_created')?.payload;
  return {
    chain,
    events,
    facts,
    tree: created?.type === 'session_created' ? treeOf(created, sessionId) : null,
  };
}

import type { ChainVerification } from '../../core/events/hash-chain.js';
import type { CorrexEvent, CorrexEventStore } from '../../core/event-catalog.js';
import { provenanceFacts, type ProvenanceFacts } from '../../core/kernel/provenance-facts.js';
import { nodeSha256 } from '../system/node-sha256.js';
import { readTreeUnderReview, type TreeUnderReview } from './tree-under-review.js';

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
    let workspace: string | null = null;
    try {
      const [first] = await store.read(sessionId, { limit: 1 });
      if (first?.payload.type === 'session_created') workspace = first.payload.workspace;
    } catch {
      workspace = null;
    }
    return {
      chain,
      events: null,
      facts: null,
      tree: workspace === null ? null : readTreeUnderReview(workspace, sessionId),
    };
  }
  const events = await store.read(sessionId);
  const facts = provenanceFacts(events, nodeSha256);
  return {
    chain,
    events,
    facts,
    tree:
      facts.session.workspace === ''
        ? null
        : readTreeUnderReview(facts.session.workspace, sessionId),
  };
}

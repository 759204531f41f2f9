import type { Sha256 } from '../core/base/sha256.js';
import { canonicallyEqual } from '../core/events/canonical-equal.js';
import type { CorrexEvent, CorrexEventStore, EventPayload } from '../core/event-catalog.js';
import { replaySession, type ReplayReport } from '../core/kernel/index.js';
import { kernelProjection } from '../core/kernel/index.js';

type Forked = Extract<EventPayload, { type: 'session_forked' }>;

/** Where a fork's copied prefix does not hold what its parent recorded. */
export type ForkPrefixProblem = { readonly sequence: number; readonly reason: string };

/**
 * Checks a fork's copied prefix against its parent: the parent's chain verifies and its hash at
 * k is the one `session_forked` recorded; each copied event has the parent's payload, timestamp
 * and the id derived from the parent's, except the fork's own configuration (the parent's
 * digest is recorded) and `session_created`'s workspace and mode (the parent's recorded too).
 * Null when `events` is not a fork's log.
 */
export async function checkForkPrefix(
  store: CorrexEventStore,
  events: readonly CorrexEvent[],
  sha256: Sha256,
): Promise<{ readonly forked: Forked; readonly problem: ForkPrefixProblem | null } | null> {
  const marker = events.find((event) => event.payload.type === 'session_forked');
  if (marker === undefined) return null;
  const forked = marker.payload as Forked;
  const k = forked.atSequence;
  const fail = (sequence: number, reason: string) => ({ forked, problem: { sequence, reason } });
  if (marker.sequence !== k + 1)
    return fail(marker.sequence, `session_forked is not right after the copied #1..#${k}`);
  const chain = await store.verify(forked.parentSessionId);
  if (!chain.ok)
    return fail(
      chain.sequence,
      `the parent ${forked.parentSessionId}'s chain is broken: ${chain.detail}`,
    );
  const parent = await store.read(forked.parentSessionId, { limit: k });
  if (parent.length < k)
    return fail(k, `the parent ${forked.parentSessionId} holds only ${parent.length} events`);
  if (parent[k - 1]!.hash !== forked.parentHash)
    return fail(k, `the parent's hash at #${k} is not the one the fork recorded`);
  const forkId = marker.sessionId;
  for (let index = 0; index < k; index++) {
    const mine = events[index]!;
    const theirs = parent[index]!;
    const sequence = index + 1;
    const id = `fk-${sha256(`${forkId}\n${theirs.eventId}`).slice(0, 40)}`;
    if (mine.eventId !== id || mine.timestamp !== theirs.timestamp)
      return fail(sequence, 'the event id or timestamp is not the parent’s');
    const payload = mine.payload;
    const expected = theirs.payload;
    if (payload.type === 'session_configured' && expected.type === 'session_configured') {
      if (expected.digest !== forked.parentConfigurationDigest)
        return fail(sequence, 'the parent’s configuration digest is not the one recorded');
      continue;
    }
    const comparable =
      payload.type === 'session_created'
        ? { ...payload, workspace: forked.parentWorkspace, mode: forked.parentMode }
        : payload;
    if (payload.type === 'session_created' && payload.workspace !== forked.workspace)
      return fail(sequence, 'session_created names another workspace than session_forked');
    if (!canonicallyEqual(comparable, expected))
      return fail(sequence, `the payload differs from the parent’s ${expected.type}`);
  }
  return { forked, problem: null };
}

/**
 * `replaySession` for any session: a fork's prefix is checked against its parent (whose own
 * replay covers those decisions), and the kernel re-decides from its `session_forked` on.
 */
export async function replayAnySession(
  store: CorrexEventStore,
  sessionId: string,
  options: { readonly sha256: Sha256; readonly fromSequence?: number },
): Promise<ReplayReport & { readonly forkedFrom?: Forked }> {
  const head = await store.read(sessionId);
  const fork = await checkForkPrefix(store, head, options.sha256);
  if (fork === null) return replaySession(store, sessionId, undefined, options);
  if (fork.problem !== null)
    return {
      ok: false,
      forkedFrom: fork.forked,
      state: kernelProjection.initial(),
      divergence: {
        sequence: fork.problem.sequence,
        reason: `the fork's copied prefix: ${fork.problem.reason}`,
        expected: null,
        actual: null,
      },
    };
  const report = await replaySession(store, sessionId, undefined, {
    ...options,
    fromSequence: Math.max(fork.forked.atSequence, options.fromSequence ?? 0),
  });
  return { ...report, forkedFrom: fork.forked };
}

import { correxEventCatalog, type CorrexEvent } from '../../event-catalog.js';
import { createEventCodec } from '../../events/event-codec.js';
import type { Effect } from '../decider/effect.js';
import { isBuiltInReadOnly } from '../../tools/tool-contract.js';
import type { KernelConfig } from '../config/kernel-config.js';
import { kernelProjection, type KernelState } from '../decider/kernel-state.js';

/*
 * What the live runner holds back from the log while an effect that cannot change the world
 * runs (a probe, a built-in read-only tool), to commit it with what comes next: a turn of
 * read-only calls costs one commit, not two per call. Everything held is committed before any
 * effect that can change the world (a write, a command, a model call, a hook) and before any
 * wait, so a crash loses only work that changed nothing: a held read-only call is simply
 * decided and run again.
 *
 * The receipt of a call that changed the world is never held (issue #33.4). A `write_file`
 * receipt once was, until the next write's intent; a crash in that window (as long as the next
 * call's probe, a large file's hash) left only the intent, and resume's read-back lost what the
 * receipt alone records: the change record with its stored pre-image (diff, undo), the real path
 * written through a symlink; and, the link re-pointed or the file edited meanwhile, it wrote
 * again where the call never wrote, or over a person's edit. Holding is the runner's choice of
 * when to commit, never of what: the events and their order are the same either way, so replay
 * needs no flag for it.
 */

/** An event the runner appends; one without a timestamp is stamped when it is appended. */
export type AppendInput = {
  readonly eventId: string;
  readonly causationId: string | null;
  readonly correlationId: string | null;
  readonly payload: CorrexEvent['payload'];
  readonly timestamp?: string;
};

export type HeldResults = {
  /** Results of an effect whose start is in the log: they stand whatever is appended first. */
  readonly facts: readonly AppendInput[];
  /**
   * Decisions, and what answered them. Taken on the state at `after`, so appended only while the
   * log still ends there; otherwise dropped, which loses nothing, since all they led to was read.
   */
  readonly decided: readonly AppendInput[];
  /** The last sequence in the log when the first of them was held. */
  readonly after: number;
  /** The timestamp of the first of them. */
  readonly since: string;
  /** The state with all of them folded in: what the next decision is taken on. */
  readonly state: KernelState;
};

/** How much is held at most: a watcher sees a read-only call at most this late. */
export const HOLD_LIMITS = { maxEvents: 1_000, maxMs: 100 } as const;

/** True when `effect` cannot change the world, so what precedes it may wait to be committed. */
export function changesNothing(config: KernelConfig, effect: Effect): boolean {
  if (effect.type === 'probe') return true;
  if (effect.type !== 'execute') return false;
  const tool = config.tools.get(effect.tool);
  return tool !== undefined && isBuiltInReadOnly(tool);
}

/**
 * True when the results of `effect` may wait to be committed with what follows: only when it
 * changed nothing (see the header for why a file write's receipt does not wait).
 */
export function resultsMayWait(config: KernelConfig, effect: Effect): boolean {
  return changesNothing(config, effect);
}

/** True while what is held (with `count` more events, at `now`) stays within HOLD_LIMITS. */
export function withinHoldLimits(held: HeldResults | undefined, count: number, now: string) {
  if (held === undefined) return count <= HOLD_LIMITS.maxEvents;
  return (
    held.facts.length + held.decided.length + count <= HOLD_LIMITS.maxEvents &&
    Date.parse(now) - Date.parse(held.since) < HOLD_LIMITS.maxMs
  );
}

// Folds events the way the store will return them (normalized by the catalog).
const codec = createEventCodec(correxEventCatalog);

/**
 * `state` with `events` of `sessionId` folded in as the store will return them, and the last.
 * `events` are the same events with their payloads as the catalog normalized them: appended in
 * place of the originals, they are not validated a second time (see `validatedPayloads` in
 * event-codec.ts), and they are the same events, so the same bytes.
 */
export function foldProvisional(
  state: KernelState,
  sessionId: string,
  events: readonly (AppendInput & { readonly timestamp: string })[],
): {
  readonly state: KernelState;
  readonly last: CorrexEvent | undefined;
  readonly events: readonly (AppendInput & { readonly timestamp: string })[];
} {
  let folded = state;
  let last: CorrexEvent | undefined;
  const normalized: (AppendInput & { readonly timestamp: string })[] = [];
  for (const event of events) {
    const envelope = codec.normalizeForReuse({ ...event, sessionId });
    normalized.push({
      eventId: envelope.eventId,
      causationId: envelope.causationId,
      correlationId: envelope.correlationId,
      payload: envelope.payload,
      timestamp: envelope.timestamp,
    });
    last = {
      eventId: envelope.eventId,
      sessionId: envelope.sessionId,
      sequence: folded.session.lastSequence + 1,
      timestamp: envelope.timestamp,
      version: envelope.version,
      causationId: envelope.causationId,
      correlationId: envelope.correlationId,
      payload: envelope.payload,
      position: 0,
      hash: '',
    };
    folded = kernelProjection.evolve(folded, last);
  }
  return { state: folded, last, events: normalized };
}

/**
 * What is held once `inputs` (the results of the effect the held events awaited) join it:
 * facts while no decision is held, else part of what a held decision led to.
 */
export function holdInputs(
  held: HeldResults | undefined,
  inputs: readonly AppendInput[],
  after: number,
  since: string,
): Omit<HeldResults, 'state'> {
  if (held === undefined) return { facts: inputs, decided: [], after, since };
  if (held.decided.length === 0) return { ...held, facts: [...held.facts, ...inputs] };
  return { ...held, decided: [...held.decided, ...inputs] };
}

/**
 * `events` normalized by the catalog as the store will take them (validated once: appended, they
 * are not validated again), without folding them: for events `decide` already folded as it
 * emitted them. Normalizing keeps a payload's JSON content (event-payload-normalization.test.ts),
 * so the state `decide` returned is the one these events lead to.
 */
export function normalizedEvents(
  sessionId: string,
  events: readonly (AppendInput & { readonly timestamp: string })[],
): (AppendInput & { readonly timestamp: string })[] {
  return events.map((event) => {
    const envelope = codec.normalizeForReuse({ ...event, sessionId });
    return {
      eventId: envelope.eventId,
      causationId: envelope.causationId,
      correlationId: envelope.correlationId,
      payload: envelope.payload,
      timestamp: envelope.timestamp,
    };
  });
}

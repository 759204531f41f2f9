import type { CorrexEvent } from '../../event-catalog.js';
import { decide } from '../decider/decide.js';
import type { Effect } from '../decider/effect.js';
import {
  changesNothing,
  foldProvisional,
  normalizedEvents,
  holdInputs,
  resultsMayWait,
  withinHoldLimits,
  type HeldResults,
} from './held-results.js';
import type { RunSessionOptions } from './run-session-types.js';
import { isConflict, type SessionLog } from './session-log.js';
import { untakenAnswer } from './untaken-answer.js';

type Payload = CorrexEvent['payload'];

/** What the last combined append decided: the effect its decision awaits, and what it held. */
type Decided = { readonly effect: Effect | null; readonly held?: HeldResults };

/**
 * Commit batching of an effect's results (see held-results.ts): the results and the decision
 * that answers them go in as one commit, and results that may wait are held back until the next
 * ones. This object owns what is decided and held between two turns of the loop.
 */
export class HeldCommits {
  /** The effect the last combined append's decision awaits (see `answer`), not yet taken. */
  private decided: Decided | undefined;
  /** What an earlier answer held back, not yet appended. */
  held: HeldResults | undefined;

  constructor(
    private readonly options: RunSessionOptions,
    private readonly log: SessionLog,
  ) {}

  /** The effect the last answer's decision awaits (and what it held), once; undefined if none. */
  takeDecided(): { readonly effect: Effect | null } | undefined {
    const decided = this.decided;
    if (decided === undefined) return undefined;
    this.held = decided.held;
    this.decided = undefined;
    return { effect: decided.effect };
  }

  /** The state an effect is performed on: with what is held folded in. */
  stateForEffect(): HeldResults['state'] {
    return this.held?.state ?? this.log.state;
  }

  /** Records `payloads`, the results of `from`, with the decision that answers them. */
  async answer(from: Effect, payloads: readonly Payload[]): Promise<void> {
    this.decided = await this.appendResultsAndDecide(from, payloads, this.held);
    this.held = undefined;
  }

  /**
   * An effect's results and the decision that answers them, appended in one transaction: one
   * commit per effect instead of two, with the same events in the same order and ids. The
   * decision is taken on the results folded exactly as the store will return them (normalized by
   * the catalog, stamped with the time they are appended at), so replay derives it again. On a
   * conflict (something was appended meanwhile) the results go in alone, as facts, and the loop
   * decides on the newer state. The decided events are folded once, by `decide` as it emits them
   * (the next step of the same decision reads that state): the runner keeps its state instead of
   * folding them again, which holds because normalizing a payload keeps its JSON content. Returns the effect the decision awaits, or undefined when the
   * loop must decide itself.
   *
   * When the effect that produced the results (`from`) may have them wait (it changed nothing,
   * or it wrote a file resume can read back) and the one the decision awaits cannot change the
   * world (a probe, a built-in read-only tool), nothing is appended yet: the results and the
   * decision are held, and go in with the next results (see held-results.ts).
   * `held` is what an earlier answer held back; it goes in first, and its state is the one
   * decided on.
   */
  private async appendResultsAndDecide(
    from: Effect,
    payloads: readonly Payload[],
    held?: HeldResults,
  ): Promise<Decided | undefined> {
    const { config, sessionId, clock } = this.options;
    const log = this.log;
    const timestamp = clock.now();
    const inputs = log.inputEvents(payloads, null, null).map((event) => ({ ...event, timestamp }));
    let answered: ReturnType<typeof foldProvisional>;
    let decision: ReturnType<typeof decide>;
    try {
      answered = foldProvisional(held?.state ?? log.state, sessionId, inputs);
      decision = decide(config, answered.state, answered.last!);
    } catch (error) {
      // A model's answer the kernel cannot take would stop the session at every resume (the
      // model answers the same again): it is recorded as a malformed answer instead, which the
      // stage's retry policy reads and replay reads back.
      const failed = untakenAnswer(payloads, error);
      if (failed === undefined) throw error;
      return this.appendResultsAndDecide(from, failed, held);
    }
    const decisions = decision.events.map((event) => ({ ...event, timestamp }));
    // The inputs as folded (normalized by the catalog): appended as they are, not validated again.
    const next = holdInputs(held, answered.events, log.state.session.lastSequence, timestamp);
    if (
      decision.effect !== null &&
      decision.artifacts.length === 0 &&
      resultsMayWait(config, from) &&
      changesNothing(config, decision.effect) &&
      withinHoldLimits(held, inputs.length + decisions.length, timestamp)
    ) {
      const decided = normalizedEvents(sessionId, decisions);
      return {
        effect: decision.effect,
        held: { ...next, decided: [...next.decided, ...decided], state: decision.state },
      };
    }
    try {
      // The decision's own state already holds its events: none is folded a second time.
      const count = next.facts.length + next.decided.length + decisions.length;
      await log.appendOnce([...next.facts, ...next.decided, ...decisions], {
        state: decision.state,
        count,
      });
    } catch (error) {
      if (!isConflict(error)) throw error;
      await log.catchUp();
      await log.appendFacts(next.facts);
      return undefined;
    }
    for (const artifact of decision.artifacts) await this.options.artifacts?.put(artifact);
    return { effect: decision.effect };
  }

  /**
   * Appends what is held: all of it while the log still ends where it was held, else only its
   * facts. True when it dropped held decisions (and so the results of the effect they awaited).
   */
  async release(): Promise<boolean> {
    const held = this.held;
    if (held === undefined) return false;
    const { facts, decided, after } = held;
    const folded = { state: held.state, count: facts.length + decided.length };
    this.held = undefined;
    if (this.log.state.session.lastSequence === after) {
      try {
        await this.log.appendOnce([...facts, ...decided], folded);
        return false;
      } catch (error) {
        if (!isConflict(error)) throw error;
        await this.log.catchUp();
      }
    }
    await this.log.appendFacts(facts);
    return decided.length > 0;
  }
}

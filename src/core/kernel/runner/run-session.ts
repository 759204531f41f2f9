import { CorrexError } from '../../base/correx-error.js';
import type { CorrexEvent, CorrexEventStore } from '../../event-catalog.js';
import { isFinalStatus } from '../../sessions/session-status.js';
import { egressAllowlistSeed } from '../../toolintent/egress-allowlist-seed.js';
import { decide, pendingEffect } from '../decider/decide.js';
import { decideCommand } from '../decider/decide-command.js';
import type { Effect } from '../decider/effect.js';
import {
  changesNothing,
  resultsMayWait,
  foldProvisional,
  holdInputs,
  withinHoldLimits,
  type AppendInput,
  type HeldResults,
} from './held-results.js';
import { KernelInvariantError } from '../decider/kernel-errors.js';
import type { KernelConfig } from '../config/kernel-config.js';
import type { KernelCommand } from '../decider/kernel-input.js';
import {
  evolveMetrics,
  kernelMetricsProjection,
  metricSignals,
} from '../queries/kernel-metrics.js';
import { notifyObserver } from './kernel-observer.js';
import {
  awaitsDecision,
  kernelProjection,
  runOf,
  type KernelState,
} from '../decider/kernel-state.js';
import { recordCommand } from './record-command.js';
import { checkRedirect } from '../features/redirect/redirect.js';
import { KernelWiringError, runEffect } from './run-effect.js';
import type { RunOutcome, RunSessionOptions, SessionRun } from './run-session-types.js';
import { runSubagent, type SubagentRunResult } from './run-subagent.js';
import { sessionConfiguredPayload } from '../config/session-configuration.js';
import { currentCall } from '../decider/stage-run.js';

export { KernelWiringError };
export type { RunOutcome, RunSessionOptions, SessionRun };

type Payload = CorrexEvent['payload'];

/** The config a runner was given is not the one the session recorded at its start. */
export class SessionConfigurationMismatchError extends CorrexError {
  constructor(sessionId: string) {
    super(
      'session_configuration_mismatch',
      `session ${sessionId} was started with another configuration; resume it with the configuration it recorded`,
    );
  }
}

/** Drives a session until it finishes or waits (approval, pause). See `startSession`. */
export function runSession(
  options: RunSessionOptions,
  command?: KernelCommand,
): Promise<RunOutcome> {
  return startSession(options, command).done;
}

/**
 * The live effect runner. Replays the session's state from the store; marks a call that was
 * started without a receipt as interrupted (crash-exact recovery); records `command` (if any);
 * then loops: let `decide` answer the last input, append its events with `expectedSequence`,
 * run the pending effect through its port with an AbortSignal, append the result as an input.
 * Commands reach the session by one route: they are recorded in the store (`command`, or by
 * anyone else), and the loop reads what was appended after each effect. It stops when nothing
 * is pending: finished, paused, or waiting for a person. A waiting session needs no process:
 * whoever appends the answer and calls `runSession` again wakes it.
 */
export function startSession(options: RunSessionOptions, command?: KernelCommand): SessionRun {
  const running = new RunningEffect();
  const stop = options.signal;
  const onStop = () => running.abort(stop?.reason);
  stop?.addEventListener('abort', onStop, { once: true });
  // A long-lived host (a worker) shares one stop signal across many runs: each run takes its
  // listener off when it ends.
  const done = drive(options, command, running).finally(() =>
    stop?.removeEventListener('abort', onStop),
  );
  const record = (recorded: KernelCommand): Promise<readonly CorrexEvent[]> => {
    const recording = recordCommand(
      options,
      options.commandStore ?? options.store,
      options.sessionId,
      recorded,
    );
    // What the command asks of the running effect happens now; the loop (and a sub-session's
    // loop, whose log the command is forwarded to) reads the record before it goes on.
    running.answer(options.config, recorded, recording);
    return recording;
  };
  return {
    done,
    command: record,
    async cancel(by, reason) {
      await record({ type: 'cancel', by, ...(reason === undefined ? {} : { reason }) });
    },
    async pause(by, reason) {
      await record({ type: 'pause', by, ...(reason === undefined ? {} : { reason }) });
    },
    async steer(content, stageId) {
      await record({ type: 'steer', content, ...(stageId === undefined ? {} : { stageId }) });
    },
    async redirect(to, by, reason) {
      await record({ type: 'redirect', to, by, ...(reason === undefined ? {} : { reason }) });
    },
    interrupt(reason, scope = 'effect', recording) {
      if (recording !== undefined) running.track(recording);
      running.interrupt(new Error(reason), scope, recording);
    },
  };
}

/** The effect running now (each gets its own abort handle), and what it means for a command. */
class RunningEffect {
  /** The state the loop last folded (what a redirect is checked against before it aborts). */
  state: KernelState = kernelProjection.initial();
  /** The sub-session a running `run_subagent` drives: a cancel or pause reaches its effect too. */
  child: SessionRun | null = null;
  private controller: AbortController | null = null;
  private type: Effect['type'] | null = null;

  begin(type: Effect['type']): AbortSignal {
    this.controller = new AbortController();
    this.type = type;
    return this.controller.signal;
  }

  end(): void {
    this.controller = null;
    this.type = null;
  }

  /** This process stops: the running effect (and a sub-session's runner) stop, recording nothing new. */
  abort(reason: unknown): void {
    this.controller?.abort(reason);
  }

  /**
   * Aborts what runs now: any effect, or only a retry delay's wait (a pause lets a model call or
   * tool finish). A running sub-session's effect is interrupted the same way; its own loop reads
   * the command forwarded into its log.
   */
  interrupt(reason: Error, scope: 'effect' | 'wait', recording?: Promise<unknown>): void {
    if (this.child !== null) this.child.interrupt(reason.message, scope, recording);
    else if (scope === 'effect' || this.type === 'wait') this.controller?.abort(reason);
  }

  /** Commands of this process still being recorded. */
  private readonly recording = new Set<Promise<unknown>>();

  /** Registers a command being recorded: the loop reads it before it goes on. */
  track(recording: Promise<unknown>): void {
    this.recording.add(recording);
    this.issued += 1;
    const settle = () => void this.recording.delete(recording);
    recording.then(settle, settle);
  }

  /** How many commands were issued here, and how many the last `recorded()` had seen. */
  private issued = 0;
  private seen = 0;

  /**
   * Resolves once every command issued here so far is recorded (or refused): true when any was
   * issued since the last call.
   */
  async recorded(): Promise<boolean> {
    while (this.recording.size > 0) await Promise.allSettled([...this.recording]);
    const any = this.issued !== this.seen;
    this.seen = this.issued;
    return any;
  }

  /**
   * What a command asks of the running effect, at once: a cancel or a legal redirect aborts it,
   * a pause ends a retry delay's wait. Checked against the state the loop last folded.
   */
  answer(config: KernelConfig, command: KernelCommand, recording: Promise<unknown>): void {
    this.track(recording);
    if (isFinalStatus(this.state.session.status)) return;
    const interrupt = (reason: string, scope: 'effect' | 'wait') =>
      this.interrupt(new Error(reason), scope, recording);
    if (command.type === 'cancel') interrupt(`session cancelled by ${command.by}`, 'effect');
    else if (command.type === 'pause') interrupt(`session paused by ${command.by}`, 'wait');
    else if (command.type === 'redirect' && checkRedirect(config, this.state, command.to).ok)
      interrupt(`session redirected to ${command.to} by ${command.by}`, 'effect');
  }
}

async function drive(
  options: RunSessionOptions,
  command: KernelCommand | undefined,
  running: RunningEffect,
): Promise<RunOutcome> {
  const { store, sessionId, config, clock, ids } = options;
  let state = kernelProjection.initial();
  let metrics = kernelMetricsProjection.initial();
  let last: CorrexEvent | undefined;
  const fold = (event: CorrexEvent) => {
    state = kernelProjection.evolve(state, event);
    last = event;
  };
  /** Reads what was appended after the last folded event (by anyone: a command, another process). */
  const catchUp = async () => {
    // Nearly always nothing is new: one look at the head instead of opening a read of the log.
    if ((await store.lastSequence(sessionId)) === state.session.lastSequence) return;
    for await (const event of store.stream(sessionId, {
      afterSequence: state.session.lastSequence,
    })) {
      fold(event);
      if (options.observer !== undefined) metrics = evolveMetrics(metrics, event);
    }
  };
  await catchUp();
  /**
   * Appends `events` in one transaction; one without its own timestamp is stamped now. `folded`
   * is the state the first `count` of them lead to, already folded as the store returns them
   * (foldProvisional): those are not folded again.
   */
  const appendOnce = async (
    events: readonly AppendInput[],
    folded?: { readonly state: KernelState; readonly count: number },
  ) => {
    const now = events.every((event) => event.timestamp !== undefined) ? '' : clock.now();
    const stored = await store.appendAll(
      events.map((event) => ({ ...event, sessionId, timestamp: event.timestamp ?? now })),
      { expectedSequence: state.session.lastSequence },
    );
    if (folded !== undefined && folded.count > 0) {
      state = folded.state;
      last = stored[folded.count - 1];
    }
    for (const [index, event] of stored.entries()) {
      if (index >= (folded?.count ?? 0)) fold(event);
      options.onEvent?.(event);
      if (options.observer !== undefined) {
        const signals = metricSignals(metrics, event);
        metrics = evolveMetrics(metrics, event, signals);
        notifyObserver(options.observer, event, signals);
      }
    }
  };
  /** Inputs are facts: on a conflict they are appended again after the newer events. */
  const appendInputs = async (
    payloads: readonly Payload[],
    causationId: string | null,
    correlationId: string | null = null,
  ) => {
    if (payloads.length === 0) return;
    await appendFacts(inputEvents(payloads, causationId, correlationId));
  };
  const inputEvents = (
    payloads: readonly Payload[],
    causationId: string | null,
    correlationId: string | null,
  ) => payloads.map((payload) => ({ eventId: ids.next(), causationId, correlationId, payload }));
  /** Appends inputs with their ids kept, after whatever a conflict shows was appended first. */
  const appendFacts = async (events: readonly AppendInput[]) => {
    for (;;) {
      try {
        return await appendOnce(events);
      } catch (error) {
        if (!isConflict(error)) throw error;
        await catchUp();
      }
    }
  };

  const recorded = await recordedConfiguration(store, sessionId);
  if (recorded !== null && recorded !== sessionConfiguredPayload(config).digest) {
    throw new SessionConfigurationMismatchError(sessionId);
  }

  // A call started by a process that is gone: record that, so decide probes and classifies it.
  const interrupted = currentCall(runOf(state)?.turn ?? null);
  if (interrupted?.status === 'started' && !isFinalStatus(state.session.status)) {
    await appendInputs(
      [{ type: 'tool_call_interrupted', callId: interrupted.callId, tool: interrupted.tool }],
      null,
    );
  }

  if (command !== undefined) {
    const payloads: Payload[] = decideCommand(state, sessionId, command);
    // A new session's first event records the configuration replay and resume rebuild.
    // and, behind its flag, the egress allowlist the recorded policy names.
    if (command.type === 'start' && state.session.lastSequence === 0 && payloads.length > 0) {
      payloads.unshift(sessionConfiguredPayload(config));
      payloads.push(...egressAllowlistSeed(config.policy.policy, config.behaviour.flags));
    }
    // A sub-session's first events are correlated to the parent's `subagent_started`.
    const correlation = command.type === 'start' ? (command.parent?.eventId ?? null) : null;
    await appendInputs(payloads, null, correlation);
  }

  /**
   * An effect's results and the decision that answers them, appended in one transaction: one
   * commit per effect instead of two, with the same events in the same order and ids. The
   * decision is taken on the results folded exactly as the store will return them (normalized by
   * the catalog, stamped with the time they are appended at), so replay derives it again. On a
   * conflict (something was appended meanwhile) the results go in alone, as facts, and the loop
   * decides on the newer state. Returns the effect the decision awaits, or undefined when the
   * loop must decide itself.
   *
   * When the effect that produced the results (`from`) may have them wait (it changed nothing,
   * or it wrote a file resume can read back) and the one the decision awaits cannot change the
   * world (a probe, a built-in read-only tool), nothing is appended yet: the results and the
   * decision are held, and go in with the next results (see held-results.ts).
   * `held` is what an earlier answer held back; it goes in first, and its state is the one
   * decided on.
   */
  const appendResultsAndDecide = async (
    from: Effect,
    payloads: readonly Payload[],
    held?: HeldResults,
  ): Promise<{ effect: Effect | null; held?: HeldResults } | undefined> => {
    const timestamp = clock.now();
    const inputs = inputEvents(payloads, null, null).map((event) => ({ ...event, timestamp }));
    let answered: ReturnType<typeof foldProvisional>;
    let decision: ReturnType<typeof decide>;
    try {
      answered = foldProvisional(held?.state ?? state, sessionId, inputs);
      decision = decide(config, answered.state, answered.last!);
    } catch (error) {
      // A model's answer the kernel cannot take would stop the session at every resume (the
      // model answers the same again): it is recorded as a malformed answer instead, which the
      // stage's retry policy reads and replay reads back.
      const failed = untakenAnswer(payloads, error);
      if (failed === undefined) throw error;
      return appendResultsAndDecide(from, failed, held);
    }
    const decisions = decision.events.map((event) => ({ ...event, timestamp }));
    // The inputs as folded (normalized by the catalog): appended as they are, not validated again.
    const next = holdInputs(held, answered.events, state.session.lastSequence, timestamp);
    if (
      decision.effect !== null &&
      decision.artifacts.length === 0 &&
      resultsMayWait(config, from) &&
      changesNothing(config, decision.effect) &&
      withinHoldLimits(held, inputs.length + decisions.length, timestamp)
    ) {
      const decided = foldProvisional(answered.state, sessionId, decisions);
      return {
        effect: decision.effect,
        held: { ...next, decided: [...next.decided, ...decided.events], state: decided.state },
      };
    }
    try {
      const count = next.facts.length + next.decided.length;
      await appendOnce([...next.facts, ...next.decided, ...decisions], {
        state: answered.state,
        count,
      });
    } catch (error) {
      if (!isConflict(error)) throw error;
      await catchUp();
      await appendFacts(next.facts);
      return undefined;
    }
    for (const artifact of decision.artifacts) await options.artifacts?.put(artifact);
    return { effect: decision.effect };
  };

  /**
   * Waits for commands issued in this process and reads them, and with `look` whatever else
   * was appended (by another process); true when anything new was read. Without `look`, what
   * another process appended shows at the next append, as a conflict.
   */
  const readCommands = async (look = true) => {
    const before = state.session.lastSequence;
    if ((await running.recorded()) || look) await catchUp();
    return state.session.lastSequence !== before;
  };

  // The effect the last combined append's decision awaits, and what it held back, if anything
  // (see appendResultsAndDecide).
  let decided: { effect: Effect | null; held?: HeldResults } | undefined;
  let held: HeldResults | undefined;
  /**
   * Appends what is held: all of it while the log still ends where it was held, else only its
   * facts. True when it dropped held decisions (and so the results of the effect they awaited).
   */
  const release = async (): Promise<boolean> => {
    if (held === undefined) return false;
    const { facts, decided, after } = held;
    const folded = { state: held.state, count: facts.length + decided.length };
    held = undefined;
    if (state.session.lastSequence === after) {
      try {
        await appendOnce([...facts, ...decided], folded);
        return false;
      } catch (error) {
        if (!isConflict(error)) throw error;
        await catchUp();
      }
    }
    await appendFacts(facts);
    return decided.length > 0;
  };
  for (;;) {
    let effect: Effect | null;
    if (decided !== undefined) {
      effect = decided.effect;
      held = decided.held;
      decided = undefined;
    } else if (awaitsDecision(state)) {
      const decision = decide(config, state, last!);
      effect = decision.effect;
      if (decision.events.length > 0) {
        try {
          await appendOnce(decision.events.map((event) => ({ ...event })));
        } catch (error) {
          if (!isConflict(error)) throw error;
          await catchUp();
          continue;
        }
        // Content lives in the artifact store; the log holds the hash (and the model text it came from).
        for (const artifact of decision.artifacts) await options.artifacts?.put(artifact);
      }
    } else {
      const pending = pendingEffect(config, state);
      // The last event is a decision, so the state is settled; anything else is a kernel bug.
      if (!pending.settled)
        throw new KernelInvariantError(
          `session ${sessionId} is not settled after its last decision`,
        );
      effect = pending.effect;
    }
    running.state = state;
    // A command issued here while deciding comes first (a pause before the next model call).
    // Before an effect that changes nothing, only this process's commands are read.
    if (await readCommands(effect === null || !changesNothing(config, effect))) {
      await release();
      continue;
    }
    // A wait for a person past the policy's approval timeout ends here, by this runner's clock.
    if (
      effect?.type === 'await_approval' &&
      effect.deadline !== undefined &&
      options.signal?.aborted !== true &&
      Date.parse(options.clock.now()) >= Date.parse(effect.deadline)
    ) {
      await appendInputs(
        [{ type: 'approval_timed_out', callId: effect.callId, deadline: effect.deadline }],
        null,
      );
      continue;
    }
    if (effect === null || effect.type === 'await_approval' || options.signal?.aborted === true) {
      await release();
      return outcome(state, effect, options.signal?.aborted === true);
    }
    const signal = running.begin(effect.type);
    let results: Payload[];
    let child: SubagentRunResult | null = null;
    try {
      if (effect.type === 'run_subagent') {
        child = await runSubagent(
          options,
          state,
          effect,
          signal,
          (run) => (running.child = run),
          startSession,
        );
        results = child.results;
      } else {
        results = await runEffect(options, held?.state ?? state, effect, signal);
      }
    } catch (error) {
      await release();
      throw error;
    } finally {
      running.end();
    }
    // What was recorded meanwhile (a cancel, a pause, a note) is read before the result goes in.
    const before = state.session.lastSequence;
    // Held decisions dropped because of what was read: these results answered one of them.
    if ((await readCommands(!changesNothing(config, effect))) && (await release())) continue;
    // A sub-session's results may leave this run waiting with it, so they are not decided on here.
    if (child === null && results.length > 0 && !isFinalStatus(state.session.status)) {
      decided = await appendResultsAndDecide(effect, results, held);
      held = undefined;
      continue;
    }
    if (await release()) continue;
    await appendInputs(results, null);
    // The sub-session waits for a person (or was paused on its own): so does this run, unless
    // something for this session was recorded meanwhile (a pause or cancel forwarded to the child).
    const waiting = child?.waiting;
    if (waiting != null && waiting.kind !== 'stopped' && state.session.lastSequence === before)
      return { status: state.session.status, waiting, state };
  }
}

/** The digest of the configuration a session recorded at its start (null: none recorded). */
async function recordedConfiguration(
  store: CorrexEventStore,
  sessionId: string,
): Promise<string | null> {
  const [first] = await store.read(sessionId, { limit: 1 });
  return first?.payload.type === 'session_configured' ? first.payload.digest : null;
}

function outcome(state: KernelState, effect: Effect | null, stopped: boolean): RunOutcome {
  const status = state.session.status;
  if (status === 'paused') return { status, waiting: { kind: 'paused' }, state };
  if (effect?.type === 'await_approval')
    return {
      status,
      waiting: {
        kind: 'approval',
        callId: effect.callId,
        ...(effect.deadline === undefined ? {} : { deadline: effect.deadline }),
      },
      state,
    };
  if (stopped && !isFinalStatus(status)) return { status, waiting: { kind: 'stopped' }, state };
  const stop = state.features.budget.stop;
  if (stop !== null && status === 'running' && effect === null)
    return { status, waiting: { kind: 'budget', budget: stop.budget, limit: stop.limit }, state };
  return { status, waiting: null, state };
}

function isConflict(error: unknown): boolean {
  return CorrexError.isInstance(error) && error.code === 'concurrency_conflict';
}

/**
 * The `inference_failed` that records a model answer (`payloads`, one `inference_completed`)
 * which folding or deciding on threw `error`; undefined for anything else.
 */
function untakenAnswer(payloads: readonly Payload[], error: unknown): Payload[] | undefined {
  const [answer] = payloads;
  if (payloads.length !== 1 || answer?.type !== 'inference_completed') return undefined;
  const why = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return [
    {
      type: 'inference_failed',
      requestId: answer.requestId,
      provider: answer.provider,
      model: answer.result.modelId,
      category: 'malformed_response',
      message: `correx could not take the answer (${why.slice(0, 500)})`,
    },
  ];
}

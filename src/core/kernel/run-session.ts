import { CorrexError } from '../base/correx-error.js';
import type { CorrexEvent, CorrexEventStore } from '../event-catalog.js';
import { isFinalStatus } from '../sessions/session-status.js';
import type { Artifact } from '../artifacts/artifact.js';
import { decide, pendingEffects } from './decide.js';
import { KernelInvariantError } from './kernel-errors.js';
import { proposedArtifact } from './stage-artifact.js';
import { decideCommand } from './decide-command.js';
import type { Effect } from './effect.js';
import type { KernelConfig } from './kernel-config.js';
import type { KernelCommand } from './kernel-input.js';
import { awaitsDecision, kernelProjection, type KernelState } from './kernel-state.js';
import { sessionConfiguredPayload } from './session-configuration.js';
import { currentCall } from './stage-turn.js';
import { KernelWiringError, runEffect } from './run-effect.js';
import { runSubagent, type SubagentRunResult } from './run-subagent.js';
import type { RunOutcome, RunSessionOptions, SessionRun } from './run-session-types.js';

export { KernelWiringError };
import { checkRedirect } from './redirect.js';
import { evolveMetrics, kernelMetricsProjection, metricSignals } from './kernel-metrics.js';
import { notifyObserver } from './kernel-observer.js';

type Payload = CorrexEvent['payload'];

export type { RunOutcome, RunSessionOptions, SessionRun };

/** The config a runner was given is not the one the session recorded at its start. */
export class SessionConfigurationMismatchError extends CorrexError {
  constructor(sessionId: string) {
    super(
      'session_configuration_mismatch',
      `session ${sessionId} was started with another configuration; resume it with the configuration it recorded`,
    );
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

/** Drives a session until it finishes or waits (approval, pause). See `startSession`. */
export function runSession(
  options: RunSessionOptions,
  command?: KernelCommand,
): Promise<RunOutcome> {
  return startSession(options, command).done;
}

/**
 * The live effect runner. Replays the session's state from the store; records `command` (if
 * any); marks a call that was started without a receipt as interrupted (crash-exact recovery);
 * then loops: let `decide` answer the last input, append its events with `expectedSequence`,
 * run the pending effect through its port with an AbortSignal, append the result as an input.
 * It stops when nothing is pending: finished, paused, or waiting for a person. A waiting
 * session needs no process: whoever appends the answer and calls `runSession` again wakes it.
 */
export function startSession(options: RunSessionOptions, command?: KernelCommand): SessionRun {
  const queue: KernelCommand[] = command === undefined ? [] : [command];
  const running = new RunningEffect(options.sessionId);
  const stop = options.signal;
  stop?.addEventListener('abort', () => running.abort(stop.reason), { once: true });
  const done = drive(options, queue, running);
  return {
    done,
    cancel(by, reason) {
      queue.push({ type: 'cancel', by, ...(reason === undefined ? {} : { reason }) });
      running.cancel(by, reason, `session cancelled by ${by}`);
    },
    pause(by, reason) {
      queue.push({ type: 'pause', by, ...(reason === undefined ? {} : { reason }) });
      running.pause(by, reason);
    },
    steer(content, stageId) {
      queue.push({ type: 'steer', content, ...(stageId === undefined ? {} : { stageId }) });
    },
    redirect(to, by, reason) {
      queue.push({ type: 'redirect', to, by, ...(reason === undefined ? {} : { reason }) });
      // Checked against the state the loop last folded: an illegal redirect aborts nothing.
      if (checkRedirect(options.config, running.state, to).ok)
        running.cancel(by, undefined, `session redirected to ${to} by ${by}`);
    },
    interrupt(reason) {
      running.cancel(`session ${options.sessionId}`, undefined, reason);
    },
  };
}

/** The abort handle of the effect running now; each effect gets its own. */
class RunningEffect {
  /** The state the loop last folded (what a redirect is checked against before it aborts). */
  state: KernelState = kernelProjection.initial();
  /** The sub-session a running `run_subagent` drives: cancel and pause are forwarded to it. */
  child: SessionRun | null = null;
  private controller: AbortController | null = null;
  private type: Effect['type'] | null = null;

  constructor(private readonly sessionId: string) {}

  begin(type: Effect['type']): AbortSignal {
    this.controller = new AbortController();
    this.type = type;
    return this.controller.signal;
  }

  end(): void {
    this.controller = null;
    this.type = null;
  }

  /** Stops the running effect (a sub-session's runner stops too, recording nothing). */
  abort(reason: unknown): void {
    this.controller?.abort(reason);
  }

  /** A cancel, a legal redirect or someone else's cancel: a running sub-session is cancelled. */
  cancel(by: string, reason: string | undefined, message: string): void {
    if (this.child !== null)
      this.child.cancel(by, `${reason ?? message} (parent session ${this.sessionId})`);
    // Between effects there is nothing to abort: queued commands are read before the next one.
    else this.abort(new Error(message));
  }

  /** A pause waits for a running model call or tool, not for a retry delay; it pauses a sub-session. */
  pause(by: string, reason: string | undefined): void {
    if (this.child !== null)
      this.child.pause(by, reason ?? `parent session ${this.sessionId} paused`);
    else if (this.type === 'wait') this.controller?.abort(new Error(`session paused by ${by}`));
  }
}

async function drive(
  options: RunSessionOptions,
  queue: KernelCommand[],
  running: RunningEffect,
): Promise<RunOutcome> {
  const { store, sessionId, config, clock, ids } = options;
  let state = kernelProjection.initial();
  let metrics = kernelMetricsProjection.initial();
  let last: CorrexEvent | undefined;
  const reload = async () => {
    state = kernelProjection.initial();
    metrics = kernelMetricsProjection.initial();
    for await (const event of store.stream(sessionId)) {
      state = kernelProjection.evolve(state, event);
      if (options.observer !== undefined) metrics = evolveMetrics(metrics, event);
      last = event;
    }
  };
  await reload();
  const appendOnce = async (
    events: {
      eventId: string;
      causationId: string | null;
      correlationId: string | null;
      payload: Payload;
    }[],
  ) => {
    const stored = await store.appendAll(
      events.map((event) => ({ ...event, sessionId, timestamp: clock.now() })),
      { expectedSequence: state.session.lastSequence },
    );
    for (const event of stored) {
      state = kernelProjection.evolve(state, event);
      last = event;
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
    payloads: Payload[],
    causationId: string | null,
    correlationId: string | null = null,
  ) => {
    if (payloads.length === 0) return;
    const events = payloads.map((payload) => ({
      eventId: ids.next(),
      causationId,
      correlationId,
      payload,
    }));
    for (;;) {
      try {
        return await appendOnce(events);
      } catch (error) {
        if (!isConflict(error)) throw error;
        await reload();
      }
    }
  };

  // A call started by a process that is gone: record that, so decide probes and classifies it.
  const interrupted = state.run?.turn ? currentCall(state.run.turn) : undefined;
  if (interrupted?.status === 'started' && !isFinalStatus(state.session.status)) {
    await appendInputs(
      [{ type: 'tool_call_interrupted', callId: interrupted.callId, tool: interrupted.tool }],
      null,
    );
  }

  const recorded = await recordedConfiguration(store, sessionId);
  if (recorded !== null && recorded !== sessionConfiguredPayload(config).digest) {
    throw new SessionConfigurationMismatchError(sessionId);
  }

  for (;;) {
    while (queue.length > 0) {
      const command = queue.shift()!;
      const payloads: Payload[] = decideCommand(state, sessionId, command);
      // A new session's first event records the configuration replay and resume rebuild.
      if (command.type === 'start' && state.session.lastSequence === 0 && payloads.length > 0)
        payloads.unshift(sessionConfiguredPayload(config));
      // A sub-session's first events are correlated to the parent's `subagent_started`.
      const correlation = command.type === 'start' ? (command.parent?.eventId ?? null) : null;
      await appendInputs(payloads, null, correlation);
    }
    // What decide left pending, so the request is not rebuilt right after it was built.
    let decided: readonly Effect[] | undefined;
    if (awaitsDecision(state)) {
      const decision = decide(config, state, last!);
      decided = decision.effects;
      if (decision.events.length > 0) {
        const artifacts = proposedArtifacts(config, state, decision.events);
        try {
          await appendOnce(decision.events.map((event) => ({ ...event })));
        } catch (error) {
          if (!isConflict(error)) throw error;
          await reload();
          continue;
        }
        // Content lives in the artifact store; the log holds the hash (and the model text it came from).
        for (const artifact of artifacts) await options.artifacts?.put(artifact);
      }
    }
    if (queue.length > 0) continue;
    const effect = (decided ?? pendingEffects(config, state))[0];
    if (
      effect === undefined ||
      effect.type === 'await_approval' ||
      options.signal?.aborted === true
    ) {
      return outcome(state, effect, options.signal?.aborted === true);
    }
    running.state = state;
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
        results = await runEffect(options, state, effect, signal);
      }
    } finally {
      running.end();
    }
    await appendInputs(results, null);
    // The sub-session waits for a person (or was paused on its own): so does this run, unless
    // a command for this session arrived meanwhile (a pause or cancel forwarded to the child).
    const waiting = child?.waiting;
    if (waiting != null && waiting.kind !== 'stopped' && queue.length === 0)
      return { status: state.session.status, waiting, state };
  }
}

function outcome(state: KernelState, effect: Effect | undefined, stopped: boolean): RunOutcome {
  const status = state.session.status;
  if (status === 'paused') return { status, waiting: { kind: 'paused' }, state };
  if (effect?.type === 'await_approval')
    return { status, waiting: { kind: 'approval', callId: effect.callId }, state };
  if (stopped && !isFinalStatus(status)) return { status, waiting: { kind: 'stopped' }, state };
  return { status, waiting: null, state };
}

/** The artifacts a decision proposes, rebuilt from the state it was made on and checked by hash. */
function proposedArtifacts(
  config: KernelConfig,
  state: KernelState,
  events: readonly { readonly payload: Payload }[],
): Artifact[] {
  const artifacts: Artifact[] = [];
  for (const { payload } of events) {
    if (payload.type !== 'artifact_proposed') continue;
    const stage = config.workflow.stages.get(payload.stageId);
    const turn = state.run?.turn;
    const artifact =
      stage && turn ? proposedArtifact(state, stage, turn, config.sha256) : undefined;
    if (artifact?.hash !== payload.hash) {
      throw new KernelInvariantError(
        `artifact ${payload.hash} cannot be rebuilt from the state that proposed it`,
      );
    }
    artifacts.push(artifact);
  }
  return artifacts;
}

function isConflict(error: unknown): boolean {
  return CorrexError.isInstance(error) && error.code === 'concurrency_conflict';
}

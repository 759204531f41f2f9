import type { CorrexEvent } from '../core/event-catalog.js';
import {
  decide,
  type Decision,
  kernelProjection,
  type KernelState,
  sessionConfiguredPayload,
} from '../core/kernel/index.js';
import type { Effect, KernelConfig } from '../core/kernel/index.js';

type Payload = CorrexEvent['payload'];

/** A specification did not hold: what was expected, what the decider did. */
export class SpecificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SpecificationError';
  }
}

/** What a specification checks a decision against (payloads and effects match as subsets). */
export type DecisionExpectation = {
  /** The emitted events, in order, each matched as a subset of the payload (`{ type }` is enough). */
  thenEmits(expected: readonly Partial<Payload>[]): DecisionExpectation;
  /** The effect the session then waits on, matched as a subset. */
  thenAwaits(expected: Partial<Effect>): DecisionExpectation;
  /** Nothing is pending: finished, paused, or waiting for a person's command. */
  thenIdles(): DecisionExpectation;
  /** The decision itself, for anything else a test wants to look at. */
  readonly decision: Decision;
};

export type KernelSpecification = {
  /** The session's history so far: payloads, folded in order as recorded events. */
  given(...history: readonly Payload[]): {
    /** An input (a command's event or an effect's result) arrives and `decide` answers it. */
    when(input: Payload): DecisionExpectation;
    readonly state: KernelState;
  };
};

/**
 * Given/when/then for the kernel's decider: `given(events).when(input).thenEmits(events)
 * .thenAwaits(effect)`. Pure: no store, no clock, no ports; a specification runs in
 * microseconds. Events get counting ids, gapless sequences and one fixed timestamp (or the
 * `at` option), and the decided events are folded the way a runner would append them.
 */
export function kernelSpecification(
  config: KernelConfig,
  options: { readonly sessionId?: string; readonly at?: string } = {},
): KernelSpecification {
  const sessionId = options.sessionId ?? 's1';
  const at = options.at ?? '2026-12-01T12:00:00.000Z';
  return {
    given(...history) {
      let state = kernelProjection.initial();
      let count = 0;
      const record = (payload: Payload): CorrexEvent => {
        count += 1;
        const event: CorrexEvent = {
          eventId: `given-${count}`,
          sessionId,
          sequence: state.session.lastSequence + 1,
          timestamp: at,
          version: 1,
          causationId: null,
          correlationId: null,
          position: 0,
          hash: '',
          payload,
        };
        state = kernelProjection.evolve(state, event);
        return event;
      };
      for (const payload of history) record(payload);
      const before = state;
      return {
        state: before,
        when(input) {
          const event = record(input);
          return expectation(decide(config, state, event));
        },
      };
    },
  };
}

/** The first events of every session: its recorded configuration and its creation. */
export function sessionStart(
  config: KernelConfig,
  session: {
    readonly task: string;
    readonly workspace: string;
    readonly mode?: 'prompt' | 'auto' | 'yolo' | 'deny';
  },
): Payload[] {
  return [
    sessionConfiguredPayload(config),
    {
      type: 'session_created',
      task: session.task,
      workspace: session.workspace,
      workflowId: config.workflow.id,
      mode: session.mode ?? 'auto',
    },
  ];
}

function expectation(decision: Decision): DecisionExpectation {
  const self: DecisionExpectation = {
    decision,
    thenEmits(expected) {
      const emitted = decision.events.map((event) => event.payload);
      if (
        emitted.length !== expected.length ||
        !expected.every((want, i) => isSubset(want, emitted[i]))
      )
        throw new SpecificationError(
          `expected the decision to emit\n${show(expected)}\nbut it emitted\n${show(emitted)}`,
        );
      return self;
    },
    thenAwaits(expected) {
      if (decision.effect === null || !isSubset(expected, decision.effect))
        throw new SpecificationError(
          `expected the session to await\n${show(expected)}\nbut it awaits\n${show(decision.effect)}`,
        );
      return self;
    },
    thenIdles() {
      if (decision.effect !== null)
        throw new SpecificationError(
          `expected nothing pending, but the session awaits\n${show(decision.effect)}`,
        );
      return self;
    },
  };
  return self;
}

/** Whether every property of `want` is in `got` (arrays element by element, same length). */
function isSubset(want: unknown, got: unknown): boolean {
  if (want === got) return true;
  if (typeof want !== 'object' || want === null || typeof got !== 'object' || got === null)
    return false;
  if (Array.isArray(want))
    return (
      Array.isArray(got) &&
      want.length === got.length &&
      want.every((item, index) => isSubset(item, got[index]))
    );
  return Object.entries(want).every(([key, value]) =>
    isSubset(value, (got as Record<string, unknown>)[key]),
  );
}

function show(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? 'nothing';
}

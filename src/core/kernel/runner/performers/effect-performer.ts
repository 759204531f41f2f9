import { CorrexError } from '../../../base/correx-error.js';
import type { Clock } from '../../../base/clock.js';
import type { CorrexEvent } from '../../../event-catalog.js';
import type { KernelConfig } from '../../config/kernel-config.js';
import type { Effect } from '../../decider/effect.js';
import type { KernelState } from '../../decider/kernel-state.js';
import type { KernelPorts } from '../kernel-ports.js';

/** What performing an effect needs from the runner's options. */
export type EffectContext = {
  readonly config: KernelConfig;
  readonly ports: KernelPorts;
  readonly clock: Clock;
};

/** The effects a performer runs: all but a wait for a person and a sub-session (the loop's). */
export type PerformedEffect = Exclude<Effect, { type: 'await_approval' | 'run_subagent' }>;

/**
 * Performs one kind of effect through its port and returns the input events that record its
 * result (none when it was aborted and has nothing to record: it stays pending).
 */
export type EffectPerformer<Type extends PerformedEffect['type']> = (
  options: EffectContext,
  state: KernelState,
  effect: Extract<PerformedEffect, { type: Type }>,
  signal: AbortSignal,
) => Promise<CorrexEvent['payload'][]>;

/** A port was not wired (a provider named by a model profile is missing). A setup mistake. */
export class KernelWiringError extends CorrexError {
  constructor(message: string) {
    super('kernel_wiring', message);
  }
}

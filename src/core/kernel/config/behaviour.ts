import { flagSet, type BehaviourFlag, type BehaviourFlags } from '../../base/behaviour-flag.js';
import { CorrexError } from '../../base/correx-error.js';
import { contextFlags } from '../../context/context-flags.js';
import { toolIntentFlags } from '../../toolintent/toolintent-flags.js';
import { kernelFlags } from './kernel-flags.js';

/**
 * The decider's version, recorded in `session_configured`. Version 1 is every session recorded
 * before behaviour was versioned (no flags); from version 2 on a session records its flags. The
 * version changes only if correx ever stops re-deriving an older one.
 */
export const KERNEL_VERSION = 2;

/**
 * Every behaviour flag this release knows, assembled once from the modules that branch on them.
 * A behaviour change adds its flag here (and to its module's list); new sessions record them all.
 */
export const behaviourFlags: readonly BehaviourFlag[] = [
  ...toolIntentFlags,
  ...kernelFlags,
  ...contextFlags,
];

/** The behaviour a session runs with: the decider's version and the flags in force. */
export type KernelBehaviour = {
  readonly kernelVersion: number;
  readonly flags: BehaviourFlags;
};

/** What a new session records: this release's version and all its flags. */
export function currentBehaviour(): KernelBehaviour {
  return { kernelVersion: KERNEL_VERSION, flags: flagSet(behaviourFlags) };
}

/** Sessions recorded before behaviour was versioned. */
export const UNVERSIONED_BEHAVIOUR: KernelBehaviour = { kernelVersion: 1, flags: new Set() };

/** A recorded behaviour this release cannot re-derive (a newer correx recorded it). */
export class UnknownBehaviourError extends CorrexError {
  constructor(message: string) {
    super('unknown_behaviour', message);
  }
}

/** The behaviour a recorded configuration names, checked against what this release knows. */
export function recordedBehaviour(
  kernelVersion: number | undefined,
  flags: readonly string[] | undefined,
): KernelBehaviour {
  if (kernelVersion === undefined) return UNVERSIONED_BEHAVIOUR;
  if (kernelVersion > KERNEL_VERSION)
    throw new UnknownBehaviourError(
      `the session was recorded by decider version ${kernelVersion}; this correx has version ${KERNEL_VERSION}: use a newer correx`,
    );
  const known = flagSet(behaviourFlags);
  const unknown = (flags ?? []).filter((flag) => !known.has(flag));
  if (unknown.length > 0)
    throw new UnknownBehaviourError(
      `the session was recorded with behaviour this correx does not know (${unknown.join(', ')}): use a newer correx`,
    );
  return { kernelVersion, flags: new Set(flags) };
}

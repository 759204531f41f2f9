import { flagSet, type BehaviourFlag, type BehaviourFlags } from '../../base/behaviour-flag.js';
import { CorrexError } from '../../base/correx-error.js';
import { contextFlags } from '../../context/context-flags.js';
import { toolIntentFlags } from '../../toolintent/toolintent-flags.js';
import { kernelFlags } from './kernel-flags.js';
import {
  defineKernelVersions,
  flagsInForce,
  latestVersion,
  type KernelVersionTable,
} from './kernel-versions.js';

/**
 * The decider's versions (docs/kernel.md, "Flags with a lifecycle"). Version 1 is every session
 * recorded before behaviour was versioned (no flags); from version 2 on a session records its
 * flags. A release that folds a set of flags adds a version whose `folds` lists them (each
 * flag then says `retiredIn` that release): sessions recorded at it run with them unnamed.
 * `oldestSupported` goes up only with the corpus sessions of the versions it drops.
 */
export const KERNEL_VERSIONS: KernelVersionTable = defineKernelVersions({
  versions: [
    { version: 1, release: '0.1.0', folds: [] },
    { version: 2, release: '0.1.0', folds: [] },
  ],
  oldestSupported: 1,
});

/** The decider's version, recorded in `session_configured`: the newest of `KERNEL_VERSIONS`. */
export const KERNEL_VERSION = latestVersion(KERNEL_VERSIONS);

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

/**
 * The behaviour a recorded configuration names, checked against what this release knows: the
 * flags it names and those its version implies (`versions`: this release's table, or a test's).
 */
export function recordedBehaviour(
  kernelVersion: number | undefined,
  flags: readonly string[] | undefined,
  versions: KernelVersionTable = KERNEL_VERSIONS,
): KernelBehaviour {
  const version = kernelVersion ?? 1;
  const latest = latestVersion(versions);
  if (version > latest)
    throw new UnknownBehaviourError(
      `the session was recorded by decider version ${version}; this correx has version ${latest}: use a newer correx`,
    );
  if (version < versions.oldestSupported)
    throw new UnknownBehaviourError(
      `the session was recorded by decider version ${version}; this correx replays versions ${versions.oldestSupported}–${latest}: use an older correx`,
    );
  // Sessions recorded before behaviour was versioned name no flags.
  if (kernelVersion === undefined) {
    const implied = flagsInForce(versions, 1, []);
    return implied.size === 0 ? UNVERSIONED_BEHAVIOUR : { kernelVersion: 1, flags: implied };
  }
  const known = flagSet(behaviourFlags);
  const unknown = (flags ?? []).filter((flag) => !known.has(flag));
  if (unknown.length > 0)
    throw new UnknownBehaviourError(
      `the session was recorded with behaviour this correx does not know (${unknown.join(', ')}): use a newer correx`,
    );
  return { kernelVersion: version, flags: flagsInForce(versions, version, flags ?? []) };
}

/**
 * The flags in force for a recorded configuration (its `kernelVersion` and `flags` as recorded,
 * unparsed): what the projection reads when a fold depends on the recorded behaviour.
 */
export function recordedFlagsInForce(configuration: {
  readonly [key: string]: unknown;
}): ReadonlySet<string> {
  return flagsInForce(KERNEL_VERSIONS, configuration.kernelVersion, configuration.flags);
}

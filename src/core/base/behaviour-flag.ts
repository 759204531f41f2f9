/**
 * A change of decision logic, selected by a flag that a session records when it starts (the way
 * Temporal's SDK flags work). A session recorded without the flag re-derives exactly what it did;
 * a new session records every flag its release knows and gets the new behaviour. Flags are never
 * removed while a recorded session might still need the old branch.
 */
export type BehaviourFlag = {
  /** kebab-case, stable forever: it is recorded in `session_configured`. */
  readonly name: string;
  /** What the flag changes, for `docs/` and error messages. */
  readonly description: string;
  /**
   * The release that introduced it (every flag so far: 0.1.0). A release folds the flags of its
   * set into the decider's version (docs/kernel.md, "Flags with a lifecycle"); `since` says which
   * recorded versions can name the flag, and so when its old branch may go.
   */
  readonly since: string;
  /**
   * The release whose decider version folded the flag in: from it on, new sessions record the
   * version instead of the flag. Absent while the flag is still recorded by name.
   */
  readonly retiredIn?: string;
};

/** A flag as its module defines it: `since` defaults to the first versioned release. */
export type BehaviourFlagDefinition = Omit<BehaviourFlag, 'since'> & { readonly since?: string };

/** The release of the first behaviour flags; a flag defined without `since` dates from it. */
export const FIRST_FLAGGED_RELEASE = '0.1.0';

const RELEASE = /^\d+\.\d+\.\d+$/;

/** The flags a session runs with. */
export type BehaviourFlags = ReadonlySet<string>;

export function defineBehaviourFlag(flag: BehaviourFlagDefinition): BehaviourFlag {
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(flag.name))
    throw new RangeError(`behaviour flag ${JSON.stringify(flag.name)} must be kebab-case`);
  const since = flag.since ?? FIRST_FLAGGED_RELEASE;
  for (const release of [since, flag.retiredIn])
    if (release !== undefined && !RELEASE.test(release))
      throw new RangeError(
        `behaviour flag ${flag.name}: release ${JSON.stringify(release)} must be major.minor.patch`,
      );
  return Object.freeze({ ...flag, since });
}

/** The flag names of a list, as the set a session runs with. */
export function flagSet(flags: readonly BehaviourFlag[]): BehaviourFlags {
  return new Set(flags.map((flag) => flag.name));
}

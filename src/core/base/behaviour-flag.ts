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
};

/** The flags a session runs with. */
export type BehaviourFlags = ReadonlySet<string>;

export function defineBehaviourFlag(flag: BehaviourFlag): BehaviourFlag {
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(flag.name))
    throw new RangeError(`behaviour flag ${JSON.stringify(flag.name)} must be kebab-case`);
  return Object.freeze({ ...flag });
}

/** The flag names of a list, as the set a session runs with. */
export function flagSet(flags: readonly BehaviourFlag[]): BehaviourFlags {
  return new Set(flags.map((flag) => flag.name));
}

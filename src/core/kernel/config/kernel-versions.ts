import type { BehaviourFlag, BehaviourFlags } from '../../base/behaviour-flag.js';
import { CorrexError } from '../../base/correx-error.js';

/**
 * One version of the decider: the release that introduced it and the behaviour flags it folds
 * in. A session recorded at this version, or a later one, runs with the folded flags whether or
 * not it names them; new sessions stop naming them. Each folded flag says `retiredIn` this
 * version's release.
 */
export type KernelVersion = {
  readonly version: number;
  readonly release: string;
  readonly folds: readonly BehaviourFlag[];
};

/**
 * The decider's versions in order (1, 2, …) and the oldest one this release still replays. A
 * flag set folded into a version is a fixed chain: "recorded at version ≥ N, or naming flag F"
 * is what `flagsInForce` answers, so a branch keeps asking its flag and never a version.
 */
export type KernelVersionTable = {
  readonly versions: readonly KernelVersion[];
  readonly oldestSupported: number;
};

/** A version table that contradicts itself (a gap, a flag folded twice, a `retiredIn` that disagrees). */
export class KernelVersionTableError extends CorrexError {
  constructor(message: string) {
    super('invalid_kernel_version_table', message);
  }
}

/** A flag's old branch is still recorded by a supported session, so the flag cannot go yet. */
export class FlagStillRecordedError extends CorrexError {
  constructor(
    readonly flag: string,
    readonly sessions: readonly string[],
  ) {
    super(
      'flag_still_recorded',
      `behaviour flag ${flag} cannot be removed: ${sessions.length} supported recorded session(s) run its old branch (${sessions.slice(0, 5).join(', ')}${sessions.length > 5 ? ', …' : ''})`,
    );
  }
}

/** Checks a table: versions 1..n in order, each flag folded once, by the release it names. */
export function defineKernelVersions(table: KernelVersionTable): KernelVersionTable {
  if (table.versions.length === 0)
    throw new KernelVersionTableError('a version table needs version 1');
  const folded = new Set<string>();
  table.versions.forEach((entry, index) => {
    if (entry.version !== index + 1)
      throw new KernelVersionTableError(
        `version ${entry.version} is listed ${index + 1}${index === 0 ? 'st' : 'th'}: versions go 1, 2, 3… without gaps`,
      );
    for (const flag of entry.folds) {
      if (folded.has(flag.name))
        throw new KernelVersionTableError(`flag ${flag.name} is folded into two versions`);
      folded.add(flag.name);
      if (flag.retiredIn !== entry.release)
        throw new KernelVersionTableError(
          `flag ${flag.name} is folded into version ${entry.version} (release ${entry.release}) but says retiredIn ${flag.retiredIn ?? 'nothing'}`,
        );
    }
  });
  const latest = table.versions.length;
  if (
    !Number.isInteger(table.oldestSupported) ||
    table.oldestSupported < 1 ||
    table.oldestSupported > latest
  )
    throw new KernelVersionTableError(
      `oldestSupported ${table.oldestSupported} is not a version of the table (1–${latest})`,
    );
  return table;
}

/** The newest version: what new sessions record. */
export function latestVersion(table: KernelVersionTable): number {
  return table.versions.length;
}

/** The flags a session recorded at `version` runs with without naming them. */
export function impliedFlags(table: KernelVersionTable, version: number): BehaviourFlags {
  return new Set(
    table.versions
      .filter((entry) => entry.version <= version)
      .flatMap((entry) => entry.folds.map((flag) => flag.name)),
  );
}

/**
 * The flags in force for a recorded version and flag list: the ones it names and the ones its
 * version implies. Lenient on shape (a version that is not a number is 1, a list that is not
 * one names nothing): the fold reads recorded configurations with it.
 */
export function flagsInForce(
  table: KernelVersionTable,
  version: unknown,
  flags: unknown,
): BehaviourFlags {
  const named = Array.isArray(flags)
    ? flags.filter((flag): flag is string => typeof flag === 'string')
    : [];
  const implied = impliedFlags(table, typeof version === 'number' ? version : 1);
  return implied.size === 0 ? new Set(named) : new Set([...implied, ...named]);
}

/** What a session at `version` records of the flags in force: those its version does not imply, sorted. */
export function flagsToRecord(
  table: KernelVersionTable,
  version: number,
  inForce: Iterable<string>,
): string[] {
  const implied = impliedFlags(table, version);
  return [...inForce].filter((flag) => !implied.has(flag)).sort();
}

/** A recorded session's behaviour as `session_configured` names it (version absent: 1). */
export type RecordedBehaviourOf = {
  readonly session: string;
  readonly kernelVersion?: number;
  readonly flags?: readonly string[];
};

/**
 * The supported recorded sessions that run `flag`'s old branch: recorded at a version this
 * release still replays, without the flag in force. The flag and its old branch may be removed
 * only when this is empty for every session a release must replay (the frozen corpus proves it).
 */
export function oldBranchRecordedBy(
  table: KernelVersionTable,
  flag: string,
  sessions: readonly RecordedBehaviourOf[],
): string[] {
  return sessions
    .filter((recorded) => (recorded.kernelVersion ?? 1) >= table.oldestSupported)
    .filter((recorded) => !flagsInForce(table, recorded.kernelVersion, recorded.flags).has(flag))
    .map((recorded) => recorded.session);
}

/** Refuses to remove `flag` while a supported recorded session runs its old branch. */
export function assertFlagRemovable(
  table: KernelVersionTable,
  flag: string,
  sessions: readonly RecordedBehaviourOf[],
): void {
  const blockers = oldBranchRecordedBy(table, flag, sessions);
  if (blockers.length > 0) throw new FlagStillRecordedError(flag, blockers);
}

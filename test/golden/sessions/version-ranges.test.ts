import { describe, expect, it } from 'vitest';
import { behaviourFlags, recordedKernelConfig, replaySession } from '../../../src/core/kernel/index.js';
import {
  KERNEL_VERSIONS,
  recordedBehaviour,
  UnknownBehaviourError,
} from '../../../src/core/kernel/config/behaviour.js';
import {
  assertFlagRemovable,
  defineKernelVersions,
  FlagStillRecordedError,
  flagsToRecord,
  oldBranchRecordedBy,
  type KernelVersionTable,
  type RecordedBehaviourOf,
} from '../../../src/core/kernel/config/kernel-versions.js';
import { nodeSha256 } from '../../../src/infrastructure/system/node-sha256.js';
import { loadCorpusStore, readCorpusEvents, readCorpusManifest } from './session-corpus.js';

/*
 * Behaviour by version range (docs/kernel.md, "Flags with a lifecycle"), proven on the frozen
 * corpus: a version implies the flags it folded, so a session recorded at it replays with that
 * set without naming it; and a flag may leave the code only when no session a release still
 * replays runs its old branch.
 */
const manifest = readCorpusManifest();

/** What each corpus session recorded of its behaviour (`session_configured`, first event). */
const recorded: RecordedBehaviourOf[] = manifest.sessions.map((entry) => {
  const first = readCorpusEvents(entry.file)[0]!;
  if (first.payload.type !== 'session_configured')
    throw new Error(`${entry.file} does not start with session_configured`);
  const configuration = first.payload.configuration as {
    kernelVersion?: number;
    flags?: string[];
  };
  return {
    session: entry.file,
    ...(configuration.kernelVersion === undefined
      ? {}
      : { kernelVersion: configuration.kernelVersion }),
    ...(configuration.flags === undefined ? {} : { flags: configuration.flags }),
  };
});

/** A release 0.2.0 whose decider version 3 folds `names` (each flag then says retiredIn 0.2.0). */
function foldingRelease(names: readonly string[], oldestSupported: number): KernelVersionTable {
  return defineKernelVersions({
    versions: [
      ...KERNEL_VERSIONS.versions,
      {
        version: 3,
        release: '0.2.0',
        folds: behaviourFlags
          .filter((flag) => names.includes(flag.name))
          .map((flag) => ({ ...flag, retiredIn: '0.2.0' })),
      },
    ],
    oldestSupported,
  });
}

const KEY_ORDER = 'model-key-order.ndjson';
const keyOrder = manifest.sessions.find((entry) => entry.file === KEY_ORDER)!;
const keyOrderFlags = recorded.find((r) => r.session === KEY_ORDER)!.flags!;

describe('behaviour by version range', () => {
  it('the corpus holds unversioned sessions and version 2 sessions with several flag sets', () => {
    expect(recorded.filter((r) => r.kernelVersion === undefined).length).toBeGreaterThan(0);
    const sets = new Set(
      recorded.filter((r) => r.kernelVersion === 2).map((r) => (r.flags ?? []).join(',')),
    );
    expect(sets.size).toBeGreaterThan(3);
    expect(keyOrderFlags.length).toBeGreaterThan(30);
  });

  it("a version implies the flags it folded: a session recorded at it runs with that version's set", () => {
    const release = foldingRelease(keyOrderFlags, 1);
    // A new session at version 3 names none of the folded flags, and reads them back in force.
    expect(flagsToRecord(release, 3, keyOrderFlags)).toEqual([]);
    const atThree = recordedBehaviour(3, [], release);
    expect([...atThree.flags].sort()).toEqual([...keyOrderFlags].sort());
    // Version 2 implies nothing: what it names is what it runs with.
    expect([...recordedBehaviour(2, keyOrderFlags, release).flags].sort()).toEqual(
      [...keyOrderFlags].sort(),
    );
    expect(recordedBehaviour(2, [], release).flags.size).toBe(0);
  });

  it("replays a recorded session byte for byte with the flag set its version implies, and not without it", async () => {
    const release = foldingRelease(keyOrderFlags, 1);
    const store = await loadCorpusStore([KEY_ORDER]);
    const config = await recordedKernelConfig(store, keyOrder.sessionId, nodeSha256);
    const byVersion = await replaySession(
      store,
      keyOrder.sessionId,
      { ...config, behaviour: recordedBehaviour(3, [], release) },
      { sha256: nodeSha256 },
    );
    if (!byVersion.ok)
      expect.fail(`replay at version 3 diverged: ${JSON.stringify(byVersion.divergence)}`);
    expect(byVersion.events).toBe(keyOrder.events);
    // The same session run without the version's flags derives other events: the set matters.
    const without = await replaySession(
      store,
      keyOrder.sessionId,
      { ...config, behaviour: recordedBehaviour(2, [], release) },
      { sha256: nodeSha256 },
    );
    expect(without.ok).toBe(false);
    await store.close();
  });

  it('no flag of this release can be removed: the corpus records every old branch at a supported version', () => {
    for (const flag of behaviourFlags) {
      const blockers = oldBranchRecordedBy(KERNEL_VERSIONS, flag.name, recorded);
      // Every unversioned session runs every flag's old branch.
      expect(blockers, flag.name).toEqual(
        expect.arrayContaining(['happy-path.ndjson', 'cli-demo.ndjson']),
      );
      expect(() => assertFlagRemovable(KERNEL_VERSIONS, flag.name, recorded)).toThrow(
        FlagStillRecordedError,
      );
    }
  });

  it('a fold alone does not free a flag: supported older sessions still run its old branch', () => {
    const release = foldingRelease(keyOrderFlags, 2);
    const flag = 'decisions-from-canonical-output';
    expect(keyOrderFlags).toContain(flag);
    const blockers = oldBranchRecordedBy(release, flag, recorded);
    // Unversioned sessions are no longer supported; version 2 sessions without the flag are.
    expect(blockers).not.toContain('happy-path.ndjson');
    expect(blockers).toContain('contained-session.ndjson');
    expect(blockers).not.toContain(KEY_ORDER);
    expect(() => assertFlagRemovable(release, flag, recorded)).toThrow(/contained-session/);
  });

  it('dropping the versions before the fold frees its flags, and refuses the sessions it drops', () => {
    const release = foldingRelease(keyOrderFlags, 3);
    for (const flag of keyOrderFlags)
      expect(() => assertFlagRemovable(release, flag, recorded)).not.toThrow();
    // ...which is only true because no corpus session is supported any more: such a release
    // must retire them from the corpus, and replaying one is refused, naming why.
    expect(() => recordedBehaviour(2, keyOrderFlags, release)).toThrow(UnknownBehaviourError);
    expect(() => recordedBehaviour(undefined, undefined, release)).toThrow(/use an older correx/);
  });

  it("this release replays every corpus session's recorded version", () => {
    for (const r of recorded)
      expect(() => recordedBehaviour(r.kernelVersion, r.flags, KERNEL_VERSIONS)).not.toThrow();
  });

  it('every flag this release folded is folded by a version of its table, and no other', () => {
    const folded = KERNEL_VERSIONS.versions.flatMap((v) => v.folds.map((f) => f.name)).sort();
    expect(behaviourFlags.filter((flag) => flag.retiredIn !== undefined).map((f) => f.name).sort()).toEqual(
      folded,
    );
  });
});

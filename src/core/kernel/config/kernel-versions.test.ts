import { describe, expect, it } from 'vitest';
import { defineBehaviourFlag } from '../../base/behaviour-flag.js';
import {
  defineKernelVersions,
  flagsInForce,
  flagsToRecord,
  impliedFlags,
  KernelVersionTableError,
  latestVersion,
} from './kernel-versions.js';

const A = defineBehaviourFlag({ name: 'flag-a', description: 'a', retiredIn: '0.2.0' });
const B = defineBehaviourFlag({ name: 'flag-b', description: 'b', retiredIn: '0.3.0' });
const C = defineBehaviourFlag({ name: 'flag-c', description: 'c' });

const table = defineKernelVersions({
  versions: [
    { version: 1, release: '0.1.0', folds: [] },
    { version: 2, release: '0.1.0', folds: [] },
    { version: 3, release: '0.2.0', folds: [A] },
    { version: 4, release: '0.3.0', folds: [B] },
  ],
  oldestSupported: 2,
});

describe('kernel versions', () => {
  it('imply the flags of every fold up to them, a fixed chain', () => {
    expect(latestVersion(table)).toBe(4);
    expect([...impliedFlags(table, 2)]).toEqual([]);
    expect([...impliedFlags(table, 3)]).toEqual(['flag-a']);
    expect([...impliedFlags(table, 4)].sort()).toEqual(['flag-a', 'flag-b']);
  });

  it('put in force what a session names and what its version implies', () => {
    expect([...flagsInForce(table, 3, ['flag-c'])].sort()).toEqual(['flag-a', 'flag-c']);
    expect([...flagsInForce(table, 2, ['flag-a'])]).toEqual(['flag-a']);
    // Unversioned and malformed records: version 1, nothing named.
    expect([...flagsInForce(table, undefined, 'flag-a')]).toEqual([]);
  });

  it('record only the flags a version does not imply', () => {
    expect(flagsToRecord(table, 4, ['flag-c', 'flag-b', 'flag-a'])).toEqual(['flag-c']);
    expect(flagsToRecord(table, 2, ['flag-c', 'flag-a'])).toEqual(['flag-a', 'flag-c']);
  });

  it('refuse a table with a gap, a flag folded twice, a retiredIn that disagrees, or a bad floor', () => {
    const v1 = { version: 1, release: '0.1.0', folds: [] };
    expect(() =>
      defineKernelVersions({
        versions: [v1, { version: 3, release: '0.2.0', folds: [] }],
        oldestSupported: 1,
      }),
    ).toThrow(KernelVersionTableError);
    expect(() =>
      defineKernelVersions({
        versions: [
          v1,
          { version: 2, release: '0.2.0', folds: [A] },
          { version: 3, release: '0.2.0', folds: [A] },
        ],
        oldestSupported: 1,
      }),
    ).toThrow(/folded into two versions/);
    expect(() =>
      defineKernelVersions({
        versions: [v1, { version: 2, release: '0.2.0', folds: [C] }],
        oldestSupported: 1,
      }),
    ).toThrow(/retiredIn nothing/);
    expect(() => defineKernelVersions({ versions: [v1], oldestSupported: 2 })).toThrow(
      /oldestSupported 2/,
    );
    expect(() => defineKernelVersions({ versions: [], oldestSupported: 1 })).toThrow(
      KernelVersionTableError,
    );
  });
});

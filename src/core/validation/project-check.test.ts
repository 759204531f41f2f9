import { describe, expect, it } from 'vitest';
import {
  ChecksConfigSchema,
  effectiveProjectChecks,
  mergeChecksConfig,
  type ProjectCheck,
} from './project-check.js';

const detected: ProjectCheck[] = [
  { name: 'test', command: 'npm test', source: 'package.json' },
  { name: 'lint', command: 'npm run lint', source: 'package.json' },
];

describe('effective project checks', () => {
  it('are the detected ones, all required, without a checks config', () => {
    expect(effectiveProjectChecks(detected, undefined)).toEqual([
      { name: 'test', command: 'npm test', advisory: false },
      { name: 'lint', command: 'npm run lint', advisory: false },
    ]);
  });

  it('adds, replaces by name and marks advisory; detect: false keeps only the added ones', () => {
    const config = ChecksConfigSchema.parse({
      add: [
        { name: 'test', command: 'npx vitest run' },
        { name: 'types', command: 'npx tsc --noEmit', advisory: true },
      ],
      advisory: ['lint'],
    });
    expect(effectiveProjectChecks(detected, config)).toEqual([
      { name: 'test', command: 'npx vitest run', advisory: false },
      { name: 'lint', command: 'npm run lint', advisory: true },
      { name: 'types', command: 'npx tsc --noEmit', advisory: true },
    ]);
    expect(
      effectiveProjectChecks(detected, { ...config, detect: false }).map((c) => c.name),
    ).toEqual(['test', 'types']);
  });

  it("merge the user's global config with a repository's, the repository's check winning by name", () => {
    const global = ChecksConfigSchema.parse({
      add: [{ name: 'a', command: 'x' }],
      advisory: ['lint'],
    });
    const repository = ChecksConfigSchema.parse({
      add: [{ name: 'a', command: 'y' }],
      detect: false,
    });
    expect(mergeChecksConfig(global, repository)).toEqual({
      detect: false,
      add: [{ name: 'a', command: 'y', advisory: false }],
      advisory: ['lint'],
    });
    expect(mergeChecksConfig(undefined, repository)).toBe(repository);
    expect(mergeChecksConfig(global, undefined)).toBe(global);
  });
});
